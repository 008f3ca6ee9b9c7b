// @vitest-environment node
import { describe, expect, it, vi } from "vitest";
import { absoluteUrl, parseSiteOrigin, seoMeta, SITE_ORIGIN } from "../../lib/seo";

describe("seoMeta", () => {
  const meta = seoMeta({ title: "A title", description: "A description", canonicalPath: "/ai-teleprompter" });

  it("sets the title, description and canonical link", () => {
    expect(meta).toContainEqual({ title: "A title" });
    expect(meta).toContainEqual({ name: "description", content: "A description" });
    expect(meta).toContainEqual({ tagName: "link", rel: "canonical", href: "https://closewise.app/ai-teleprompter" });
  });

  it("adds Open Graph and Twitter card tags", () => {
    expect(meta).toContainEqual({ property: "og:title", content: "A title" });
    expect(meta).toContainEqual({ property: "og:description", content: "A description" });
    expect(meta).toContainEqual({ property: "og:url", content: `${SITE_ORIGIN}/ai-teleprompter` });
    expect(meta).toContainEqual({ property: "og:type", content: "website" });
    expect(meta).toContainEqual({ name: "twitter:card", content: "summary_large_image" });
    expect(meta).toContainEqual({ property: "og:image", content: `${SITE_ORIGIN}/og/closewise.png` });
    expect(meta).toContainEqual({ property: "og:image:width", content: "1200" });
    expect(meta).toContainEqual({ property: "og:image:height", content: "630" });
    expect(meta).toContainEqual({ name: "twitter:image", content: `${SITE_ORIGIN}/og/closewise.png` });
    expect(meta).toContainEqual({ name: "twitter:title", content: "A title" });
  });

  it("describes the software and its 20 USD monthly offer in JSON-LD", () => {
    const ld = meta.find((entry) => "script:ld+json" in entry) as {
      "script:ld+json": { "@type": string; name: string; offers: { priceSpecification: unknown } };
    };
    const data = ld["script:ld+json"];
    expect(data["@type"]).toBe("SoftwareApplication");
    expect(data.name).toBe("Closewise");
    expect(data.offers).toMatchObject({ "@type": "Offer", price: "20.00", priceCurrency: "USD" });
    expect(data.offers.priceSpecification).toMatchObject({ billingDuration: "P1M" });
  });

  it("refuses pages without a title or description", () => {
    expect(() => seoMeta({ title: " ", description: "d", canonicalPath: "/" })).toThrow(/title/);
  });
});

describe("absoluteUrl", () => {
  it("joins the origin and a path", () => {
    expect(absoluteUrl("/")).toBe("https://closewise.app/");
    expect(absoluteUrl("/pricing", "http://localhost:8080/")).toBe("http://localhost:8080/pricing");
  });

  it("rejects relative paths", () => {
    expect(() => absoluteUrl("pricing")).toThrow(/start with/);
  });
});

describe("the site's public address", () => {
  it("defaults to the public address and takes APP_BASE_URL from the build when set", () => {
    expect(parseSiteOrigin(undefined)).toBe("https://closewise.app");
    expect(parseSiteOrigin(" ")).toBe("https://closewise.app");
    expect(parseSiteOrigin("https://staging.closewise.app/")).toBe("https://staging.closewise.app");
    expect(parseSiteOrigin("http://localhost:8080")).toBe("http://localhost:8080");
  });

  it("refuses an address that is not an http(s) origin", () => {
    for (const bad of ["closewise.app", "ftp://closewise.app", "https://closewise.app/site"]) {
      expect(() => parseSiteOrigin(bad), bad).toThrow(/APP_BASE_URL/);
    }
  });

  it("is what canonical links, Open Graph URLs and the sitemap use", async () => {
    vi.stubEnv("APP_BASE_URL", "https://staging.closewise.app");
    vi.resetModules();
    try {
      const seo = await import("../../lib/seo");
      const files = await import("./build/seoFiles");
      const meta = seo.seoMeta({ title: "T", description: "D", canonicalPath: "/pricing" });
      expect(meta).toContainEqual({ tagName: "link", rel: "canonical", href: "https://staging.closewise.app/pricing" });
      expect(meta).toContainEqual({ property: "og:url", content: "https://staging.closewise.app/pricing" });
      expect(files.sitemapXml()).toContain("<loc>https://staging.closewise.app/pricing</loc>");
      expect(files.robotsTxt()).toContain("Sitemap: https://staging.closewise.app/sitemap.xml");
    } finally {
      vi.unstubAllEnvs();
      vi.resetModules();
    }
  });
});
