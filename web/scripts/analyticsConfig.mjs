// Points a built site (dist/) at an analytics host: every page's <head> gets the PostHog key and host
// as meta tags (src/config reads them at start, so one build serves with or without analytics), and
// routes.json the host's origin, which the API allows in its Content-Security-Policy.
// The build runs it when VITE_POSTHOG_KEY is set (scripts/postbuild.mjs); the e2e suite runs it on a
// copy of the one build to get a site with analytics.
//   node scripts/analyticsConfig.mjs DIST KEY [HOST]     (recompresses the pages it changes)
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { precompressFile } from "./precompress.mjs";

export const DEFAULT_HOST = "https://us.i.posthog.com";
const TAGS = /<meta name="closewise:posthog-(?:key|host)" content="[^"]*">/g;

const attribute = (value) => value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function pages(dir) {
  const found = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== "assets") found.push(...pages(path));
    } else if (name.endsWith(".html")) {
      found.push(path);
    }
  }
  return found;
}

/** Writes `key` and `host` into every page of `dist` and the host's origin into its routes.json. */
export function configureAnalytics(dist, { key, host = DEFAULT_HOST }, { precompress = false } = {}) {
  let origin;
  try {
    const url = new URL(host);
    if (url.protocol !== "https:" && url.protocol !== "http:") throw new Error(url.protocol);
    origin = url.origin;
  } catch {
    throw new Error(`VITE_POSTHOG_HOST must be an absolute http(s) URL, got "${host}"`);
  }
  const tags = `<meta name="closewise:posthog-key" content="${attribute(key)}"><meta name="closewise:posthog-host" content="${attribute(host)}">`;
  const changed = [];
  for (const file of pages(dist)) {
    const html = readFileSync(file, "utf8").replace(TAGS, "");
    if (!html.includes("</head>")) throw new Error(`analytics: ${file} has no </head>`);
    writeFileSync(file, html.replace("</head>", `${tags}</head>`));
    changed.push(file);
  }
  const routesFile = join(dist, "routes.json");
  const routes = JSON.parse(readFileSync(routesFile, "utf8"));
  writeFileSync(routesFile, `${JSON.stringify({ ...routes, analytics_origin: origin }, null, 2)}\n`);
  changed.push(routesFile);
  if (precompress) for (const file of changed) precompressFile(file);
  return changed.length - 1;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [dist, key, host] = process.argv.slice(2);
  if (!dist || !key) {
    console.error("usage: node scripts/analyticsConfig.mjs DIST KEY [HOST]");
    process.exit(2);
  }
  const count = configureAnalytics(dist, { key, host: host || DEFAULT_HOST }, { precompress: true });
  console.log(`${dist}: analytics (${host || DEFAULT_HOST}) configured in ${count} pages`);
}
