//! The MSW layer stays a thin state machine (issue 23: "the MSW layer under half its size", from about
//! 2,350 lines): the mock API's non-test files under src/testing — the handlers, their state and
//! fixtures, the OpenAPI check — hold at most 1,100 lines. The test harness (setup, the MSW server and
//! worker, the app renderer) is not the mock API and is not counted.

import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));
const HARNESS = new Set(["setup.ts", "server.ts", "browser.ts", "render.tsx", "router.tsx"]);
export const MAX_MSW_LINES = 1100;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
  );
}

describe("the MSW layer", () => {
  it(`has at most ${MAX_MSW_LINES} lines of non-test code`, () => {
    const counted = files(here)
      .map((path) => relative(here, path))
      .filter((path) => /\.tsx?$/.test(path) && !/\.test\.tsx?$/.test(path) && !HARNESS.has(path));
    const lines = counted.map((path) => readFileSync(join(here, path), "utf8").split("\n").length - 1);
    const total = lines.reduce((a, b) => a + b, 0);
    expect(counted).toContain("handlers/account.ts");
    expect(total, `MSW layer: ${counted.map((p, i) => `${p} ${lines[i]}`).join(", ")}`).toBeLessThanOrEqual(MAX_MSW_LINES);
  });
});
