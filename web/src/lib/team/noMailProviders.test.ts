// @vitest-environment node
//! The public mail providers domain join refuses are the server's alone (thousands, vendored in
//! crates/domain/data): the app ships no copy and renders `Team.domain_join_offer`.

import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));

describe("domain join", () => {
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
});
