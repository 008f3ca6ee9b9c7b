//! The web app with analytics configured, for tests/analytics.spec.ts. The suite's build (web/dist) has
//! no PostHog key, so analytics is off there; this is a copy of that same build with the key and host
//! written into its pages by web/scripts/analyticsConfig.mjs, as the build does when VITE_POSTHOG_KEY
//! is set (no second build). The host cannot exist (RFC 2606 `.invalid`): the tests answer its
//! requests themselves with page.route, so nothing ever leaves the machine.

import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { REPO, webDist } from "./stack";

export const ANALYTICS_KEY = "phc_e2e_analytics_test";
export const ANALYTICS_HOST = "analytics.e2e.invalid";
export const ANALYTICS_ORIGIN = `https://${ANALYTICS_HOST}`;

/** A copy of the build under test with analytics pointed at ANALYTICS_ORIGIN; its dist/ and how to remove it. */
export function webWithAnalytics(): { dist: string; remove: () => void } {
  const source = webDist();
  if (!existsSync(path.join(source, "index.html"))) throw new Error(`${source} has no index.html: build the web app (cd web && npm run build)`);
  const dir = mkdtempSync(path.join(tmpdir(), "closewise-e2e-analytics-web-"));
  const dist = path.join(dir, "dist");
  cpSync(source, dist, { recursive: true });
  const script = path.join(REPO, "web", "scripts", "analyticsConfig.mjs");
  const result = spawnSync(process.execPath, [script, dist, ANALYTICS_KEY, ANALYTICS_ORIGIN], { encoding: "utf8" });
  if (result.status !== 0) {
    throw new Error(`configuring analytics in ${dist} failed:\n${result.error?.message ?? ""}${result.stdout}${result.stderr}`);
  }
  console.log(`[e2e] ${result.stdout.trim()}`);
  return {
    dist,
    remove: () => {
      if (!process.env.E2E_KEEP_DATA) rmSync(dir, { recursive: true, force: true });
    },
  };
}
