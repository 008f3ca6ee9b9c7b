// @vitest-environment node
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { islandsIn, toIslandsPage } from "./islands.mjs";

const page = `<!DOCTYPE html><html><head><title>T</title><link rel="modulepreload" href="/assets/root-b.js"/><link rel="stylesheet" href="/assets/root.css"/><script type="application/ld+json">{"@type":"SoftwareApplication"}</script></head><body><h1>Hi</h1><div data-island="pricing"><p>cards</p><script data-island-script="pricing">(function(){})()</script></div><script>((a) => {})("positions")</script><script>window.__reactRouterContext = {};</script><script type="module" async="">import * as route0 from "/assets/root-b.js";import("/assets/entry.client-a.js");</script><!--$?--><template id="B:0"></template><!--/$--><div hidden id="S:0"><script>window.__reactRouterContext.streamController.close();</script></div><script>$RC("B:0","S:0")</script></body></html>`;

describe("toIslandsPage", () => {
  it("replaces React Router's scripts with the islands script and keeps the content, styles, JSON-LD and the islands' inline scripts", () => {
    const out = toIslandsPage(page, "/assets/islands/main-x.js");
    expect(out).not.toContain("__reactRouterContext");
    expect(out).not.toContain("modulepreload");
    expect(out).not.toContain("entry.client");
    expect(out).not.toContain("$RC");
    expect(out).not.toContain('id="S:0"');
    expect(out).toContain('<script type="application/ld+json">{"@type":"SoftwareApplication"}</script>');
    expect(out).toContain('<link rel="stylesheet" href="/assets/root.css"/>');
    expect(out).toContain('<script type="module" src="/assets/islands/main-x.js"></script></head>');
    expect(out).toContain("<h1>Hi</h1>");
    expect(out).toContain('<script data-island-script="pricing">(function(){})()</script></div>');
    expect(out.match(/<script/g)).toHaveLength(3);
  });

  it("refuses a page that is not React Router's (built twice, or by something else)", () => {
    const once = toIslandsPage(page, "/assets/islands/main-x.js");
    expect(() => toIslandsPage(once, "/assets/islands/main-x.js")).toThrow(/not a React Router page/);
  });

  it("rewrites the listed pages only, with the entry from the islands build's manifest", () => {
    const dir = mkdtempSync(join(tmpdir(), "islands-"));
    mkdirSync(join(dir, "pricing"));
    mkdirSync(join(dir, "signin"));
    mkdirSync(join(dir, "assets", "islands", ".vite"), { recursive: true });
    for (const file of ["index.html", "pricing/index.html", "signin/index.html", "__spa-fallback.html"]) {
      writeFileSync(join(dir, file), page);
    }
    writeFileSync(join(dir, "assets", "islands", "pages.json"), JSON.stringify(["/", "/pricing"]));
    writeFileSync(
      join(dir, "assets", "islands", ".vite", "manifest.json"),
      JSON.stringify({ "src/x/main.ts": { file: "main-y.js", isEntry: true }, "_a.js": { file: "assets/a.js" } }),
    );
    expect(islandsIn(dir)).toEqual({ pages: 2, entry: "/assets/islands/main-y.js" });
    expect(readFileSync(join(dir, "index.html"), "utf8")).toContain('src="/assets/islands/main-y.js"');
    expect(readFileSync(join(dir, "pricing", "index.html"), "utf8")).not.toContain("__reactRouterContext");
    expect(readFileSync(join(dir, "signin", "index.html"), "utf8")).toBe(page);
    expect(readFileSync(join(dir, "__spa-fallback.html"), "utf8")).toBe(page);
  });

  it("fails loudly when a listed page is missing", () => {
    const dir = mkdtempSync(join(tmpdir(), "islands-"));
    mkdirSync(join(dir, "assets", "islands", ".vite"), { recursive: true });
    writeFileSync(join(dir, "assets", "islands", "pages.json"), JSON.stringify(["/pricing"]));
    writeFileSync(join(dir, "assets", "islands", ".vite", "manifest.json"), JSON.stringify({ m: { file: "m.js", isEntry: true } }));
    expect(() => islandsIn(dir)).toThrow(/pricing/);
  });
});
