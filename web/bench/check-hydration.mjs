#!/usr/bin/env node
// Opens every prerendered page of the built site in Chromium and fails if React reports a hydration
// mismatch or the page throws: the static HTML and the app (or the page's islands) must agree.
//
//   node check-hydration.mjs [--no-build] [--url http://127.0.0.1:8080]
//
// Failed requests to /api/ are ignored when the built-in static server is used (there is no API behind it).

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { build, CHROME_FLAGS, dist, serve } from "./bench-web.mjs";

function parseArgs(argv) {
  const args = { build: true, url: null };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--no-build") args.build = false;
    else if (argv[i] === "--url") args.url = argv[++i];
    else throw new Error(`Unknown argument ${argv[i]}. Usage: node check-hydration.mjs [--no-build] [--url URL]`);
  }
  return args;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (!args.url && args.build) build();
  const manifestFile = join(dist, "routes.json");
  if (!existsSync(manifestFile)) throw new Error(`${manifestFile} is missing; build the site first.`);
  const paths = JSON.parse(readFileSync(manifestFile, "utf8")).prerendered;

  const server = args.url ? null : await serve(dist);
  const base = args.url ?? `http://127.0.0.1:${server.address().port}`;
  const chromePath = process.env.CHROME_PATH ?? "/usr/bin/chromium";
  const { launch } = await import("chrome-launcher");
  const puppeteer = await import("puppeteer-core");
  const chrome = await launch({ chromePath, chromeFlags: CHROME_FLAGS });
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
  const problems = [];
  try {
    for (const path of paths) {
      const page = await browser.newPage();
      const errors = [];
      page.on("console", (message) => {
        if (message.type() !== "error") return;
        const url = message.location()?.url ?? "";
        if (!args.url && url.includes("/api/")) return;
        errors.push(`${message.text()}${url ? ` (${url})` : ""}`);
      });
      page.on("pageerror", (error) => errors.push(`uncaught: ${error.message}`));
      const staticHtml = await (await fetch(new URL(path, base))).text();
      await page.goto(new URL(path, base).href, { waitUntil: "networkidle0", timeout: 60000 });
      // Hydration is done once React Router has taken over the page. A page with islands (no React
      // Router, see src/features/marketing/islands) is done once the network is idle: its islands in
      // view have loaded and rendered.
      if (!staticHtml.includes("/assets/islands/")) {
        await page.waitForFunction(() => Boolean(window.__reactRouterRouteModules && window.__reactRouterDataRouter), {
          timeout: 30000,
        });
      }
      const [staticH1, liveH1] = await page.evaluate((html) => {
        const prerendered = new DOMParser().parseFromString(html, "text/html").querySelector("h1");
        return [prerendered?.textContent ?? null, document.querySelector("h1")?.textContent ?? null];
      }, staticHtml);
      if (staticH1 !== null && liveH1 !== staticH1)
        errors.push(`h1 changed after hydration: ${JSON.stringify(staticH1)} -> ${JSON.stringify(liveH1)}`);
      console.log(`${errors.length ? "FAIL" : "ok  "} ${path}`);
      for (const error of errors) problems.push(`${path}: ${error}`);
      await page.close();
    }
  } finally {
    await browser.disconnect();
    await chrome.kill();
    server?.close();
  }
  if (problems.length) {
    console.error(`\n${problems.length} problem(s):\n${problems.join("\n")}`);
    process.exitCode = 1;
  } else {
    console.log(`\nAll ${paths.length} prerendered pages hydrate without errors.`);
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
