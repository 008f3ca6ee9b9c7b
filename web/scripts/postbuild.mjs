// Turns React Router's build/client into the deployable site in dist/:
//   dist/index.html and dist/<path>/index.html for every prerendered path,
//   dist/__spa-fallback.html, the app shell for client-only routes (and, with status 404, unknown paths),
//   dist/routes.json = {"prerendered": [...], "client": [...], "shell": "__spa-fallback.html"}.
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { configureAnalytics, DEFAULT_HOST } from "./analyticsConfig.mjs";
import { writeOgCard } from "./ogCard.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const from = join(root, "build", "client");
const to = join(root, "dist");
const SHELL = "__spa-fallback.html";

if (!existsSync(join(from, SHELL))) throw new Error(`postbuild: ${SHELL} is missing from ${from}`);
if (!existsSync(join(from, "index.html"))) throw new Error("postbuild: index.html (the prerendered /) is missing");

rmSync(to, { recursive: true, force: true });
cpSync(from, to, { recursive: true });
// The MSW worker is for `npm run dev:mock` only.
rmSync(join(to, "mockServiceWorker.js"), { force: true });
writeOgCard(to);

function prerendered(dir) {
  const found = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== "assets") found.push(...prerendered(path));
    } else if (name === "index.html") {
      const rel = relative(to, dir).split(sep).join("/");
      found.push(rel === "" ? "/" : `/${rel}`);
    }
  }
  return found;
}

const client = JSON.parse(readFileSync(join(root, "src", "clientRoutes.json"), "utf8"));
const manifest = { prerendered: prerendered(to).sort(), client, shell: SHELL };
for (const path of client) {
  if (manifest.prerendered.includes(path)) throw new Error(`postbuild: ${path} is both prerendered and client-only`);
}
writeFileSync(join(to, "routes.json"), `${JSON.stringify(manifest, null, 2)}\n`);
// Analytics is in the pages, not the bundle: the key and host go into every page's head and the host's
// origin into routes.json, for the server's Content-Security-Policy (scripts/analyticsConfig.mjs).
if (process.env.VITE_POSTHOG_KEY?.trim()) {
  configureAnalytics(to, {
    key: process.env.VITE_POSTHOG_KEY.trim(),
    host: process.env.VITE_POSTHOG_HOST?.trim() || DEFAULT_HOST,
  });
}
console.log(`dist/: ${manifest.prerendered.length} prerendered paths, ${client.length} client routes, shell ${SHELL}`);
