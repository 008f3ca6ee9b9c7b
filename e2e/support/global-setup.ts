//! Before any worker starts: checks the browser, the binaries and the web build are there, and takes
//! a private copy of them for this run (so a rebuild in the working tree while the suite runs cannot
//! change what is under test). Workers read the copies' paths from the environment.

import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FullConfig } from "@playwright/test";
import { REPO } from "./stack";

export default function globalSetup(config: FullConfig) {
  const chromium = (config.projects[0]?.use.launchOptions?.executablePath as string | undefined) ?? "";
  if (!chromium || !existsSync(chromium)) {
    throw new Error(`Chromium not found at "${chromium}": install it (apt-get install -y chromium) or set E2E_CHROMIUM; scripts/e2e.sh does this`);
  }
  // Cargo may build outside the clone (CARGO_TARGET_DIR), which CI is allowed to do.
  const binDir = process.env.E2E_BIN_DIR ?? path.join(path.resolve(REPO, process.env.CARGO_TARGET_DIR ?? "target"), "debug");
  const webDist = process.env.E2E_WEB_DIST ?? path.join(REPO, "web", "dist");
  const binaries = ["closewise-api", "stripe-mock", "closewise", "closewise-desktop", "closewise-test-dns"];
  for (const file of [...binaries.map((b) => path.join(binDir, b)), path.join(webDist, "index.html")]) {
    if (!existsSync(file)) {
      throw new Error(`${file} is missing: build with scripts/e2e.sh (or cargo build -p closewise-api -p stripe-mock -p closewise-cli -p closewise-desktop-client, cargo build -p closewise-testkit --features dns --bin closewise-test-dns and cd web && npm run build)`);
    }
  }
  const snapshot = mkdtempSync(path.join(tmpdir(), "closewise-e2e-build-"));
  for (const b of binaries) cpSync(path.join(binDir, b), path.join(snapshot, "bin", b));
  cpSync(webDist, path.join(snapshot, "dist"), { recursive: true });
  process.env.E2E_RUN_BIN_DIR = path.join(snapshot, "bin");
  process.env.E2E_RUN_WEB_DIST = path.join(snapshot, "dist");
  console.log(`[e2e] testing a copy of ${binDir} and ${webDist} in ${snapshot}`);
  console.log(`[e2e] on failure, traces and screenshots are kept in ${path.join(REPO, "e2e", "test-results")}`);
  return () => rmSync(snapshot, { recursive: true, force: true });
}
