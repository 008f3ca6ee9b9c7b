// Analytics asks first. This file's stack serves the web app configured with a
// PostHog key whose host is https://analytics.e2e.invalid (support/analyticsBuild.ts); every request
// to that host is answered here with page.route and recorded. Before the visitor accepts, nothing leaves
// the site's origin and PostHog stores nothing; after Accept, events reach the analytics host, without
// the query string (which carries /verify and /reset-password tokens). Decline is remembered; Global
// Privacy Control counts as a decline and no banner is shown.

import AxeBuilder from "@axe-core/playwright";
import type { Page, Request } from "@playwright/test";
import { gunzipSync } from "node:zlib";
import { ANALYTICS_HOST } from "../support/analyticsBuild";
import { expect, test } from "../support/fixtures";

// A worker of its own (the option gives it its own stack and build); in order, in that one worker.
// PostHog drops events from user agents that look like bots, and Headless Chrome's does: this file
// browses as the desktop Chrome a visitor has.
test.use({
  analytics: true,
  reducedMotion: "reduce",
  userAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
});
test.describe.configure({ mode: "default" });
// ... and without the automation flag, which PostHog also reads as a bot.
test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => Object.defineProperty(Navigator.prototype, "webdriver", { get: () => false }));
});

const SECRET = "e2e-secret-token-8f3a91";
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];

interface Seen {
  url: string;
  body: string;
}

/** The request body as text: plain JSON, gzip, or PostHog's base64 form encoding. */
function bodyText(request: Request): string {
  let data = request.postDataBuffer();
  if (!data) return "";
  try {
    if (data[0] === 0x1f && data[1] === 0x8b) data = gunzipSync(data);
    const text = data.toString("utf8");
    const form = /^data=([^&]*)/.exec(text);
    return form ? Buffer.from(decodeURIComponent(form[1]), "base64").toString("utf8") : text;
  } catch {
    return data.toString("latin1");
  }
}

/** Answers and records every request to the analytics host; records every request that leaves the site. */
async function watch(page: Page, origin: string) {
  const analytics: Seen[] = [];
  const offSite: string[] = [];
  page.on("request", (request) => {
    const url = request.url();
    if (!url.startsWith(`${origin}/`) && !url.startsWith("data:") && !url.startsWith("blob:")) offSite.push(url);
  });
  await page.route(
    (url) => url.hostname === ANALYTICS_HOST,
    async (route) => {
      analytics.push({ url: route.request().url(), body: bodyText(route.request()) });
      await route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify({ status: 1 }) });
    },
  );
  return { analytics, offSite };
}

/** What PostHog would have stored: its cookies and localStorage entries (ph_…, __ph…). */
async function posthogStorage(page: Page): Promise<string[]> {
  const cookies = (await page.context().cookies()).map((cookie) => cookie.name);
  const local = await page.evaluate(() => Object.keys(window.localStorage));
  return [...cookies, ...local].filter((name) => /^(ph_|__ph|posthog)/i.test(name));
}

const banner = (page: Page) => page.getByRole("region", { name: "Analytics consent" });

test("nothing leaves the site before consent; after Accept, events reach the analytics host without tokens", async ({ page, baseURL }) => {
  const seen = await watch(page, baseURL!);

  await page.goto(`/reset-password?token=${SECRET}#section`);
  await expect(banner(page)).toBeVisible();
  await expect(banner(page).getByRole("button", { name: "Accept" })).toBeVisible();
  await expect(banner(page).getByRole("button", { name: "Decline" })).toBeVisible();

  const violations = (await new AxeBuilder({ page }).include("section[aria-label='Analytics consent']").withTags(TAGS).analyze()).violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.help}`);
  expect(violations, "the consent banner: serious or critical axe violations").toEqual([]);

  await page.goto("/pricing?plan=monthly#cards");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByRole("link", { name: "Sign In Required" }).first(), "the paid card rendered").toBeVisible();
  await expect(banner(page)).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(seen.offSite, "requests that left the site before consent").toEqual([]);
  expect(seen.analytics).toEqual([]);
  expect(await posthogStorage(page), "PostHog cookies or storage before consent").toEqual([]);

  await banner(page).getByRole("button", { name: "Accept" }).click();
  await expect(banner(page)).toBeHidden();
  await expect.poll(() => seen.analytics.length, { message: "requests to the analytics host after Accept" }).toBeGreaterThan(0);
  // The page view of /pricing (queued while the banner waited) is sent once PostHog has started.
  await expect
    .poll(() => seen.analytics.some((r) => r.body.includes("$pageview") && r.body.includes("/pricing")), {
      message: "a $pageview of /pricing sent to the analytics host",
    })
    .toBe(true);

  // A page with a token in its address, now that analytics runs.
  await page.goto(`/verify?token=${SECRET}#x`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(banner(page)).toHaveCount(0);
  await expect
    .poll(() => seen.analytics.some((r) => r.body.includes("$pageview") && r.body.includes("/verify")), {
      message: "a $pageview of /verify sent to the analytics host",
    })
    .toBe(true);
  for (const request of seen.analytics) {
    expect(request.url, "analytics request address").not.toContain(SECRET);
    expect(request.body, "analytics request body").not.toContain(SECRET);
    expect(request.body, "analytics request body").not.toContain("plan=monthly");
    expect(request.body, "analytics request body").not.toContain("#cards");
  }
  expect(seen.offSite.every((url) => new URL(url).hostname === ANALYTICS_HOST), `off-site requests: ${seen.offSite.join(", ")}`).toBe(true);
});

test("Decline is remembered: no banner on the next visit and nothing sent", async ({ page, baseURL }) => {
  const seen = await watch(page, baseURL!);
  await page.goto("/");
  await banner(page).getByRole("button", { name: "Decline" }).click();
  await expect(banner(page)).toBeHidden();

  await page.goto("/pricing");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByRole("link", { name: "Sign In Required" }).first(), "the paid card rendered").toBeVisible();
  await page.waitForLoadState("networkidle");
  await expect(banner(page)).toHaveCount(0);
  expect(seen.offSite).toEqual([]);
  expect(await posthogStorage(page)).toEqual([]);
});

test("Global Privacy Control counts as a decline: no banner, nothing sent", async ({ page, baseURL }) => {
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, "globalPrivacyControl", { configurable: true, get: () => true });
  });
  const seen = await watch(page, baseURL!);
  await page.goto("/pricing");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByRole("link", { name: "Sign In Required" }).first(), "the paid card rendered").toBeVisible();
  await page.waitForLoadState("networkidle");
  await expect(banner(page)).toHaveCount(0);
  expect(seen.offSite).toEqual([]);
  expect(await posthogStorage(page)).toEqual([]);
});
