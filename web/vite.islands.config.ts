//! The islands of the prerendered public pages (src/features/marketing/islands/main.ts), built after the
//! app into dist/assets/islands/ (served as immutable assets) with Preact standing in for React and a link-only stand-in for React Router.
//! Also writes dist/assets/islands/pages.json, the pages build/islands.mjs turns into islands pages.

import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";
import { islandPaths } from "./src/features/marketing/routes";

const islands = (file: string) => fileURLToPath(new URL(`./src/features/marketing/islands/${file}`, import.meta.url));

function islandPages(): Plugin {
  return {
    name: "closewise-island-pages",
    generateBundle() {
      this.emitFile({ type: "asset", fileName: "pages.json", source: `${JSON.stringify(islandPaths, null, 2)}\n` });
    },
  };
}

export default defineConfig({
  envPrefix: ["VITE_", "APP_BASE_URL"],
  base: "/assets/islands/",
  publicDir: false,
  resolve: {
    alias: [
      { find: /^react$/, replacement: islands("react.ts") },
      { find: /^react\/jsx-runtime$/, replacement: "preact/compat/jsx-runtime" },
      { find: /^react\/jsx-dev-runtime$/, replacement: "preact/compat/jsx-dev-runtime" },
      { find: /^react-dom$/, replacement: "preact/compat" },
      { find: /^react-router$/, replacement: islands("router.tsx") },
    ],
  },
  plugins: [islandPages()],
  build: {
    outDir: "dist/assets/islands",
    assetsDir: "",
    emptyOutDir: true,
    manifest: true,
    rollupOptions: {
      input: islands("main.ts"),
      // "use client" in React libraries means nothing here: there are no server components.
      onwarn(warning, warn) {
        if (warning.code !== "MODULE_LEVEL_DIRECTIVE") warn(warning);
      },
      // Named, so the size check (build/islands.check.ts) knows it loads only after consent.
      output: { manualChunks: (id) => (id.includes("/node_modules/posthog-js/") ? "posthog" : undefined) },
    },
  },
});
