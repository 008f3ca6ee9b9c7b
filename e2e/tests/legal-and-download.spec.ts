// The privacy, terms, support and download pages, prerendered and axe-clean (that every kind of page's
// footer links them is a check of the prerendered HTML: web/src/features/marketing/build/prerendered.check.ts).

import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "../support/fixtures";

test.use({ reducedMotion: "reduce" });

const PAGES = [
  { path: "/privacy", heading: "Privacy Policy" },
  { path: "/terms", heading: "Terms of Service" },
  { path: "/support", heading: "Contact and Support" },
  { path: "/download", heading: "Download Closewise for Mac" },
];

for (const { path, heading } of PAGES) {
  test(`${path} has one h1, a canonical link and no serious axe violations`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", new RegExp(`${path}$`));
    const results = await new AxeBuilder({ page })
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"])
      .analyze();
    const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id);
    expect(serious).toEqual([]);
  });
}
