//! Drift test: the constants `rules.ts` mirrors from `crates/domain/src/teams.rs` (which decides)
//! must be the domain's, read from its source: the public mail domains that never qualify for
//! domain join, the seat range, the team name's length and the messages the screens show before
//! the API would.

import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { MAX_SEATS, PUBLIC_MAIL_DOMAINS, seatsProblem, TEAM_NAME_MAX_CHARS, teamNameProblem } from "./rules";

const here = dirname(fileURLToPath(import.meta.url));
const domain = readFileSync(resolve(here, "../../../../crates/domain/src/teams.rs"), "utf8");

/** `pub const NAME: TYPE = VALUE;` from the Rust source, as text. */
function rustConst(name: string): string {
  const match = new RegExp(`pub const ${name}: [^=]+= ([\\s\\S]*?);`).exec(domain);
  if (!match) throw new Error(`crates/domain/src/teams.rs has no pub const ${name}`);
  return (match[1] ?? "").trim();
}

describe("the web's team rules agree with crates/domain/src/teams.rs", () => {
  it("never offers domain join for the same public mail domains", () => {
    const rust = [...rustConst("PUBLIC_MAIL_DOMAINS").matchAll(/"([^"]+)"/g)].map((m) => m[1]);
    expect(rust.length).toBeGreaterThan(10);
    expect([...PUBLIC_MAIL_DOMAINS]).toEqual(rust);
  });

  it("uses the same seat range and team name length", () => {
    expect(MAX_SEATS).toBe(Number(rustConst("MAX_SEATS")));
    expect(TEAM_NAME_MAX_CHARS).toBe(Number(rustConst("TEAM_NAME_MAX_CHARS")));
  });

  it("shows the domain's own messages", () => {
    expect(domain).toContain(`"${teamNameProblem(" ")}"`);
    expect(domain).toContain(`"${teamNameProblem("a".repeat(TEAM_NAME_MAX_CHARS + 1))}"`);
    expect(domain).toContain(`"${seatsProblem(MAX_SEATS + 1, 1)!.replace(String(MAX_SEATS), "{max}")}"`);
  });
});
