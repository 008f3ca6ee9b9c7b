// Flow 11: axe-core on every route, signed out and signed in: no serious or critical violations.
// Pages are checked at rest (prefers-reduced-motion, so the demo shows its still and nothing is half
// faded in when axe measures contrast), after their heading has rendered.

import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, signInToDashboard, subscribe, test } from "../support/fixtures";
import { ACCOUNT_SCREENS, PUBLIC_SCREENS, SPEC_LANDING_PAGES } from "../support/routes";

test.use({ reducedMotion: "reduce" });

const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];

/** Serious and critical violations on the page as it is now, described for the failure message. */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

async function check(page: Page, label: string) {
  await expect(page.getByRole("heading", { level: 1 }).first(), label).toBeVisible();
  // At rest: nothing still loading (the checkout button says "Loading..." until the session is known).
  await expect(page.locator('[aria-busy="true"]'), `${label}: still loading`).toHaveCount(0);
  expect(await seriousViolations(page), `${label}: serious or critical axe violations`).toEqual([]);
}

for (const route of ["/", ...SPEC_LANDING_PAGES]) {
  test(`signed out: ${route}`, async ({ page }) => {
    await page.goto(route);
    await check(page, route);
  });
}

test("signed out: the account screens, the not-found page and the open download modal", async ({ page }) => {
  for (const screen of [
    ...PUBLIC_SCREENS,
    { path: "/verify", heading: "Verification failed" },
    { path: "/reset-password", heading: "Reset link problem" },
    { path: "/no-such-page", heading: "Page not found" },
  ]) {
    await page.goto(screen.path);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(screen.heading);
    await check(page, screen.path);
  }

  // Form errors and the sign-up confirmation.
  await page.goto("/signup");
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByText("Email is required")).toBeVisible();
  await check(page, "/signup with errors");

  await page.goto("/");
  await page.getByRole("button", { name: "Download for Mac" }).first().click();
  await expect(page.getByRole("dialog", { name: "Choose Your Mac Version" })).toBeVisible();
  await check(page, "/ with the download modal");
});

test("signed in: free and paid dashboard, settings, pricing, success, the user menu", async ({ page, helpers }) => {
  const email = await helpers.verifiedUser("a11y");
  await signInToDashboard(page, email);

  for (const screen of ACCOUNT_SCREENS) {
    await page.goto(screen.path);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(screen.heading);
    await check(page, `${screen.path} (free plan)`);
  }
  await page.goto("/dashboard");
  await expect(page.getByText("Free Trial", { exact: true }).first()).toBeVisible();
  await check(page, "/dashboard with the free plan's panels");

  await page.goto("/pricing");
  await expect(page.getByRole("button", { name: "Start Subscription" })).toBeVisible();
  await check(page, "/pricing signed in");

  await page.goto("/");
  await page.getByRole("button", { name: "User menu" }).click();
  await expect(page.getByRole("menu", { name: "User menu" })).toBeVisible();
  await check(page, "/ signed in with the user menu open");

  await subscribe(page);
  // Measured at rest: after the success toast has gone.
  await expect(page.getByText("Subscription activated successfully!")).toHaveCount(0);
  await check(page, "/success (Payment Successful)");
  await page.goto("/dashboard");
  await expect(page.getByRole("heading", { name: "You're All Set!" })).toBeVisible();
  await check(page, "/dashboard (paid)");

  await page.goto("/success?session_id=cs_made_up");
  await expect(page.getByRole("heading", { name: "We couldn't activate your plan" })).toBeVisible();
  await expect(page.getByText("Plan activation failed, but you can contact support.")).toHaveCount(0);
  await check(page, "/success (failed)");
});
