// @vitest-environment node
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { configureAnalytics } from "./analyticsConfig.mjs";

const PAGE = `<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/><title>Closewise</title></head><body>${"<p>Close more deals.</p>".repeat(40)}</body></html>`;

let dir = "";
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function site() {
  dir = mkdtempSync(path.join(tmpdir(), "closewise-analytics-config-"));
  mkdirSync(path.join(dir, "pricing"));
  writeFileSync(path.join(dir, "index.html"), PAGE);
  writeFileSync(path.join(dir, "pricing", "index.html"), PAGE);
  writeFileSync(path.join(dir, "__spa-fallback.html"), PAGE);
  writeFileSync(
    path.join(dir, "routes.json"),
    JSON.stringify({ prerendered: ["/", "/pricing"], client: ["/dashboard"], shell: "__spa-fallback.html" }),
  );
  return dir;
}

describe("configureAnalytics", () => {
  it("writes the key and host into every page's head and the host's origin into routes.json", () => {
    const dist = site();
    configureAnalytics(dist, { key: "phc_abc", host: "https://eu.posthog.example/ingest/" });
    for (const file of ["index.html", "pricing/index.html", "__spa-fallback.html"]) {
      const html = readFileSync(path.join(dist, file), "utf8");
      expect(html, file).toContain('<meta name="closewise:posthog-key" content="phc_abc">');
      expect(html, file).toContain('<meta name="closewise:posthog-host" content="https://eu.posthog.example/ingest/">');
      expect(html.indexOf("closewise:posthog-key"), file).toBeLessThan(html.indexOf("</head>"));
    }
    const routes = JSON.parse(readFileSync(path.join(dist, "routes.json"), "utf8")) as Record<string, unknown>;
    expect(routes).toEqual({
      prerendered: ["/", "/pricing"],
      client: ["/dashboard"],
      shell: "__spa-fallback.html",
      analytics_origin: "https://eu.posthog.example",
    });
  });

  it("recompresses the pages it changed when asked, so a precompressed copy is never stale", () => {
    const dist = site();
    writeFileSync(path.join(dist, "index.html.br"), "stale");
    writeFileSync(path.join(dist, "index.html.gz"), "stale");
    configureAnalytics(dist, { key: "phc_abc", host: "https://us.i.posthog.com" }, { precompress: true });
    const html = readFileSync(path.join(dist, "index.html"), "utf8");
    expect(brotliDecompressSync(readFileSync(path.join(dist, "index.html.br"))).toString("utf8")).toBe(html);
    expect(gunzipSync(readFileSync(path.join(dist, "index.html.gz"))).toString("utf8")).toBe(html);
    expect(existsSync(path.join(dist, "pricing", "index.html.br"))).toBe(true);
  });

  it("configured twice, a page carries one pair of tags, the last", () => {
    const dist = site();
    configureAnalytics(dist, { key: "phc_one", host: "https://one.example" });
    configureAnalytics(dist, { key: "phc_two", host: "https://two.example" });
    const html = readFileSync(path.join(dist, "index.html"), "utf8");
    expect(html.match(/closewise:posthog-key/g)).toHaveLength(1);
    expect(html).toContain('content="phc_two"');
    expect((JSON.parse(readFileSync(path.join(dist, "routes.json"), "utf8")) as Record<string, unknown>).analytics_origin).toBe(
      "https://two.example",
    );
  });

  it("escapes what it writes into an attribute and refuses a host that is not http(s)", () => {
    const dist = site();
    configureAnalytics(dist, { key: 'a"<b>&', host: "https://us.i.posthog.com" });
    expect(readFileSync(path.join(dist, "index.html"), "utf8")).toContain('content="a&quot;&lt;b&gt;&amp;"');
    expect(() => configureAnalytics(dist, { key: "phc", host: "ftp://example.com" })).toThrow(/VITE_POSTHOG_HOST/);
  });
});
