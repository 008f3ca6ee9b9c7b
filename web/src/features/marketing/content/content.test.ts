// @vitest-environment node
import { describe, expect, it } from "vitest";
import { articles } from "./articles";
import { ownContentLinks, sharedLayoutLinks } from "../../../components/layout/footerLinks";
import { DEFAULT_PRODUCT, formatPrice } from "../../../lib/billing/rules";
import { landing } from "./landing";
import { marketingPages, ownContentPages, sharedLayoutPages } from "./pages";

const allPaths = [landing.path, ...marketingPages.flatMap((page) => page.paths)];

function duplicates(values: string[]): string[] {
  return values.filter((value, index) => values.indexOf(value) !== index);
}

describe("marketing copy", () => {
  it("gives every path a unique title and a unique meta description", () => {
    expect(duplicates(allPaths.map((entry) => entry.title))).toEqual([]);
    expect(duplicates(allPaths.map((entry) => entry.description))).toEqual([]);
  });

  it.each(allPaths)("$path has a title and description of a length search results show", (entry) => {
    expect(entry.title.length).toBeGreaterThanOrEqual(20);
    expect(entry.title.length).toBeLessThanOrEqual(80);
    expect(entry.description.length).toBeGreaterThanOrEqual(100);
    expect(entry.description.length).toBeLessThanOrEqual(170);
  });

  it("never repeats a heading, hero text, feature card or closing banner between pages", () => {
    const pages = [...marketingPages];
    expect(duplicates([landing.h1, ...pages.map((page) => page.h1)])).toEqual([]);
    expect(duplicates(pages.map((page) => page.heroCopy))).toEqual([]);
    expect(duplicates(pages.flatMap((page) => page.features.cards.map((card) => card.title)))).toEqual([]);
    expect(duplicates(pages.flatMap((page) => page.features.cards.map((card) => card.body)))).toEqual([]);
    expect(duplicates(pages.map((page) => page.closing.heading))).toEqual([]);
    expect(duplicates(pages.map((page) => page.features.heading))).toEqual([]);
  });

  it.each(marketingPages)("$id has three feature cards, steps, proof and a statistics box", (page) => {
    expect(page.features.cards).toHaveLength(3);
    expect(page.howItWorks.steps.length).toBeGreaterThanOrEqual(3);
    expect(page.proof.items.length).toBeGreaterThanOrEqual(3);
    expect(page.stats.items.length).toBeGreaterThanOrEqual(3);
    expect(page.closing.heading.length).toBeGreaterThan(0);
  });

  it("links out only to the verified article list, over https, without repeats on a page", () => {
    const verified = new Set(Object.values(articles).map((article) => article.url));
    for (const page of marketingPages) {
      const urls = page.articles?.links.map((link) => link.url) ?? [];
      expect(duplicates(urls), page.id).toEqual([]);
      for (const url of urls) {
        expect(verified.has(url), `${page.id}: ${url}`).toBe(true);
        expect(new URL(url).protocol).toBe("https:");
      }
    }
  });

  it("puts article grids on some pages, not all", () => {
    const withArticles = marketingPages.filter((page) => page.articles).length;
    expect(withArticles).toBeGreaterThan(5);
    expect(withArticles).toBeLessThan(marketingPages.length);
  });

  it("compares Closewise with generic AI tools and basic CRM AI on the best-AI page only", () => {
    const withTable = marketingPages.filter((page) => page.comparison);
    expect(withTable.map((page) => page.id)).toEqual(["best-ai-for-sales-teams"]);
    expect(withTable[0]!.comparison!.columns).toEqual(["Closewise", "Generic AI tools", "Basic CRM AI"]);
    expect(withTable[0]!.comparison!.rows.length).toBeGreaterThanOrEqual(6);
  });

  it("carries the sign-up widget and the demo on some heroes", () => {
    expect(marketingPages.some((page) => page.hero.signupWidget)).toBe(true);
    expect(marketingPages.some((page) => page.hero.demo)).toBe(true);
    expect(marketingPages.some((page) => !page.hero.demo && !page.hero.signupWidget)).toBe(true);
  });

  it("quotes the catalogue's price where it mentions one", () => {
    const text = JSON.stringify(marketingPages);
    const price = formatPrice(DEFAULT_PRODUCT.price, DEFAULT_PRODUCT.currency);
    for (const quoted of text.match(/\$\d+/g) ?? []) expect(quoted).toBe(price);
  });

  it("keeps the footer directory in step with the pages", () => {
    const entries = (pages: typeof marketingPages) => pages.map((page) => ({ id: page.id, path: page.paths[0].path }));
    expect(sharedLayoutLinks.map(({ id, path }) => ({ id, path }))).toEqual(entries(sharedLayoutPages));
    expect(ownContentLinks.map(({ id, path }) => ({ id, path }))).toEqual(entries(ownContentPages));
  });
});
