// @vitest-environment node
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { marketingSeoFiles, robotsTxt, sitemapPaths, sitemapXml } from "./build/seoFiles";
import { marketingPages, ownContentPages, sharedLayoutPages } from "./content/pages";
import { canonicalMarketingPaths, marketingPaths, marketingRoutes } from "./routes";

const srcDir = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The thirty search paths of the spec, section 2. */
const specPaths = [
  "/real-time-conversation-guidance",
  "/real-time-support",
  "/real-time-ai-coaching",
  "/ai-teleprompter",
  "/magical-teleprompter",
  "/undetectable-ai",
  "/desktop-assistant",
  "/ai-desktop-assistant",
  "/desktop-assistant-ai",
  "/conversation-assistant",
  "/ai-conversation-assistant",
  "/cursor-for-conversations",
  "/live-ai-transcription",
  "/power-your-meetings",
  "/ai-for-meeting",
  "/ai-sales-assistant",
  "/sales-enablement-tool",
  "/real-time-sales-coaching",
  "/ai-sales-copilot",
  "/ai-for-outbound-sales",
  "/crm-sales-intelligence",
  "/sales-productivity-tool",
  "/email-assistant-for-sales",
  "/ai-pipeline-insights",
  "/sales-conversation-analysis",
  "/ai-sales-hints",
  "/best-ai-for-sales-teams",
  "/how-to-improve-sales-with-ai",
  "/real-time-ai-sales-guidance",
  "/boost-sdr-performance",
];

describe("marketing routes", () => {
  it("cover the landing page and exactly the thirty search paths of the spec", () => {
    expect(marketingPaths).toHaveLength(31);
    expect([...marketingPaths].sort()).toEqual(["/", ...specPaths].sort());
  });

  it("group the shared-layout paths three to a page, canonical first, as the spec lists them", () => {
    expect(sharedLayoutPages.map((page) => page.paths.map((entry) => entry.path))).toEqual([
      specPaths.slice(0, 3),
      specPaths.slice(3, 6),
      specPaths.slice(6, 9),
      specPaths.slice(9, 12),
      specPaths.slice(12, 15),
    ]);
    expect(ownContentPages.map((page) => page.paths.map((entry) => entry.path))).toEqual(
      specPaths.slice(15).map((path) => [path]),
    );
  });

  it("give each path its own route module, and every module exists", () => {
    expect(marketingRoutes.map((route) => route.path)).toEqual(marketingPaths.map((path) => path.slice(1)));
    expect(marketingRoutes[0]).toEqual({ path: "", file: "features/marketing/routes/landing.tsx" });
    expect(new Set(marketingRoutes.map((route) => route.file)).size).toBe(marketingRoutes.length);
    for (const route of marketingRoutes) expect(existsSync(join(srcDir, route.file)), route.file).toBe(true);
  });

  it("list one canonical path per page", () => {
    expect(canonicalMarketingPaths).toEqual(["/", ...marketingPages.map((page) => page.paths[0].path)]);
  });
});

describe("sitemap.xml", () => {
  const locs = [...sitemapXml().matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);

  it("lists exactly the canonical public pages", () => {
    const aliases = sharedLayoutPages.flatMap((page) => page.paths.slice(1).map((entry) => entry.path));
    const expected = [
      "/",
      ...marketingPages.map((page) => page.paths[0].path),
      "/pricing",
      "/signin",
      "/signup",
      "/privacy",
      "/terms",
      "/support",
      "/download",
    ];
    expect([...locs].sort()).toEqual(expected.map((path) => `https://closewise.app${path}`).sort());
    expect(locs).toHaveLength(28);
    for (const alias of aliases) expect(locs).not.toContain(`https://closewise.app${alias}`);
  });

  it("is a sitemaps.org urlset", () => {
    const xml = sitemapXml();
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
  });

  it("uses the origin it is given and refuses duplicate paths", () => {
    expect(sitemapXml(["/"], "http://localhost:8080")).toContain("<loc>http://localhost:8080/</loc>");
    expect(() => sitemapXml(["/", "/"])).toThrow(/unique/);
  });

  it("matches the exported list of sitemap paths", () => {
    expect(locs).toEqual(sitemapPaths.map((path) => `https://closewise.app${path}`));
  });
});

describe("robots.txt", () => {
  it("allows crawling, keeps private areas out and points at the sitemap", () => {
    const robots = robotsTxt();
    expect(robots).toContain("User-agent: *");
    expect(robots).toContain("Disallow: /dashboard");
    expect(robots).toContain("Disallow: /api/");
    expect(robots).toContain("Sitemap: https://closewise.app/sitemap.xml");
    expect(robots).not.toMatch(/Disallow: \/\s*$/m);
  });
});

describe("the build plugin", () => {
  function run(environment: string | undefined) {
    const emitted: { fileName: string; source: string }[] = [];
    const plugin = marketingSeoFiles();
    const hook = plugin.generateBundle as (this: unknown) => void;
    hook.call({
      environment: environment ? { name: environment } : undefined,
      emitFile: (file: { fileName: string; source: string }) => emitted.push(file),
    });
    return emitted;
  }

  it("emits sitemap.xml and robots.txt with the client assets", () => {
    expect(run("client").map((file) => file.fileName)).toEqual(["sitemap.xml", "robots.txt"]);
    expect(run("client")[0]!.source).toBe(sitemapXml());
  });

  it("emits nothing into the server bundle", () => {
    expect(run("ssr")).toEqual([]);
  });
});
