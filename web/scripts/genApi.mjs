// The web's API types, generated from docs/openapi.json (itself generated from the API's handlers,
// `./just openapi`) by openapi-typescript (pinned in package.json) and formatted by Prettier.
//
// One file per OpenAPI tag in src/lib/api/gen/ (`auth.gen.ts`: the paths of that tag and the
// component schemas only they use), the schemas several tags share in `common.gen.ts`, and
// `index.ts`, which joins them into the document's `paths` and `components`. No file grows past
// MAX_LINES (the repository's rule): a tag (or the shared schemas) too large for one file is cut
// into numbered parts (`teams.1.gen.ts`, `teams.2.gen.ts`…), and a schema used by several parts
// of a tag lives in the shared file. A reference to a schema of another file is an import of it.
//
// `npm run gen:api` rewrites the folder; `npm run gen:api -- --check` fails when any file is
// stale, missing or left over (scripts/genApi.test.ts runs the same check in `npm test`).
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";
import prettier from "prettier";
import ts from "typescript";

const here = dirname(fileURLToPath(import.meta.url));
export const documentPath = resolve(here, "../../docs/openapi.json");
export const outputDir = resolve(here, "../src/lib/api/gen");
/** The repository's limit is 500 lines a file; generated files keep a line of margin. */
export const MAX_LINES = 499;
const SCHEMA_REF = "#/components/schemas/";
const COMMON = "common";

/**
 * The document without its `operationId`s: the web names operations by path and method, so that
 * renaming an operation does not change the web's types.
 */
function withoutOperationIds(document) {
  const paths = Object.fromEntries(
    Object.entries(document.paths ?? {}).map(([path, item]) => [
      path,
      Object.fromEntries(Object.entries(item).map(([method, op]) => [method, { ...op, operationId: undefined }])),
    ]),
  );
  return { ...document, paths };
}

/** The names of the schemas `value` refers to (directly). */
function refsIn(value, into = new Set()) {
  if (Array.isArray(value)) value.forEach((v) => refsIn(v, into));
  else if (value && typeof value === "object") {
    if (typeof value.$ref === "string" && value.$ref.startsWith(SCHEMA_REF)) into.add(value.$ref.slice(SCHEMA_REF.length));
    Object.values(value).forEach((v) => refsIn(v, into));
  }
  return into;
}

/** The schemas `value` uses, following references between schemas. */
function closure(value, schemas) {
  const seen = new Set();
  const todo = [...refsIn(value)];
  while (todo.length) {
    const name = todo.pop();
    if (seen.has(name)) continue;
    seen.add(name);
    todo.push(...refsIn(schemas[name] ?? {}));
  }
  return seen;
}

/**
 * Replaces references to schemas another file holds with markers the `transform` hook below
 * turns into that file's type (`common["schemas"]["ErrorBody"]`, `common` being its `components`).
 */
function markForeign(value, local, ownerOf) {
  if (Array.isArray(value)) return value.map((v) => markForeign(v, local, ownerOf));
  if (!value || typeof value !== "object") return value;
  if (typeof value.$ref === "string" && value.$ref.startsWith(SCHEMA_REF)) {
    const name = value.$ref.slice(SCHEMA_REF.length);
    if (!local.has(name)) return { type: "object", "x-foreign": { file: ownerOf.get(name), name } };
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, markForeign(v, local, ownerOf)]));
}

/** The import name of a generated file (`teams.1` → `teams1`). */
const alias = (file) => file.replace(/[^A-Za-z0-9]/g, "");

function foreignType(file, name) {
  const literal = (text) => ts.factory.createLiteralTypeNode(ts.factory.createStringLiteral(text));
  const schemas = ts.factory.createIndexedAccessTypeNode(ts.factory.createTypeReferenceNode(alias(file)), literal("schemas"));
  return ts.factory.createIndexedAccessTypeNode(schemas, literal(name));
}

async function format(text, path) {
  const options = (await prettier.resolveConfig(path)) ?? {};
  return prettier.format(text, { ...options, filepath: path });
}

/** One file's text: `paths` (of the document's `pathItems`) and the schemas named `local`. */
async function generateFile(file, document, pathItems, local, ownerOf) {
  const schemas = Object.fromEntries([...local].sort().map((name) => [name, document.components.schemas[name]]));
  const part = markForeign({ ...document, paths: pathItems, components: { ...document.components, schemas } }, local, ownerOf);
  const imports = new Set();
  const ast = await openapiTS(part, {
    alphabetize: true,
    transform(schema) {
      const foreign = schema["x-foreign"];
      if (!foreign) return undefined;
      imports.add(foreign.file);
      return foreignType(foreign.file, foreign.name);
    },
  });
  const body = astToString(ast);
  const importLines = [...imports]
    .sort()
    .map((f) => `import type { components as ${alias(f)} } from "./${f}.gen";\n`)
    .join("");
  const header = `// GENERATED by \`npm run gen:api\` from docs/openapi.json: do not edit. Named aliases: ../types.ts.\n\n`;
  const path = join(outputDir, `${file}.gen.ts`);
  return format(header + importLines + (importLines ? "\n" : "") + body, path);
}

const lineCount = (text) => text.split("\n").length - 1;

/** The index: the document's `paths` and `components` joined from the files. */
async function generateIndex(files) {
  const withPaths = files.filter((f) => f.paths.length).map((f) => f.name);
  const withSchemas = files.filter((f) => f.schemas.size).map((f) => f.name);
  const names = files.map((f) => f.name).sort();
  const text =
    `// GENERATED by \`npm run gen:api\` from docs/openapi.json: do not edit. Named aliases: ../types.ts.\n\n` +
    names.map((f) => `import type * as ${alias(f)} from "./${f}.gen";\n`).join("") +
    `\n/** Every path of the API (each file holds one tag's). */\n` +
    `export type paths = ${withPaths.map((f) => `${alias(f)}.paths`).join(" & ")};\n\n` +
    `/** Every component schema of the API. */\n` +
    `export interface components {\n  schemas: ${withSchemas.map((f) => `${alias(f)}.components["schemas"]`).join(" & ")};\n}\n`;
  return format(text, join(outputDir, "index.ts"));
}

/**
 * How many lines each path and each schema takes in the generated text of the whole document:
 * the sizes the files are packed by.
 */
async function measure(document) {
  const text = await format(astToString(await openapiTS(document, { alphabetize: true })), join(outputDir, "all.ts"));
  const lines = text.split("\n");
  const sizes = new Map();
  /** Entries of the block opened at line `open`, at `indent`, named by `pattern`. */
  const entries = (open, indent, pattern, key) => {
    let last;
    for (let i = open + 1; i < lines.length; i++) {
      if (lines[i].startsWith(" ".repeat(indent - 2) + "}")) {
        if (last) sizes.set(last.key, i - last.start);
        return;
      }
      const match =
        lines[i].startsWith(" ".repeat(indent)) &&
        !lines[i].startsWith(" ".repeat(indent + 1)) &&
        lines[i].slice(indent).match(pattern);
      if (match) {
        if (last) sizes.set(last.key, i - last.start);
        last = { key: key(match[1]), start: i };
      }
    }
  };
  entries(lines.indexOf("export interface paths {"), 2, /^"([^"]+)": \{$/, (path) => `path ${path}`);
  entries(lines.indexOf("  schemas: {"), 4, /^(\w+): /, (name) => `schema ${name}`);
  return (key) => sizes.get(key) ?? 0;
}

/** Every file's header and closing lines, and a margin for the estimate. */
const OVERHEAD = 40;

/** `items` in consecutive parts, each of at most `budget` by `size` (an item larger is alone). */
function pack(items, size, budget) {
  const parts = [[]];
  let used = 0;
  for (const item of items) {
    const s = size(item);
    if (parts.at(-1).length && used + s > budget) {
      parts.push([]);
      used = 0;
    }
    parts.at(-1).push(item);
    used += s;
  }
  return parts.filter((p) => p.length);
}

/** Names parts: `tag` alone, or `tag.1`, `tag.2`… */
const named = (tag, parts) => parts.map((p, i) => ({ tag, name: parts.length > 1 ? `${tag}.${i + 1}` : tag, items: p }));

/**
 * The generated files for the OpenAPI document `document` (parsed JSON): a map from file name
 * (in src/lib/api/gen/) to its text.
 */
export async function generate(document = JSON.parse(readFileSync(documentPath, "utf8"))) {
  document = withoutOperationIds(document);
  const schemas = document.components?.schemas ?? {};
  const size = await measure(document);
  const byTag = new Map();
  for (const path of Object.keys(document.paths).sort()) {
    const ops = Object.values(document.paths[path]).filter((op) => op && typeof op === "object");
    const tag = ops.flatMap((op) => op.tags ?? []).sort()[0] ?? "untagged";
    if (!byTag.has(tag)) byTag.set(tag, []);
    byTag.get(tag).push(path);
  }
  // Each tag's budget of path lines, lowered until its files (with their own schemas) fit.
  const budget = new Map([...byTag.keys(), COMMON].map((k) => [k, MAX_LINES - OVERHEAD]));
  for (;;) {
    const groups = [...byTag].flatMap(([tag, paths]) =>
      named(
        tag,
        pack(paths, (p) => size(`path ${p}`), budget.get(tag)),
      ),
    );
    const users = new Map();
    for (const group of groups) {
      const items = Object.fromEntries(group.items.map((p) => [p, document.paths[p]]));
      for (const name of closure(items, schemas)) users.set(name, [...(users.get(name) ?? []), group.name]);
    }
    const only = (name) => (users.get(name)?.length === 1 ? users.get(name)[0] : undefined);
    const shared = Object.keys(schemas)
      .filter((name) => !only(name))
      .sort();
    const files = [
      ...groups.map((g) => ({ ...g, paths: g.items, schemas: new Set(Object.keys(schemas).filter((n) => only(n) === g.name)) })),
      ...named(
        COMMON,
        pack(shared, (n) => size(`schema ${n}`), budget.get(COMMON)),
      ).map((g) => ({ ...g, paths: [], schemas: new Set(g.items) })),
    ];
    const estimate = (f) =>
      OVERHEAD + f.paths.reduce((n, p) => n + size(`path ${p}`), 0) + [...f.schemas].reduce((n, s) => n + size(`schema ${s}`), 0);
    const over = files.filter((f) => estimate(f) > MAX_LINES);
    if (over.length) {
      for (const f of over) budget.set(f.tag, budget.get(f.tag) - 50);
      continue;
    }
    const ownerOf = new Map(files.flatMap((f) => [...f.schemas].map((n) => [n, f.name])));
    const out = new Map();
    for (const f of files) {
      const items = Object.fromEntries(f.paths.map((p) => [p, document.paths[p]]));
      const text = await generateFile(f.name, document, items, f.schemas, ownerOf);
      if (lineCount(text) > MAX_LINES)
        throw new Error(`${f.name}.gen.ts has ${lineCount(text)} lines: raise OVERHEAD in genApi.mjs`);
      out.set(`${f.name}.gen.ts`, text);
    }
    out.set("index.ts", await generateIndex(files));
    return out;
  }
}

/** The files in src/lib/api/gen/ now. */
export function current() {
  let names = [];
  try {
    names = readdirSync(outputDir);
  } catch {
    // no folder yet
  }
  return new Map(names.sort().map((name) => [name, readFileSync(join(outputDir, name), "utf8")]));
}

/** What differs between the files `fresh` and `existing`: stale, missing and left-over names. */
export function differences(fresh, existing = current()) {
  const names = new Set([...fresh.keys(), ...existing.keys()]);
  return [...names].sort().flatMap((name) => {
    if (!existing.has(name)) return [`${name} is missing`];
    if (!fresh.has(name)) return [`${name} is left over`];
    return existing.get(name) === fresh.get(name) ? [] : [`${name} is stale`];
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const fresh = await generate();
  if (process.argv.includes("--check")) {
    const wrong = differences(fresh);
    if (wrong.length) {
      console.error(`src/lib/api/gen/: ${wrong.join(", ")}: run \`npm run gen:api\` (in web/).`);
      process.exit(1);
    }
  } else {
    rmSync(outputDir, { recursive: true, force: true });
    mkdirSync(outputDir, { recursive: true });
    for (const [name, text] of fresh) writeFileSync(join(outputDir, name), text);
  }
}
