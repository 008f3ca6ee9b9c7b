// @vitest-environment node
//! The mails the server composes link to pages of this app (`Composer::page` in crates/core):
//! each link's path is a route here, and its `#anchor` an id a component of that page renders.

import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

import clientRoutePaths from "../clientRoutes.json";

const here = dirname(fileURLToPath(import.meta.url));
const files = (dir: string, ext: RegExp): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return files(path, ext);
    return ext.test(e.name) ? [path] : [];
  });

describe("mail links", () => {
  it("point at a page of the app, and at an id that page renders", () => {
    const core = resolve(here, "../../../crates/core/src");
    const links = files(core, /\.rs$/).flatMap((f) =>
      [...readFileSync(f, "utf8").matchAll(/\.page\("([^"]+)"\)/g)].map((m) => m[1] ?? ""),
    );
    expect(links).toContain("/settings#devices");
    expect(links.length).toBeGreaterThan(1);
    const components = files(resolve(here, "../features"), /\.tsx$/)
      .filter((f) => !/\.test\.tsx$/.test(f))
      .map((f) => readFileSync(f, "utf8"))
      .join("\n");
    const routes: string[] = clientRoutePaths;
    for (const link of links) {
      const [path, anchor] = link.split("#");
      expect(path, `${link}: no query, the page reads none`).not.toContain("?");
      expect(routes, `${link}: a route of the app`).toContain(path);
      if (anchor) expect(components, `${link}: an element with this id`).toContain(`id="${anchor}"`);
    }
  });
});
