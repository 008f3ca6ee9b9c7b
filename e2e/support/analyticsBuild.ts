//! A build of the web app with analytics configured, for tests/analytics.spec.ts. The suite's own build
//! (web/dist) has no PostHog key, so analytics is off there; this one is built from a copy of web/
//! (sharing its node_modules) with VITE_POSTHOG_KEY set and VITE_POSTHOG_HOST pointing at a host that
//! cannot exist (RFC 2606 `.invalid`): the tests answer its requests themselves with page.route, so
//! nothing ever leaves the machine. E2E_ANALYTICS_WEB_DIST uses a build made beforehand instead.

import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { REPO } from "./stack";

export const ANALYTICS_KEY = "phc_e2e_analytics_test";
export const ANALYTICS_HOST = "analytics.e2e.invalid";
export const ANALYTICS_ORIGIN = `https://${ANALYTICS_HOST}`;

/** Builds the web app with analytics pointed at ANALYTICS_ORIGIN; returns its dist/ and how to remove it. */
export function buildWebWithAnalytics(): { dist: string; remove: () => void } {
  const prebuilt = process.env.E2E_ANALYTICS_WEB_DIST;
  if (prebuilt) {
    if (!existsSync(path.join(prebuilt, "index.html"))) throw new Error(`E2E_ANALYTICS_WEB_DIST=${prebuilt} has no index.html`);
    return { dist: prebuilt, remove: () => undefined };
  }
  const web = path.join(REPO, "web");
  if (!existsSync(path.join(web, "node_modules"))) {
    throw new Error(`${web}/node_modules is missing: run (cd web && npm ci) or scripts/e2e.sh`);
  }
  const dir = mkdtempSync(path.join(tmpdir(), "closewise-e2e-analytics-web-"));
  const skip = new Set(["node_modules", "dist", "build", ".react-router"].map((name) => path.join(web, name)));
  cpSync(web, dir, { recursive: true, filter: (source) => !skip.has(source) && path.basename(source) !== "node_modules" });
  symlinkSync(path.join(web, "node_modules"), path.join(dir, "node_modules"), "dir");
  const started = Date.now();
  const result = spawnSync("npm", ["run", "build"], {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, VITE_POSTHOG_KEY: ANALYTICS_KEY, VITE_POSTHOG_HOST: ANALYTICS_ORIGIN },
    timeout: 240_000,
  });
  if (result.status !== 0) {
    throw new Error(`building the web app with analytics failed in ${dir}:\n${result.error?.message ?? ""}${result.stdout}${result.stderr}`);
  }
  console.log(`[e2e] built the web app with analytics (${ANALYTICS_ORIGIN}) in ${Math.round((Date.now() - started) / 1000)} s`);
  return {
    dist: path.join(dir, "dist"),
    remove: () => {
      if (!process.env.E2E_KEEP_DATA) rmSync(dir, { recursive: true, force: true });
    },
  };
}
