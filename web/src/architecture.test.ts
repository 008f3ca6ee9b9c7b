//! The layout rules of STYLE.md, checked: no feature imports another feature, and lib/ and config/
//! (the app's foundations) import no feature or component.

import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const src = dirname(fileURLToPath(import.meta.url));

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return /\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

function imports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/(?:import|export)\s[^'"]*?from\s+["'](\.[^"']+)["']|import\s*\(?\s*["'](\.[^"']+)["']/g)].map((m) =>
    relative(src, resolve(dirname(file), (m[1] ?? m[2])!)).split(sep).join("/"),
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
});
