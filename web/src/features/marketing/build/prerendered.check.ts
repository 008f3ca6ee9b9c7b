//! Checks the prerendered HTML files themselves: what a crawler or a phone without JavaScript gets.

import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_PRODUCT, SIGNED_OUT_LABEL } from "../../../lib/billing/rules";
import { absoluteUrl, SITE_ORIGIN } from "../../../lib/seo";
import { landing } from "../content/landing";
import { marketingPages } from "../content/pages";
import { demoScript } from "../demo/script";
import { marketingPaths } from "../routes";
import { accountPublicPaths, robotsTxt, sitemapXml } from "./seoFiles";

const dist = resolve(process.env.WEB_DIST ?? "dist");
if (!existsSync(join(dist, "index.html"))) {
  throw new Error(`No built site in ${dist}: run \`npm run build\` first (or set WEB_DIST).`);
}

function htmlFile(path: string): string {
  return path === "/" ? join(dist, "index.html") : join(dist, path.slice(1), "index.html");
}

function load(path: string): Document {
  const file = htmlFile(path);
  expect(existsSync(file), `${path} is prerendered to ${file}`).toBe(true);
  return new DOMParser().parseFromString(readFileSync(file, "utf8"), "text/html");
}

const text = (doc: Document) => (doc.body.textContent ?? "").replace(/\s+/g, " ");
const squash = (value: string) => value.replace(/\s+/g, " ");
const meta = (doc: Document, selector: string) => doc.head.querySelector(selector)?.getAttribute("content");

const publicPaths = [...marketingPaths, ...accountPublicPaths];

describe("every public route is a static HTML file", () => {
  it.each(publicPaths)("%s has a title, description, canonical link, social tags and JSON-LD", (path) => {
    const doc = load(path);
    expect(doc.title.length).toBeGreaterThan(0);
    expect(meta(doc, 'meta[name="description"]')?.length).toBeGreaterThan(0);
    const canonical = doc.head.querySelector('link[rel="canonical"]')?.getAttribute("href") ?? "";
    expect(canonical.startsWith(`${SITE_ORIGIN}/`), `${canonical} is on ${SITE_ORIGIN}`).toBe(true);
    expect(meta(doc, 'meta[property="og:url"]')).toBe(canonical);
    const image = meta(doc, 'meta[property="og:image"]') ?? "";
    expect(image.startsWith(`${SITE_ORIGIN}/`), `${path} has an Open Graph image on ${SITE_ORIGIN}`).toBe(true);
    const imageFile = join(dist, new URL(image).pathname.slice(1));
    expect(existsSync(imageFile), `${imageFile} is built`).toBe(true);
    expect(readFileSync(imageFile).subarray(1, 4).toString()).toBe("PNG");
    expect(meta(doc, 'meta[property="og:title"]')).toBe(doc.title);
    expect(meta(doc, 'meta[name="twitter:card"]')).toBeTruthy();
    const ld = doc.head.querySelector('script[type="application/ld+json"]');
    expect(ld, `${path} JSON-LD`).not.toBeNull();
    const data = JSON.parse(ld!.textContent ?? "") as { "@type": string; offers: unknown };
    expect(data["@type"]).toBe("SoftwareApplication");
    expect(data.offers).toMatchObject({ price: "20.00", priceCurrency: "USD" });
    expect(doc.querySelectorAll("h1")).toHaveLength(1);
  });

  it("titles and descriptions are unique across all of them", () => {
    const docs = publicPaths.map(load);
    const titles = docs.map((doc) => doc.title);
    const descriptions = docs.map((doc) => meta(doc, 'meta[name="description"]'));
    expect(new Set(titles).size).toBe(titles.length);
    expect(new Set(descriptions).size).toBe(descriptions.length);
  });
});

describe("marketing pages carry their content without JavaScript", () => {
  for (const page of marketingPages) {
    for (const entry of page.paths) {
      it(`${entry.path}`, () => {
        const doc = load(entry.path);
        expect(doc.title).toBe(entry.title);
        expect(meta(doc, 'meta[name="description"]')).toBe(entry.description);
        expect(doc.head.querySelector('link[rel="canonical"]')?.getAttribute("href")).toBe(absoluteUrl(page.paths[0].path));
        expect(doc.querySelector("h1")?.textContent).toBe(page.h1);
        const body = text(doc);
        expect(body).toContain(squash(page.heroCopy));
        for (const card of page.features.cards) expect(body).toContain(squash(card.body));
        for (const stat of page.stats.items) expect(body).toContain(stat.label);
        expect(body).toContain(page.closing.heading);
        const trial = [...doc.querySelectorAll('a[href="/signup"]')].map((a) => a.textContent);
        expect(trial).toContain("Start Free Trial");
        for (const article of page.articles?.links ?? []) {
          const link = doc.querySelector(`a[href="${article.url}"]`);
          expect(link?.getAttribute("target")).toBe("_blank");
          expect(link?.getAttribute("rel")).toBe("noopener noreferrer");
        }
        if (page.hero.demo) expect(body).toContain(squash(demoScript[0].suggestion));
      });
    }
  }

  it.each(["/pricing", "/"])(
    "%s offers the paid plan as a working link to sign-up with the checkout intent, not a disabled Loading...",
    (path) => {
      const doc = load(path);
      const intent = `/signup?next=${encodeURIComponent(`/pricing?checkout=${DEFAULT_PRODUCT.priceId}`)}`;
      const link = doc.querySelector(`a[href="${intent}"]`);
      expect(link?.textContent).toBe(SIGNED_OUT_LABEL);
      const loading = [...doc.querySelectorAll("button")].filter((b) => b.textContent === "Loading...");
      expect(loading).toHaveLength(0);
      // The Monthly / Yearly switch: links to the page with the interval (they work before and without
      // the island), and the inline script that makes the cards say what the address asks before the
      // first paint (the server allows it by its hash).
      const options = [...doc.querySelectorAll('[role="radiogroup"] a[role="radio"]')];
      expect(options.map((a) => [a.textContent, a.getAttribute("aria-checked"), a.getAttribute("href")])).toEqual([
        ["Monthly", "true", "?interval=month#pricing"],
        ["Yearly", "false", "?interval=year#pricing"],
      ]);
      const script = doc.querySelector('[data-island="pricing"] > script[data-island-script="pricing"]');
      expect(script?.textContent).toContain("location.search");
      // Without JavaScript the switch is hidden and the card offers the yearly price with its own link.
      expect(doc.querySelector('[role="radiogroup"]')?.className).toContain("noscript:hidden");
      const yearly = `/signup?next=${encodeURIComponent("/pricing?checkout=price_closewise_yearly")}`;
      const noscript = doc.querySelector(`noscript a[href="${yearly}"]`);
      expect(noscript?.textContent).toBe("Sign up for yearly billing");
      expect(squash(noscript?.parentElement?.textContent ?? "")).toContain("$200/year — 2 months free");
    },
  );

  it("/ has the hero, the demo's still content and the pricing section", () => {
    const doc = load("/");
    expect(doc.title).toBe(landing.path.title);
    expect(doc.querySelector("h1")?.textContent).toBe(landing.h1);
    const body = text(doc);
    expect(body).toContain(squash(landing.heroCopy));
    expect(body).toContain(squash(demoScript[0].question));
    expect(body).toContain(squash(demoScript[0].email.subject));
    expect(body).toContain("Free Trial");
  });

  it("/ has no control that would swallow a click made before the scripts run", () => {
    const doc = load("/");
    // Download for Mac leads to the download page; the menu toggle waits (disabled) for hydration.
    const downloads = [...doc.querySelectorAll("a, button")].filter((el) => el.textContent?.includes("Download for Mac"));
    expect(downloads.length).toBeGreaterThan(0);
    for (const el of downloads) {
      expect(el.tagName).toBe("A");
      expect(el.getAttribute("href")).toBe("/download");
    }
    const toggle = doc.querySelector('button[aria-controls="mobile-menu"]');
    expect(toggle?.hasAttribute("disabled")).toBe(true);
  });

  // Every kind of page: the landing page, a search landing page, pricing and an account page.
  it.each(["/", "/ai-sales-assistant", "/pricing", "/signup"])("%s links the privacy policy and the terms from its footer", (path) => {
    const footers = load(path).querySelectorAll("footer");
    expect(footers, `${path} has one footer`).toHaveLength(1);
    const links = [...footers[0]!.querySelectorAll("a")].map((a) => [a.textContent?.trim(), a.getAttribute("href")]);
    expect(links).toContainEqual(["Privacy Policy", "/privacy"]);
    expect(links).toContainEqual(["Terms of Service", "/terms"]);
  });
});

describe("crawler files", () => {
  it("sitemap.xml lists exactly the canonical public pages", () => {
    const file = join(dist, "sitemap.xml");
    expect(existsSync(file), "sitemap.xml is emitted (add marketingSeoFiles() to vite.config.ts)").toBe(true);
    expect(readFileSync(file, "utf8")).toBe(sitemapXml());
  });

  it("robots.txt points at the sitemap", () => {
    const file = join(dist, "robots.txt");
    expect(existsSync(file), "robots.txt is emitted (add marketingSeoFiles() to vite.config.ts)").toBe(true);
    expect(readFileSync(file, "utf8")).toBe(robotsTxt());
  });
});
