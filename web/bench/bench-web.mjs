#!/usr/bin/env node
// Builds the web app, serves web/dist, and reports for the landing page and two search pages:
// the gzip bytes of HTML, CSS and JavaScript a first visit loads, and the four Lighthouse scores on mobile.
//
//   node bench-web.mjs [--no-build] [--no-lighthouse] [--url http://127.0.0.1:8080] [--min 100] [--json reports/latest.json]
//
// --url benchmarks a running server (e.g. the API serving the built site) instead of the built-in one.
// --min makes the command fail when any score is below that number.

import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { dirname, extname, join, normalize, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const here = dirname(fileURLToPath(import.meta.url));
const webDir = resolve(here, "..");
export const dist = resolve(process.env.WEB_DIST ?? join(webDir, "dist"));

export const PAGES = ["/", "/ai-sales-assistant", "/best-ai-for-sales-teams"];
export const CHROME_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"];

function parseArgs(argv) {
  const args = { build: true, url: null, min: null, json: null, lighthouse: true };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--no-build") args.build = false;
    else if (arg === "--url") args.url = argv[++i];
    else if (arg === "--min") args.min = Number(argv[++i]);
    else if (arg === "--json") args.json = argv[++i];
    else if (arg === "--no-lighthouse") args.lighthouse = false;
    else
      throw new Error(
        `Unknown argument ${arg}. Usage: node bench-web.mjs [--no-build] [--no-lighthouse] [--url URL] [--min N] [--json FILE]`,
      );
  }
  if (args.min !== null && !(args.min >= 0 && args.min <= 100)) throw new Error("--min takes a score from 0 to 100");
  return args;
}

export function build() {
  console.log("Building the site (npm run build)...");
  const result = spawnSync("npm", ["--prefix", webDir, "run", "build"], { stdio: "inherit" });
  if (result.status !== 0) throw new Error(`npm run build failed with status ${result.status}`);
}

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8",
  ".xml": "application/xml",
  ".woff2": "font/woff2",
};

/** File for a URL path: the file itself, a prerendered index.html, or null. */
export function resolveFile(root, urlPath) {
  const clean = normalize(decodeURIComponent(urlPath.split("?")[0])).replace(/^(\.\.(\/|\\|$))+/, "");
  const candidate = join(root, clean);
  if (!candidate.startsWith(root + sep) && candidate !== root) return null;
  if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  const index = join(candidate, "index.html");
  return existsSync(index) ? index : null;
}

/** A small static server for web/dist: gzip, immutable caching for hashed assets, the app shell with 404 otherwise. */
export function serve(root) {
  const cache = new Map();
  const server = createServer((req, res) => {
    let file = resolveFile(root, req.url ?? "/");
    let status = 200;
    if (!file) {
      file = join(root, "__spa-fallback.html");
      status = 404;
    }
    let body = cache.get(file);
    if (!body) {
      const raw = readFileSync(file);
      body = { raw, gzip: gzipSync(raw, { level: 9 }) };
      cache.set(file, body);
    }
    const headers = {
      "Content-Type": TYPES[extname(file)] ?? "application/octet-stream",
      "Cache-Control": file.includes(`${sep}assets${sep}`) ? "public, max-age=31536000, immutable" : "no-cache",
      "X-Content-Type-Options": "nosniff",
      Vary: "Accept-Encoding",
    };
    const gzip = /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""));
    if (gzip) headers["Content-Encoding"] = "gzip";
    res.writeHead(status, headers);
    res.end(gzip ? body.gzip : body.raw);
  });
  return new Promise((ok) => server.listen(0, "127.0.0.1", () => ok(server)));
}

const gz = (buffer) => gzipSync(buffer, { level: 9 }).length;

const STATIC_IMPORT = /(?:^|[^\w$.])(?:import|export)\s*(?:[\w$*{}\s,]*?\bfrom\s*)?["']([^"']+\.js)["']/g;
const DYNAMIC_IMPORT = /\bimport\(\s*["']([^"']+\.js)["']\s*\)/g;

/** Island chunks only an interaction or a signed-in session loads (as in build/islands.check.ts). */
const AFTER_INTERACTION = /^(DownloadModal|posthog|pricingLive)-/;

/**
 * Gzip bytes of what a first visit to `path` loads before any interaction: the HTML, its stylesheets,
 * every module its scripts import statically, and the islands' chunks with every island in view (the
 * demo player included; not the download chooser, PostHog after consent or the signed-in pricing).
 */
export async function pageWeight(base, path) {
  const get = async (url) => Buffer.from(await (await fetch(url, { headers: { "accept-encoding": "identity" } })).arrayBuffer());
  const pageUrl = new URL(path, base);
  const html = await get(pageUrl);
  const text = html.toString("utf8");
  const attr = (re) => [...text.matchAll(re)].map((m) => m[1]);
  const css = new Set(attr(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"/g).map((href) => new URL(href, pageUrl).href));
  const inline = [...text.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join("\n");
  const queue = [
    ...attr(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g),
    ...attr(/<script[^>]+type="module"[^>]+src="([^"]+)"/g),
    ...[...inline.matchAll(STATIC_IMPORT)].map((m) => m[1]),
    ...[...inline.matchAll(DYNAMIC_IMPORT)].map((m) => m[1]),
  ].map((src) => new URL(src, pageUrl).href);
  const js = new Map();
  while (queue.length) {
    const url = queue.shift();
    if (js.has(url)) continue;
    const body = await get(url);
    js.set(url, gz(body));
    const code = body.toString("utf8");
    for (const m of code.matchAll(STATIC_IMPORT)) queue.push(new URL(m[1], url).href);
    // The islands (web/src/features/marketing/islands) load their chunks at start or on sight.
    for (const m of code.matchAll(DYNAMIC_IMPORT)) {
      if (!AFTER_INTERACTION.test(m[1].split("/").pop())) queue.push(new URL(m[1], url).href);
    }
  }
  let cssBytes = 0;
  for (const href of css) cssBytes += gz(await get(href));
  const jsBytes = [...js.values()].reduce((a, b) => a + b, 0);
  return { html: gz(html), css: cssBytes, js: jsBytes, jsFiles: js.size, inlineScript: gz(Buffer.from(inline)) };
}

async function lighthouseScores(urls) {
  const chromePath = process.env.CHROME_PATH ?? "/usr/bin/chromium";
  if (!existsSync(chromePath)) {
    throw new Error(`Chromium not found at ${chromePath}. Install it (apt-get install -y chromium) or set CHROME_PATH.`);
  }
  const { launch } = await import("chrome-launcher");
  const { default: lighthouse } = await import("lighthouse");
  const chrome = await launch({ chromePath, chromeFlags: CHROME_FLAGS });
  const results = {};
  try {
    for (const url of urls) {
      // Lighthouse's default configuration is a mobile device on a throttled connection.
      const run = await lighthouse(url, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: CATEGORIES });
      const lhr = run.lhr;
      results[url] = {
        scores: Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)])),
        failing: Object.values(lhr.audits)
          .filter(
            (a) =>
              a.score !== null &&
              a.score < 1 &&
              a.scoreDisplayMode !== "informative" &&
              a.scoreDisplayMode !== "manual" &&
              a.scoreDisplayMode !== "notApplicable",
          )
          .map((a) => `${a.id} (${a.displayValue ?? Math.round(a.score * 100)})`),
        metrics: {
          fcp: lhr.audits["first-contentful-paint"]?.displayValue,
          lcp: lhr.audits["largest-contentful-paint"]?.displayValue,
          tbt: lhr.audits["total-blocking-time"]?.displayValue,
          cls: lhr.audits["cumulative-layout-shift"]?.displayValue,
        },
        consoleErrors: (lhr.audits["errors-in-console"]?.details?.items ?? []).map(
          (item) => `${item.source}: ${item.description}`,
        ),
        runtimeError: lhr.runtimeError?.message,
      };
    }
  } finally {
    await chrome.kill();
  }
  return results;
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} kB`;

async function main() {
  const args = parseArgs(process.argv.slice(2));
  let server = null;
  let base = args.url;
  if (!base) {
    if (args.build) build();
    if (!existsSync(join(dist, "index.html"))) throw new Error(`No built site in ${dist}; run without --no-build.`);
    server = await serve(dist);
    base = `http://127.0.0.1:${server.address().port}`;
  }
  try {
    const report = { base, pages: {} };
    console.log(`\nPage weight (gzip) at ${base}`);
    console.log("path".padEnd(28), "HTML".padStart(10), "CSS".padStart(10), "JS".padStart(10), "JS files".padStart(9));
    for (const path of PAGES) {
      const weight = await pageWeight(base, path);
      report.pages[path] = { weight };
      console.log(
        path.padEnd(28),
        kb(weight.html).padStart(10),
        kb(weight.css).padStart(10),
        kb(weight.js).padStart(10),
        String(weight.jsFiles).padStart(9),
      );
    }
    if (!args.lighthouse) return;
    const scores = await lighthouseScores(PAGES.map((path) => new URL(path, base).href));
    console.log("\nLighthouse (mobile)");
    console.log("path".padEnd(28), ...CATEGORIES.map((c) => c.padStart(15)));
    let worst = 100;
    for (const path of PAGES) {
      const result = scores[new URL(path, base).href];
      report.pages[path].lighthouse = result;
      console.log(path.padEnd(28), ...CATEGORIES.map((c) => String(result.scores[c]).padStart(15)));
      worst = Math.min(worst, ...Object.values(result.scores));
    }
    for (const path of PAGES) {
      const result = report.pages[path].lighthouse;
      const m = result.metrics;
      console.log(`\n${path}: FCP ${m.fcp}, LCP ${m.lcp}, TBT ${m.tbt}, CLS ${m.cls}`);
      if (result.runtimeError) console.log(`  runtime error: ${result.runtimeError}`);
      if (result.failing.length) console.log(`  audits below 100: ${result.failing.join(", ")}`);
      for (const error of result.consoleErrors) console.log(`  console: ${error}`);
    }
    if (args.json) {
      mkdirSync(dirname(resolve(args.json)), { recursive: true });
      writeFileSync(resolve(args.json), `${JSON.stringify(report, null, 2)}\n`);
    }
    if (args.min !== null && worst < args.min) {
      console.error(`\nA score is below ${args.min} (lowest: ${worst}).`);
      process.exitCode = 1;
    }
  } finally {
    server?.close();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
