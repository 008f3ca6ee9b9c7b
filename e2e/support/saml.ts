//! The SAML identity provider of the SAML spec: samlify's IdP, the same
//! crates/testkit/saml/idp.mjs the API's Rust tests start, on a free port of 127.0.0.1. It knows
//! our SP by the team's metadata as the app serves it, signs in the user the test names at once and
//! posts its signed response to our ACS from its own page. scripts/e2e.sh installs it (npm ci from
//! that folder's lock file, with scripts/oidc-deps.sh); missing, it fails the test.

import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, existsSync } from "node:fs";
import { createInterface } from "node:readline";
import path from "node:path";
import { REPO } from "./stack";

export const SAML_DIR = path.join(REPO, "crates", "testkit", "saml");

export interface SamlIdp {
  base: string;
  metadataUrl: string;
  stop(): Promise<void>;
}

/** Starts the IdP for the SP whose metadata is `spMetadata`, with these users (by address). */
export async function startSamlIdp(spMetadata: string, users: string[], logFile: string): Promise<SamlIdp> {
  if (!existsSync(path.join(SAML_DIR, "node_modules", "samlify", "package.json"))) {
    throw new Error(`samlify is not installed in ${SAML_DIR}: run scripts/e2e.sh or (cd ${SAML_DIR} && npm ci)`);
  }
  const config = { sp_metadata: spMetadata, users: Object.fromEntries(users.map((u) => [u, {}])) };
  const child: ChildProcess = spawn(process.execPath, [path.join(SAML_DIR, "idp.mjs"), JSON.stringify(config)], {
    cwd: SAML_DIR,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const log = createWriteStream(logFile, { flags: "a" });
  child.stderr!.pipe(log);
  const lines = createInterface({ input: child.stdout! });
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the SAML IdP printed no READY within 20 s; see ${logFile}`)), 20_000);
    child.once("error", (e) => reject(new Error(`node could not start the SAML IdP: ${e.message}`)));
    child.once("exit", (code) => reject(new Error(`the SAML IdP exited (${code}) before it was ready; see ${logFile}`)));
    lines.on("line", (line) => {
      log.write(`${line}\n`);
      const ready = /^READY (\S+)$/.exec(line);
      if (ready) {
        clearTimeout(timer);
        resolve(ready[1]);
      }
    });
  });
  return {
    base,
    metadataUrl: `${base}/metadata`,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      child.kill("SIGTERM");
      await exited;
    },
  };
}
