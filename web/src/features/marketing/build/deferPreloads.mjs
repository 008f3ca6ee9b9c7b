#!/usr/bin/env node
// Removes the <link rel="modulepreload"> tags React Router puts in the <head> of prerendered pages.
// Those tags make a phone download the whole app (about 150 kB of gzipped JavaScript) at the same time
// as the page itself, which delays the first paint of content that needs no JavaScript at all. Without
// them the browser still loads the same modules through the page's module script, just after the
// content, and React re-adds the hints when it hydrates. The app shell for client-only routes keeps them.
//
//   node src/features/marketing/build/deferPreloads.mjs dist      (run after scripts/postbuild.mjs)

import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const PRELOAD = /<link\b[^>]*\brel="modulepreload"[^>]*\/?>/g;

/** The page without its module preload hints. */
export function deferModulePreloads(html) {
  return html.replace(PRELOAD, "");
}

/** Prerendered pages under `dir` (every index.html outside assets/). */
export function prerenderedPages(dir) {
  const found = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== "assets") found.push(...prerenderedPages(path));
    } else if (name === "index.html") {
      found.push(path);
    }
  }
  return found;
}

/** Rewrites every prerendered page under `dir`; returns how many hints were removed. */
export function deferPreloadsIn(dir) {
  let removed = 0;
  for (const file of prerenderedPages(dir)) {
    const html = readFileSync(file, "utf8");
    removed += (html.match(PRELOAD) ?? []).length;
    writeFileSync(file, deferModulePreloads(html));
  }
  return removed;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = resolve(process.argv[2] ?? "dist");
  const removed = deferPreloadsIn(dir);
  console.log(`deferPreloads: removed ${removed} module preload hints from ${prerenderedPages(dir).length} pages in ${dir}`);
}
