//! Drift test: the constants `rules.ts` mirrors from `crates/domain/src/teams.rs` (which decides)
//! must be the domain's, read from its source: the seat range, the team name's length and the
//! messages the screens show before the API would. The public mail providers domain join refuses
//! are the server's alone (thousands, vendored in crates/domain/data): the app ships no copy.

import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { MAX_SEATS, seatsProblem, TEAM_NAME_MAX_CHARS, teamNameProblem } from "./rules";

const here = dirname(fileURLToPath(import.meta.url));
const domain = readFileSync(resolve(here, "../../../../crates/domain/src/teams.rs"), "utf8");

/** `pub const NAME: TYPE = VALUE;` from the Rust source, as text. */
function rustConst(name: string): string {
  const match = new RegExp(`pub const ${name}: [^=]+= ([\\s\\S]*?);`).exec(domain);
  if (!match) throw new Error(`crates/domain/src/teams.rs has no pub const ${name}`);
  return (match[1] ?? "").trim();
}

describe("the web's team rules agree with crates/domain/src/teams.rs", () => {
  it("ships no list of public mail providers: the server decides domain join (Team.domain_join_offer)", () => {
    const src = resolve(here, "../..");
    const shipped = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
        const path = join(dir, e.name);
        if (e.isDirectory()) return e.name === "testing" ? [] : shipped(path);
        return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [path] : [];
      });
    const files = shipped(src);
    expect(files.length).toBeGreaterThan(20);
    // Providers of the server's list that no page of the app has any other reason to name.
    const providers = ["googlemail.com", "t-online.de", "comcast.net", "libero.it", "yandex.ru"];
    for (const file of files) {
      const text = readFileSync(file, "utf8");
      for (const p of providers) expect(text.includes(p), `${file} names ${p}`).toBe(false);
    }
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
