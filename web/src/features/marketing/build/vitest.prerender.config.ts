import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Checks the built site (web/dist, or $WEB_DIST) rather than components, so it runs after `npm run build`:
//   npm run build && npx vitest run -c src/features/marketing/build/vitest.prerender.config.ts
export default defineConfig({
  root: fileURLToPath(new URL("../../../..", import.meta.url)),
  test: {
    environment: "jsdom",
    include: ["src/features/marketing/build/*.check.ts"],
    testTimeout: 30000,
  },
});
