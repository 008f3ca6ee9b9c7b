#!/usr/bin/env node
// Turns the prerendered public pages (dist/assets/islands/pages.json, written by vite.islands.config.ts) into
// static pages with islands: React Router's scripts (its context, module script, preload hints, scroll
// restoration and streaming scripts) go, an island's own inline script stays, and the islands script (dist/assets/islands/, see
// src/features/marketing/islands/main.ts) takes their place. The account pages keep the React app.
//
//   node src/features/marketing/build/islands.mjs dist      (run after the islands build)

import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const SCRIPT = /<script\b([^>]*)>[\s\S]*?<\/script>/g;
// The page's own scripts stay: its JSON-LD, and an island's inline script that fixes its HTML before the
// first paint (components/pricing/pricingUrl.ts).
const KEPT_SCRIPT = /type="application\/ld\+json"|data-island-script="/;
const PRELOAD = /<link\b[^>]*\brel="modulepreload"[^>]*\/?>/g;
// What React's streaming leaves once its scripts are gone: empty hidden boxes and their placeholders.
const STREAM_LEFTOVERS = /<div hidden id="S:\d+"><\/div>|<!--\$\?--><template id="B:\d+"><\/template><!--\/\$-->/g;

/** The page with the islands script instead of React Router's; throws when the page is not one of its. */
export function toIslandsPage(html, entry) {
  if (!html.includes("window.__reactRouterContext")) throw new Error("not a React Router page");
  const stripped = html
    .replace(SCRIPT, (tag, attrs) => (KEPT_SCRIPT.test(attrs) ? tag : ""))
    .replace(PRELOAD, "")
    .replace(STREAM_LEFTOVERS, "");
  return stripped.replace("</head>", `<script type="module" src="${entry}"></script></head>`);
}

export function islandsIn(dir) {
  const built = join(dir, "assets", "islands");
  const manifest = JSON.parse(readFileSync(join(built, ".vite", "manifest.json"), "utf8"));
  const main = Object.values(manifest).find((chunk) => chunk.isEntry);
  if (!main) throw new Error(`islands: no entry in ${built}/.vite/manifest.json`);
  const entry = `/assets/islands/${main.file}`;
  const pages = JSON.parse(readFileSync(join(built, "pages.json"), "utf8"));
  for (const path of pages) {
    const file = join(dir, path === "/" ? "" : path.slice(1), "index.html");
    try {
      writeFileSync(file, toIslandsPage(readFileSync(file, "utf8"), entry));
    } catch (error) {
      throw new Error(`islands: ${file}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { pages: pages.length, entry };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = resolve(process.argv[2] ?? "dist");
  const { pages, entry } = islandsIn(dir);
  console.log(`islands: ${pages} public pages in ${dir} load ${entry} instead of the app`);
}
