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

/**
 * What is cut off on the page as it is now: a table cell, a header or a control whose content is
 * wider than its box (text running out of a cell, a clipped "Remove"), a control reaching past the
 * window's edge or its card's, and column headers whose words run together ("MinutesDevices").
 */
export async function clippedContent(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const name = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""} "${(el.textContent ?? "").trim().slice(0, 40)}"`;
    // Visually hidden text (the `sr-only` column headers of a table shown as cards) is for screen readers only.
    const clipped = (el: Element) => {
      for (let e: Element | null = el; e; e = e.parentElement) {
        const style = getComputedStyle(e);
        if (style.clipPath === "inset(50%)" || style.clip === "rect(0px, 0px, 0px, 0px)") return true;
      }
      return false;
    };
    const visible = (el: Element) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== "hidden" && !clipped(el);
    };
    const problems: string[] = [];
    const width = document.documentElement.clientWidth;
    const main = document.querySelector("main") ?? document.body;
    for (const el of main.querySelectorAll<HTMLElement>(
      "td, th, button, select, input, a",
    )) {
      if (!visible(el)) continue;
      if (
        el.matches("td, th, button, select") &&
        el.scrollWidth > el.clientWidth + 1
      )
        problems.push(
          `${name(el)} overflows its box: ${el.scrollWidth}px of content in ${el.clientWidth}px`,
        );
      const r = el.getBoundingClientRect();
      if (r.left < -1 || r.right > width + 1)
        problems.push(
          `${name(el)} reaches past the window (${Math.round(r.left)}–${Math.round(r.right)} of ${width})`,
        );
      const card = el.closest("section");
      if (card && !el.matches("td, th")) {
        const c = card.getBoundingClientRect();
        if (r.left < c.left - 1 || r.right > c.right + 1)
          problems.push(`${name(el)} reaches out of its section`);
      }
    }
    for (const row of main.querySelectorAll("thead tr")) {
      const texts = [...row.querySelectorAll("th")]
        .filter(visible)
        .map((th) => {
          const range = document.createRange();
          range.selectNodeContents(th);
          return { th, box: range.getBoundingClientRect() };
        })
        .filter((t) => t.box.width > 1);
      for (let i = 1; i < texts.length; i++) {
        const [a, b] = [texts[i - 1]!, texts[i]!];
        const sameLine = Math.abs(a.box.top - b.box.top) < a.box.height;
        if (sameLine && b.box.left - a.box.right < 6)
          problems.push(`headers run together: ${name(a.th)}${name(b.th)}`);
      }
    }
    return problems;
  });
}

/**
 * Controls smaller than 44 px high on a touch screen: buttons, selects, text fields, checkboxes and
 * radios (their label is the target), menu items and navigation links. Links inside text are not
 * targets of their own.
 */
export async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const targets = document.querySelectorAll<HTMLElement>(
      "main button, main select, main input, [role=menuitem], main nav a, header nav button",
    );
    for (const el of targets) {
      const input = el as HTMLInputElement;
      if (input.type === "hidden") continue;
      const target =
        input.type === "checkbox" || input.type === "radio"
          ? (el.closest("label") ?? el)
          : el;
      const r = target.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      if (r.height < 43.5)
        problems.push(
          `${target.tagName.toLowerCase()} "${(target.textContent || el.getAttribute("aria-label") || "").trim().slice(0, 40)}" is ${Math.round(r.height)}px high`,
        );
    }
    return problems;
  });
}
