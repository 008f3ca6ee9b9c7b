// @vitest-environment node
import { mkdtempSync, readFileSync, existsSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { precompress } from "./precompress.mjs";

describe("precompress", () => {
  it("writes brotli and gzip copies of text files that decompress to the original", () => {
    const dir = mkdtempSync(join(tmpdir(), "cw-precompress-"));
    mkdirSync(join(dir, "assets"));
    const js = "export const hint = 'Ask about their timeline';\n".repeat(200);
    writeFileSync(join(dir, "assets", "app-1a2b3c.js"), js);
    writeFileSync(join(dir, "tiny.css"), "a{}");
    writeFileSync(join(dir, "logo.png"), Buffer.alloc(4096, 1));

    precompress(dir);

    const file = join(dir, "assets", "app-1a2b3c.js");
    expect(brotliDecompressSync(readFileSync(`${file}.br`)).toString()).toBe(js);
    expect(gunzipSync(readFileSync(`${file}.gz`)).toString()).toBe(js);
    expect(existsSync(join(dir, "tiny.css.br"))).toBe(false);
    expect(existsSync(join(dir, "logo.png.br"))).toBe(false);
  });
});
