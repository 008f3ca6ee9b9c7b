//! Checks of a page as it is now, for the narrow-screen and accessibility specs: axe's serious and
//! critical violations, and anything that scrolls sideways.

import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];

/** Serious and critical violations on the page as it is now, described for the failure message. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

/**
 * What scrolls sideways: the page itself never may; inside it, only a table that says so — a
 * labelled, focusable region (keyboard users can scroll it) holding a table.
 */
export async function sidewaysScrolling(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const name = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}${el.className && typeof el.className === "string" ? `.${el.className.trim().split(/\s+/).slice(0, 3).join(".")}` : ""}`;
    const problems: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth) {
      const wide = [...document.querySelectorAll("body *")]
        .filter((el) => el.getBoundingClientRect().right > root.clientWidth + 1)
        .slice(0, 5)
        .map(name);
      problems.push(`the page is ${root.scrollWidth}px wide in a ${root.clientWidth}px window (${wide.join(", ")})`);
    }
    for (const el of document.querySelectorAll<HTMLElement>("body *")) {
      const overflow = getComputedStyle(el).overflowX;
      if ((overflow !== "auto" && overflow !== "scroll") || el.scrollWidth <= el.clientWidth) continue;
      const saysSo =
        el.getAttribute("role") === "region" && el.hasAttribute("aria-label") && el.tabIndex >= 0 && el.querySelector("table");
      if (!saysSo) problems.push(`${name(el)} scrolls sideways without saying so`);
    }
    return problems;
  });
}
