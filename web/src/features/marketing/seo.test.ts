import { describe, expect, it } from "vitest";
import { absoluteUrl, seoMeta, SITE_ORIGIN } from "../../lib/seo";

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
    expect(meta).toContainEqual({ name: "twitter:card", content: "summary" });
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
