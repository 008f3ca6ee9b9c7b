// @vitest-environment node
//! The layout rules of STYLE.md, checked: no feature imports another feature or a route module;
//! components/ (shared UI) imports no feature or route module; lib/ and config/ (the app's foundations)
//! import no feature or component; and one naming scheme for files. ESLint enforces the import rules
//! too (eslint.config.js); this test keeps them when the linter is not run.

import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const src = dirname(fileURLToPath(import.meta.url));

function files(dir: string, pattern = /\.(ts|tsx)$/): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path, pattern);
    return pattern.test(name) ? [path] : [];
  });
}

function imports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/(?:import|export)\s[^'"]*?from\s+["'](\.[^"']+)["']|import\s*\(?\s*["'](\.[^"']+)["']/g)].map((m) =>
    relative(src, resolve(dirname(file), (m[1] ?? m[2])!))
      .split(sep)
      .join("/"),
  );
}

const area = (path: string) => {
  const [top, second] = path.split("/");
  return top === "features" ? `features/${second}` : top!;
};

describe("source layout", () => {
  const all = files(src).filter((f) => !/\.test\.tsx?$/.test(f));

  it("has no imports from one feature into another", () => {
    const problems: string[] = [];
    for (const file of all) {
      const from = relative(src, file).split(sep).join("/");
      if (!from.startsWith("features/")) continue;
      for (const target of imports(file)) {
        if (target.startsWith("features/") && area(target) !== area(from)) problems.push(`${from} -> ${target}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("keeps lib/ and config/ free of features and components", () => {
    const problems: string[] = [];
    for (const file of all) {
      const from = relative(src, file).split(sep).join("/");
      if (!from.startsWith("lib/") && !from.startsWith("config/")) continue;
      for (const target of imports(file)) {
        if (target.startsWith("features/") || target.startsWith("components/")) problems.push(`${from} -> ${target}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("keeps components/ free of features and route modules, and features free of route modules", () => {
    const problems: string[] = [];
    for (const file of all) {
      const from = relative(src, file).split(sep).join("/");
      if (!from.startsWith("components/") && !from.startsWith("features/")) continue;
      for (const target of imports(file)) {
        if (target.startsWith("app/") || (from.startsWith("components/") && target.startsWith("features/")))
          problems.push(`${from} -> ${target}`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe("product rules", () => {
  // "Subscribed means active or trialing" and the checkout button's labels are decided in
  // lib/billing/rules.ts only; everything else calls it (the generated lib/api/gen/ lists the statuses
  // the document enumerates, types.ts names them, tests check them).
  const owners = new Set(["lib/billing/rules.ts", "lib/api/types.ts"]);
  const rule = /"trialing"|Sign In Required|Verify Email First|Start Subscription|Buy Now/;

  it("live in lib/billing/rules.ts", () => {
    const problems = files(src)
      .map((file) => relative(src, file).split(sep).join("/"))
      .filter(
        (path) =>
          !/\.test\.tsx?$/.test(path) && !owners.has(path) && !path.startsWith("lib/api/gen/") && !path.startsWith("testing/"),
      )
      .filter((path) => rule.test(readFileSync(join(src, path), "utf8")));
    expect(problems).toEqual([]);
  });
});

describe("file names", () => {
  // Route modules and page copy are named after the URL they serve, the generated API types after the
  // API's paths they hold (kebab-case); everything else is
  // PascalCase for React components and camelCase otherwise. `.test`, `.check`, `.config`, `.d` are suffixes.
  const namedAfterUrl = [
    /^app\/[^/]+\.tsx?$/,
    /^features\/marketing\/routes\/[^/]+\.tsx$/,
    /^features\/marketing\/content\/[^/]+\.ts$/,
    /^lib\/api\/gen\/.+\.gen\.ts$/,
  ];
  const all = files(src, /\.(ts|tsx|mts|mjs|json)$/).map((file) => relative(src, file).split(sep).join("/"));
  const stem = (path: string) => path.split("/").pop()!.split(".")[0]!;

  it("are camelCase or PascalCase, except route modules and page copy, which are named after their URL", () => {
    const problems = all.filter((path) => {
      if (namedAfterUrl.some((pattern) => pattern.test(path))) return !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(stem(path));
      return !/^[a-zA-Z][a-zA-Z0-9]*$/.test(stem(path));
    });
    expect(problems).toEqual([]);
  });

  it("are PascalCase for components and camelCase for plain modules", () => {
    const problems = all.filter((path) => {
      if (namedAfterUrl.some((pattern) => pattern.test(path)) || /\.test\.tsx?$/.test(path)) return false;
      if (path.endsWith(".ts")) return !/^[a-z]/.test(stem(path));
      return /(^|\/)components\/.+\.tsx$/.test(path) && !/^[A-Z]/.test(stem(path));
    });
    expect(problems).toEqual([]);
  });
});
