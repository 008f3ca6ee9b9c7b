import { readdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join, relative } from "node:path";
import { configDefaults, defineConfig } from "vitest/config";

const INCLUDE = ["src/**/*.test.{ts,tsx}", "scripts/**/*.test.ts"];
const root = import.meta.dirname;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : testFiles(path);
    return /\.test\.tsx?$/.test(entry.name) ? [relative(root, path)] : [];
  });
}

// Pure modules' tests: a file that runs in Node (`// @vitest-environment node` on its first line) and
// touches neither the mock API nor the render harness needs none of setup.ts (MSW, the OpenAPI
// contract check, the DOM's stand-ins), which costs each file about as much as its tests.
const HARNESS = /from "[^"]*(testing\/(server|handlers|render|router|setup|openapi)|msw[/"])|\bfetch\(/;
const pure = ["src", "scripts"]
  .flatMap((dir) => testFiles(join(root, dir)))
  .filter((file) => {
    const source = readFileSync(join(root, file), "utf8");
    return source.startsWith("// @vitest-environment node") && !HARNESS.test(source);
  });

// Kept apart from vite.config.ts: the React Router plugin must not run under Vitest.
export default defineConfig({
  esbuild: { jsx: "automatic" },
  test: {
    // Worker threads start and message faster than child processes (the default); every file is
    // still isolated (its own module graph, setup and environment).
    pool: "threads",
    // One worker per core. Vitest's default leaves one core to its main thread (cores - 1), which on
    // a two-core machine is a single worker with the second core mostly idle.
    maxWorkers: availableParallelism(),
    globals: false,
    restoreMocks: true,
    testTimeout: 15000,
    projects: [
      {
        extends: true,
        test: {
          name: "app",
          // jsdom by default; a file that uses no DOM says `// @vitest-environment node` on its first
          // line and runs without building one.
          environment: "jsdom",
          setupFiles: ["./src/testing/setup.ts"],
          include: INCLUDE,
          exclude: [...configDefaults.exclude, ...pure],
        },
      },
      { extends: true, test: { name: "pure", environment: "node", include: pure } },
    ],
  },
});
