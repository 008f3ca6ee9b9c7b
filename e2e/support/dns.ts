//! The stack's DNS server: `closewise-test-dns` (crates/testkit, the Rust tests' TxtServer as a
//! process) on a free UDP port of 127.0.0.1, given to the API as `DNS_RESOLVER`, so that domain
//! verification looks the TXT record up over real DNS and nothing leaves the machine. A test
//! publishes the record the /team page shows with `set`.

import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream } from "node:fs";
import { createInterface } from "node:readline";

export class DnsServer {
  private waiting: ((line: string) => void)[] = [];
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly child: ChildProcess,
    /** `127.0.0.1:PORT`, for DNS_RESOLVER. */
    readonly addr: string,
    lines: AsyncIterableIterator<string>,
  ) {
    void (async () => {
      for await (const line of lines) this.waiting.shift()?.(line);
      for (const reply of this.waiting.splice(0)) reply("error: closewise-test-dns exited");
    })();
  }

  /** Starts the binary and waits for its `READY 127.0.0.1:PORT` (its stderr goes to `logFile`). */
  static async start(binary: string, logFile: string): Promise<DnsServer> {
    const child = spawn(binary, [], { stdio: ["pipe", "pipe", "pipe"] });
    child.stderr!.pipe(createWriteStream(logFile, { flags: "a" }));
    const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
    const first = await Promise.race([
      lines.next(),
      new Promise<never>((_, reject) => {
        child.once("error", (e) => reject(new Error(`${binary} could not start: ${e.message}`)));
        child.once("exit", (code) => reject(new Error(`${binary} exited (${code}) before it was ready; see ${logFile}`)));
        setTimeout(() => reject(new Error(`${binary} printed nothing within 10 s; see ${logFile}`)), 10_000).unref();
      }),
    ]);
    const addr = first.done ? undefined : /^READY (\S+)$/.exec(first.value)?.[1];
    if (!addr) throw new Error(`${binary} said ${JSON.stringify(first.value)} instead of READY <address>`);
    return new DnsServer(child, addr, lines);
  }

  private command(line: string): Promise<void> {
    const run = () =>
      new Promise<void>((resolve, reject) => {
        this.waiting.push((reply) => (reply === "ok" ? resolve() : reject(new Error(`closewise-test-dns: ${line}: ${reply}`))));
        this.child.stdin!.write(`${line}\n`);
      });
    const done = this.queue.then(run, run);
    this.queue = done.catch(() => undefined);
    return done;
  }

  /** Serves `value` as the TXT record at `name` (as publishing it at a DNS provider would). */
  set(name: string, value: string): Promise<void> {
    if (/\s/.test(name) || !value.trim()) throw new Error(`not a TXT record: ${name} ${value}`);
    return this.command(`set ${name} ${value}`);
  }

  /** Takes the record at `name` down. */
  unset(name: string): Promise<void> {
    return this.command(`unset ${name}`);
  }
}
