import { defineConfig } from "vitest/config";

// Kept apart from vite.config.ts: the React Router plugin must not run under Vitest.
export default defineConfig({
  esbuild: { jsx: "automatic" },
  test: {
    // jsdom by default; a file that uses no DOM says `// @vitest-environment node` on its first line
    // and runs without building one.
    environment: "jsdom",
    // Worker threads start and message faster than child processes (the default); every file is
    // still isolated (its own module graph, setup and environment).
    pool: "threads",
    globals: false,
    setupFiles: ["./src/testing/setup.ts"],
    include: ["src/**/*.test.{ts,tsx}", "scripts/**/*.test.ts"],
    restoreMocks: true,
    testTimeout: 15000,
  },
});
