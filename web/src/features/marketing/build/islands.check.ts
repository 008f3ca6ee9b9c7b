//! Checks that the public pages are static HTML with small islands: no React Router, no React DOM,
//! and at most 40 KB of gzipped JavaScript before any interaction on `/` and on the search pages.

import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { islandPaths, marketingPaths } from "../routes";

const dist = resolve(process.env.WEB_DIST ?? "dist");
const BUDGET = 40 * 1024;

const htmlOf = (path: string) => readFileSync(join(dist, path === "/" ? "" : path.slice(1), "index.html"), "utf8");
const fileOf = (url: string) => join(dist, new URL(url, "https://site.invalid/").pathname.slice(1));

/** Chunks only an interaction or a signed-in session loads: the download chooser, PostHog (after Accept),
 * the signed-in pricing cards. */
const AFTER_INTERACTION = [/^DownloadModal-/, /^posthog-/, /^pricingLive-/];

/**
 * The modules a first-time visitor's browser loads before any interaction, with every island in view
 * and the demo playing: the page's scripts, module preloads and inline module scripts' imports, and
 * everything those import, statically or at run time, except the chunks in AFTER_INTERACTION.
 */
export function startupScripts(html: string): string[] {
  const entries = new Set<string>();
  for (const m of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) entries.add(m[1]!);
  for (const m of html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g)) entries.add(m[1]!);
  for (const m of html.matchAll(/<script\b[^>]*type="module"[^>]*>([\s\S]*?)<\/script>/g)) {
    for (const spec of m[1]!.matchAll(/(?:from\s*|import\s*\(?\s*)"([^"]+\.js)"/g)) entries.add(spec[1]!);
  }
  const seen = new Set<string>();
  const visit = (url: string) => {
    const abs = new URL(url, "https://site.invalid/").pathname;
    if (seen.has(abs) || AFTER_INTERACTION.some((name) => name.test(abs.split("/").pop()!))) return;
    seen.add(abs);
    const code = readFileSync(fileOf(abs), "utf8");
    // `import ... from "./x.js"`, `import "./x.js"` and `import("./x.js")`.
    for (const m of code.matchAll(/\b(?:from\s*|import\s*\(?\s*)"(\.{1,2}\/[^"]+\.js|\/[^"]+\.js)"/g)) {
      visit(new URL(m[1]!, `https://site.invalid${abs}`).pathname);
    }
  };
  for (const entry of entries) visit(entry);
  return [...seen];
}

const gzipBytes = (urls: string[]) => urls.reduce((sum, url) => sum + gzipSync(readFileSync(fileOf(url))).length, 0);

describe("public pages are HTML with islands", () => {
  it.each(["/", marketingPaths[1]!, "/ai-sales-assistant"])("%s loads at most 40 KB of JavaScript (gzip) before any interaction", (path) => {
    const scripts = startupScripts(htmlOf(path));
    expect(scripts.length, `${path} loads its islands`).toBeGreaterThan(0);
    const bytes = gzipBytes(scripts);
    expect(bytes, `${path}: ${(bytes / 1024).toFixed(1)} KB gzip in ${scripts.join(", ")}`).toBeLessThanOrEqual(BUDGET);
  });

  it.each(islandPaths)("%s starts no React Router app", (path) => {
    const html = htmlOf(path);
    expect(html).not.toContain("__reactRouterContext");
    expect(html).not.toMatch(/rel="modulepreload"/);
    expect(html).toMatch(/<script type="module" src="\/assets\/islands\/[^"]+\.js"><\/script>/);
  });

  it("the account pages stay the React app", () => {
    for (const path of ["/signin", "/signup"]) expect(htmlOf(path)).toContain("__reactRouterContext");
    expect(existsSync(join(dist, "__spa-fallback.html"))).toBe(true);
    expect(readFileSync(join(dist, "__spa-fallback.html"), "utf8")).toContain("__reactRouterContext");
  });
});
