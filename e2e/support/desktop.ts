//! The desktop client (`closewise-desktop`, crates/desktop-client) driven as a person would from a
//! terminal: each command is a real process against the stack's API, with its own token store.

import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, type Page } from "@playwright/test";
import { binDir } from "./stack";

export interface RunResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** A running `closewise-desktop` command whose output lines a test can wait for. */
export class Running {
  private out = "";
  private err = "";
  readonly exited: Promise<RunResult>;

  constructor(readonly child: ChildProcess) {
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (this.out += chunk));
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (this.err += chunk));
    this.exited = new Promise((resolve) =>
      child.on("close", (status) => resolve({ status, stdout: this.out, stderr: this.err })),
    );
  }

  /** Waits for a stdout line matching `pattern` and returns its first capture group (or the line). */
  async line(pattern: RegExp, timeout = 20_000): Promise<string> {
    let found: string | undefined;
    await expect
      .poll(
        () => {
          for (const line of this.out.split("\n")) {
            const m = line.match(pattern);
            if (m) {
              found = m[1] ?? m[0];
              return true;
            }
          }
          return false;
        },
        { message: `closewise-desktop printed ${pattern} (stdout so far: ${this.out}; stderr: ${this.err})`, timeout },
      )
      .toBe(true);
    return found!;
  }
}

export class Desktop {
  readonly dir = mkdtempSync(path.join(tmpdir(), "closewise-desktop-"));
  readonly store = path.join(this.dir, "tokens.json");

  constructor(
    public baseUrl: string,
    readonly env: NodeJS.ProcessEnv = {},
  ) {}

  readonly jwks = path.join(this.dir, "jwks.json");

  /** The stack's key, pinned for entitlement tokens as a development deployment pins its own
   *  (the client trusts no key it fetches by itself). Fetched once, by a child node process so
   *  that the commands stay synchronous. */
  private pinnedKeys(): string {
    if (!existsSync(this.jwks)) {
      const url = `${this.baseUrl}/.well-known/jwks.json`;
      const r = spawnSync(process.execPath, ["-e", `fetch(${JSON.stringify(url)}).then(r => r.text()).then(t => process.stdout.write(t))`], {
        encoding: "utf8",
        timeout: 10_000,
      });
      expect(r.status, `fetching ${url}: ${r.stderr}`).toBe(0);
      writeFileSync(this.jwks, r.stdout);
    }
    return this.jwks;
  }

  private args(args: string[]): string[] {
    return ["--base-url", this.baseUrl, "--store", this.store, "--entitlement-jwks", this.pinnedKeys(), ...args];
  }

  private bin(): string {
    return path.join(binDir(), "closewise-desktop");
  }

  /** Starts a long-running command (a sign-in) and returns at once. */
  start(args: string[]): Running {
    return new Running(
      spawn(this.bin(), this.args(args), { env: { ...process.env, ...this.env }, stdio: ["ignore", "pipe", "pipe"] }),
    );
  }

  /** Runs a command to its end. */
  run(args: string[], extraEnv: NodeJS.ProcessEnv = {}): RunResult {
    const r = spawnSync(this.bin(), this.args(args), {
      env: { ...process.env, ...this.env, ...extraEnv },
      encoding: "utf8",
      timeout: 30_000,
    });
    return { status: r.status, stdout: r.stdout ?? "", stderr: r.stderr ?? "" };
  }

  /** Runs a command that must succeed; returns its stdout. */
  ok(args: string[], extraEnv: NodeJS.ProcessEnv = {}): string {
    const r = this.run(args, extraEnv);
    expect(r.status, `closewise-desktop ${args.join(" ")}:\n${r.stdout}\n${r.stderr}`).toBe(0);
    return r.stdout;
  }

  /**
   * `login --no-browser`: `page` (signed in as the person, or signed in on the way) opens the
   * printed address, continues on the consent screen, and the app's loopback gets the session.
   */
  async signInWithBrowser(page: Page, deviceName: string): Promise<void> {
    const login = this.start(["login", "--no-browser", "--device-name", deviceName]);
    await page.goto(await login.line(/^Open: (\S+)$/));
    await expect(page.getByText(deviceName)).toBeVisible();
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/callback\?/);
    const result = await login.exited;
    expect(result.status, result.stdout + result.stderr).toBe(0);
  }

  /** `entitlements --json`, parsed. */
  entitlements(extraEnv: NodeJS.ProcessEnv = {}): Record<string, unknown> {
    return JSON.parse(this.ok(["entitlements", "--json"], extraEnv)) as Record<string, unknown>;
  }

  remove() {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
