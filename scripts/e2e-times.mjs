// Each spec file's time in the last end-to-end run (e2e/test-results/results.json, Playwright's JSON
// report): the sum of its tests' durations per project, slowest first, so a slow spec is seen.
//   node scripts/e2e-times.mjs [results.json]
import { existsSync, readFileSync } from "node:fs";

const file = process.argv[2] ?? "e2e/test-results/results.json";
if (!existsSync(file)) {
  console.log(`(no ${file}: no per-spec times)`);
  process.exit(0);
}
const report = JSON.parse(readFileSync(file, "utf8"));
const perFile = new Map();
function walk(suite, specFile) {
  const fileName = suite.file ?? specFile;
  for (const spec of suite.specs ?? []) {
    for (const test of spec.tests ?? []) {
      const key = `${test.projectName.padEnd(9)} ${fileName}`;
      const entry = perFile.get(key) ?? { ms: 0, tests: 0 };
      entry.tests += 1;
      for (const result of test.results ?? []) entry.ms += result.duration ?? 0;
      perFile.set(key, entry);
    }
  }
  for (const child of suite.suites ?? []) walk(child, fileName);
}
for (const suite of report.suites ?? []) walk(suite, suite.file);
const rows = [...perFile.entries()].sort((a, b) => b[1].ms - a[1].ms);
const total = rows.reduce((sum, [, e]) => sum + e.ms, 0);
console.log(`==> time in each spec file (tests' own time, summed over the workers: ${(total / 1000).toFixed(0)} s in ${rows.reduce((n, [, e]) => n + e.tests, 0)} tests)`);
for (const [key, { ms, tests }] of rows) console.log(`${(ms / 1000).toFixed(1).padStart(7)} s  ${String(tests).padStart(3)} tests  ${key}`);
