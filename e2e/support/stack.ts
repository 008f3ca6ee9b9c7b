//! Starts one isolated Closewise stack for the suite: its own stripe-mock, DNS server (dns.ts) and
//! API on free ports, a fresh database (a SQLite file in a temp dir, or a new PostgreSQL database),
//! the built web app from web/dist, and mail kept in the API's outbox. Waits on /healthz and /_mock/health (never a
//! fixed sleep) and tears everything down afterwards.

import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { DnsServer } from "./dns";

export const REPO = path.resolve(import.meta.dirname, "..", "..");
/** The binaries and web build under test: the run's copies (see global-setup.ts), else the tree's. */
export function binDir(): string {
  return (
    process.env.E2E_RUN_BIN_DIR ??
    process.env.E2E_BIN_DIR ??
    path.join(path.resolve(REPO, process.env.CARGO_TARGET_DIR ?? "target"), "debug")
  );
}

export function webDist(): string {
  return process.env.E2E_RUN_WEB_DIST ?? process.env.E2E_WEB_DIST ?? path.join(REPO, "web", "dist");
}

export type Database = "sqlite" | "postgres";

export interface StackOptions {
  database: Database;
  /** ALLOW_UNVERIFIED_SIGNIN: lets unconfirmed users reach the restricted dashboard. */
  allowUnverifiedSignin: boolean;
  /** Another build of the web app to serve (default: webDist()). */
  webDist?: string;
  /** The host in APP_BASE_URL (default 127.0.0.1); `localhost` for WebAuthn, which refuses an IP address as relying party. */
  webHost?: "127.0.0.1" | "localhost";
}

export interface Stack {
  baseUrl: string;
  mockUrl: string;
  dataDir: string;
  databaseUrl: string;
  logDir: string;
  /** The DNS server the API looks verified domains' TXT records up at (DNS_RESOLVER). */
  dns: DnsServer;
  stop(): Promise<void>;
}

/**
 * A loopback address of this worker process's own (127.32.0.0 to 127.95.255.255, from its process id,
 * below 2^22), which no other process of the suite binds (the Rust suites' replicas and resilience
 * tests take 127.100 and above). A port found free is bound by the stack's process a moment later: on
 * an address two workers share, both could find the same port, and one stack's API would answer the
 * other's tests. Requests to it come from 127.0.0.1.
 */
export function ownLoopback(): string {
  const pid = process.pid;
  return `127.${32 + ((pid >> 16) & 63)}.${(pid >> 8) & 255}.${pid & 255}`;
}

/** `count` different ports nobody listens on right now on `host` (the OS picks them; all held open until each is known). */
export async function freePorts(count: number, host = "127.0.0.1"): Promise<number[]> {
  const servers = Array.from({ length: count }, () => createServer());
  try {
    return await Promise.all(
      servers.map(
        (server) =>
          new Promise<number>((resolve, reject) => {
            server.unref();
            server.on("error", reject);
            server.listen(0, host, () => {
              const address = server.address();
              if (address === null || typeof address === "string") return reject(new Error("no port"));
              resolve(address.port);
            });
          }),
      ),
    );
  } finally {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  }
}

/** Waits until the process's log says it is listening: proof that the port answering is its own. */
async function waitListening(logFile: string, line: RegExp, child: ChildProcess, name: string) {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${name} exited (${child.exitCode ?? child.signalCode}): see ${logFile}`);
    }
    if (existsSync(logFile) && line.test(readFileSync(logFile, "utf8"))) return;
    await new Promise((r) => setTimeout(r, 50)); // polling interval
  }
  throw new Error(`${name} answered, but its log never said it was listening: another process holds its port? See ${logFile}`);
}

function binary(name: string): string {
  const file = path.join(binDir(), name);
  if (!existsSync(file)) {
    throw new Error(`${file} is missing: build it first (scripts/e2e.sh builds every binary the suite runs)`);
  }
  return file;
}

/** Polls `url` until it answers 2xx; fails early with the process's log when the process exits. */
async function waitHealthy(url: string, child: ChildProcess, name: string, logFile: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  let lastError = "";
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${name} exited (${child.exitCode ?? child.signalCode}) before it became healthy; see ${logFile}`);
    }
    try {
      const res = await fetch(url);
      if (res.ok) return;
      lastError = `HTTP ${res.status}`;
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
    }
    await new Promise((r) => setTimeout(r, 100)); // polling interval, not a wait for the app
  }
  throw new Error(`${name} did not answer ${url} within ${timeoutMs} ms (${lastError}); see ${logFile}`);
}

function startProcess(name: string, file: string, args: string[], env: NodeJS.ProcessEnv, logFile: string): ChildProcess {
  const log = createWriteStream(logFile, { flags: "a" });
  const child = spawn(file, args, { cwd: REPO, env, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  child.on("error", (error) => log.write(`\n[e2e] ${name} failed to start: ${error.message}\n`));
  return child;
}

async function stopProcess(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
}

/** The PostgreSQL server the suite creates its databases on (as user postgres). */
export function postgresAdminUrl(): string {
  return process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
}

function psql(sql: string) {
  const result = spawnSync("psql", [postgresAdminUrl(), "-v", "ON_ERROR_STOP=1", "-q", "-c", sql], { encoding: "utf8" });
  if (result.error) throw new Error(`psql could not run (${result.error.message}); PostgreSQL client tools are needed for the postgres project`);
  if (result.status !== 0) throw new Error(`psql failed on ${postgresAdminUrl()}: ${result.stderr.trim()}`);
}

function createPostgresDatabase(): { url: string; drop: () => void } {
  const name = `closewise_e2e_${Date.now()}_${randomBytes(3).toString("hex")}`;
  psql(`CREATE DATABASE ${name}`);
  const url = new URL(postgresAdminUrl());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => psql(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

/** The caller's environment without the settings a stack must choose itself. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) {
    if (/^(APP_|DATABASE_URL$|DATA_DIR$|WEB_DIST$|SMTP_URL$|JWT_PRIVATE_KEY$|STRIPE_|RATE_LIMIT_|ALLOW_UNVERIFIED_SIGNIN$|DNS_RESOLVER$|DOWNLOAD_BASE_URL$|DESKTOP_VERSION$)/.test(key)) {
      delete env[key];
    }
  }
  return env;
}

export async function startStack(options: StackOptions): Promise<Stack> {
  const api = binary("closewise-api");
  const mock = binary("stripe-mock");
  const dnsBinary = binary("closewise-test-dns");
  const dist = options.webDist ?? webDist();
  if (!existsSync(path.join(dist, "index.html"))) {
    throw new Error(`${dist} has no build: run (cd web && npm run build) or scripts/e2e.sh`);
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), `closewise-e2e-${options.database}-`));
  mkdirSync(path.join(REPO, "e2e", "test-results"), { recursive: true });
  // Logs outlive the stack, next to Playwright's traces (the folder is emptied at the next run).
  const logDir = mkdtempSync(path.join(REPO, "e2e", "test-results", `stack-${options.database}-`));
  let database: { url: string; drop: () => void };
  if (options.database === "postgres") {
    database = createPostgresDatabase();
  } else {
    database = { url: `sqlite://${path.join(dataDir, "closewise.db")}`, drop: () => undefined };
  }

  // WebAuthn's stacks must be `localhost`, which is 127.0.0.1; every other stack listens on the worker's own address.
  const host = options.webHost === "localhost" ? "127.0.0.1" : ownLoopback();
  const [apiPort, mockPort] = await freePorts(2, host);
  const baseUrl = `http://${options.webHost === "localhost" ? "localhost" : host}:${apiPort}`;
  const mockUrl = `http://${host}:${mockPort}`;
  const children: ChildProcess[] = [];
  let dns: DnsServer | undefined;

  const stop = async () => {
    await Promise.all(children.map(stopProcess));
    database.drop();
    if (!process.env.E2E_KEEP_DATA) rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    dns = await DnsServer.start(dnsBinary, path.join(logDir, "dns.log"));
    children.push(dns.child);

    const mockLog = path.join(logDir, "stripe-mock.log");
    const mockChild = startProcess(
      "stripe-mock",
      mock,
      ["--host", host, "--port", String(mockPort), "--webhook-url", `${baseUrl}/api/stripe/webhook`],
      { ...cleanEnv(), RUST_LOG: process.env.RUST_LOG ?? "stripe_mock=info" },
      mockLog,
    );
    children.push(mockChild);

    const apiLog = path.join(logDir, "api.log");
    const apiChild = startProcess(
      "closewise-api",
      api,
      [],
      {
        ...cleanEnv(),
        APP_ENV: "development",
        APP_ADDR: `${host}:${apiPort}`,
        APP_BASE_URL: baseUrl,
        DATABASE_URL: database.url,
        DATA_DIR: dataDir,
        WEB_DIST: dist,
        STRIPE_API_BASE: mockUrl,
        DNS_RESOLVER: dns.addr,
        ALLOW_UNVERIFIED_SIGNIN: String(options.allowUnverifiedSignin),
        // One browser on 127.0.0.1 plays every user of the suite: per-IP budgets sized for that.
        RATE_LIMIT_MAIL_PER_IP: "100000",
        RATE_LIMIT_TOKEN_PER_IP: "100000",
        // Mail goes to the outbox, where the dev mail page reads it.
        SMTP_URL: "",
      },
      apiLog,
    );
    children.push(apiChild);

    await waitHealthy(`${mockUrl}/_mock/health`, mockChild, "stripe-mock", mockLog);
    await waitListening(mockLog, /stripe-mock listening on/, mockChild, "stripe-mock");
    await waitHealthy(`${baseUrl}/healthz`, apiChild, "closewise-api", apiLog);
    await waitListening(apiLog, /Closewise is listening/, apiChild, "closewise-api");
  } catch (error) {
    await stop();
    throw error;
  }

  return { baseUrl, mockUrl, dataDir, databaseUrl: database.url, logDir, dns: dns!, stop };
}
