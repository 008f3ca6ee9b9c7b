//! The identity provider of the SSO specs: panva's certified `oidc-provider`, the same
//! crates/testkit/oidc/provider.mjs the API's Rust tests start, here in its interactive mode (a
//! sign-in form that checks the password, then a consent page), on a free port of 127.0.0.1.
//! scripts/e2e.sh installs it (npm ci from that folder's lock file); missing, it fails the test.

import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, existsSync } from "node:fs";
import { createInterface } from "node:readline";
import path from "node:path";
import { REPO } from "./stack";

export const OIDC_DIR = path.join(REPO, "crates", "testkit", "oidc");
export const CLIENT_ID = "closewise-e2e";
export const CLIENT_SECRET = "closewise-e2e-secret-0123456789";

export interface IdpUser {
  password: string;
  email_verified?: boolean;
}

export interface Idp {
  issuer: string;
  stop(): Promise<void>;
}

/** Starts the provider with one client redirecting to `redirectUri` and these users (by address). */
export async function startIdp(redirectUri: string, users: Record<string, IdpUser>, logFile: string): Promise<Idp> {
  if (!existsSync(path.join(OIDC_DIR, "node_modules", "oidc-provider", "package.json"))) {
    throw new Error(
      `oidc-provider is not installed in ${OIDC_DIR}: run scripts/e2e.sh (it runs npm ci there) or (cd ${OIDC_DIR} && npm ci)`,
    );
  }
  const config = { client_id: CLIENT_ID, client_secret: CLIENT_SECRET, redirect_uri: redirectUri, interactive: true, users };
  const child: ChildProcess = spawn(process.execPath, [path.join(OIDC_DIR, "provider.mjs"), JSON.stringify(config)], {
    cwd: OIDC_DIR,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const log = createWriteStream(logFile, { flags: "a" });
  child.stderr!.pipe(log);
  const lines = createInterface({ input: child.stdout! });
  const issuer = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`oidc-provider printed no READY within 20 s; see ${logFile}`)), 20_000);
    child.once("error", (e) => reject(new Error(`node could not start oidc-provider: ${e.message}`)));
    child.once("exit", (code) => reject(new Error(`oidc-provider exited (${code}) before it was ready; see ${logFile}`)));
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
    issuer,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      child.kill("SIGTERM");
      await exited;
    },
  };
}
