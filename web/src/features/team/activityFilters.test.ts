// @vitest-environment node
//! Every audit action the server writes for a team has a place in the Activity page's filter, so a
//! new kind of change (membership, role, seat, billing, policy, domain, SSO and SCIM
//! changes, filterable) cannot be left out of it.

import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ACTIVITY_FILTERS } from "./components/activityFilters";

const crates = resolve(dirname(fileURLToPath(import.meta.url)), "../../../../crates");

function rustSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === "tests" || e.name === "target" ? [] : rustSources(path);
    return e.name.endsWith(".rs") ? [path] : [];
  });
}

describe("Activity filters", () => {
  it("cover every team audit action the server writes", () => {
    const written = new Set<string>();
    for (const crate of ["core", "api", "cli"]) {
      for (const file of rustSources(join(crates, crate, "src"))) {
        for (const m of readFileSync(file, "utf8").matchAll(/"(team\.[a-z_]+(?:\.[a-z_]+)?)"/g)) written.add(m[1] ?? "");
      }
    }
    expect(written.size).toBeGreaterThan(30);
    const filtered = new Set(ACTIVITY_FILTERS.flatMap((f) => f.actions));
    expect([...written].filter((a) => !filtered.has(a)).sort()).toEqual([]);
    expect([...filtered].filter((a) => !written.has(a)).sort()).toEqual([]);
  });
});
