// @vitest-environment node
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { deferModulePreloads, deferPreloadsIn } from "./deferPreloads.mjs";

const page = `<!DOCTYPE html><html><head><title>T</title><link rel="modulepreload" href="/assets/entry.client-a.js"/><link rel="modulepreload" href="/assets/root-b.js" crossorigin=""/><link rel="stylesheet" href="/assets/root.css"/></head><body><h1>Hi</h1><script type="module" async="">import * as route0 from "/assets/root-b.js";import("/assets/entry.client-a.js");</script></body></html>`;

describe("deferModulePreloads", () => {
  it("drops the module preload hints and keeps everything else", () => {
    const out = deferModulePreloads(page);
    expect(out).not.toContain("modulepreload");
    expect(out).toContain('<link rel="stylesheet" href="/assets/root.css"/>');
    expect(out).toContain('import("/assets/entry.client-a.js")');
    expect(out).toContain("<h1>Hi</h1>");
  });

  it("rewrites prerendered pages but not the app shell or assets", () => {
    const dir = mkdtempSync(join(tmpdir(), "defer-"));
    mkdirSync(join(dir, "pricing"));
    mkdirSync(join(dir, "assets"));
    writeFileSync(join(dir, "index.html"), page);
    writeFileSync(join(dir, "pricing", "index.html"), page);
    writeFileSync(join(dir, "__spa-fallback.html"), page);
    writeFileSync(join(dir, "assets", "index.html"), page);
    expect(deferPreloadsIn(dir)).toBe(4);
    expect(readFileSync(join(dir, "index.html"), "utf8")).not.toContain("modulepreload");
    expect(readFileSync(join(dir, "pricing", "index.html"), "utf8")).not.toContain("modulepreload");
    expect(readFileSync(join(dir, "__spa-fallback.html"), "utf8")).toContain("modulepreload");
    expect(readFileSync(join(dir, "assets", "index.html"), "utf8")).toContain("modulepreload");
  });
});
