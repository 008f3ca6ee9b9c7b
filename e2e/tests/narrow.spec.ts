// The account area and /team on a 375 px phone: nothing scrolls sideways (the page never; inside it,
// only a table that says so) and axe finds no serious or critical violation, signed out and in,
// with the mobile menu open too. Checked at rest, as in a11y.spec.ts.

import type { Page } from "@playwright/test";
import { expect, signInToDashboard, test } from "../support/fixtures";
import { seriousViolations, sidewaysScrolling } from "../support/layout";
import { ACCOUNT_SCREENS, PUBLIC_SCREENS } from "../support/routes";

test.use({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true, reducedMotion: "reduce" });

async function check(page: Page, label: string) {
  await expect(page.getByRole("heading", { level: 1 }).first(), label).toBeVisible();
  await expect(page.locator('[aria-busy="true"]'), `${label}: still loading`).toHaveCount(0);
  expect(await sidewaysScrolling(page), `${label}: sideways scrolling at 375 px`).toEqual([]);
  expect(await seriousViolations(page), `${label}: serious or critical axe violations at 375 px`).toEqual([]);
}

test("signed out at 375 px: sign-in, sign-up, pricing, the password reset and Check Your Email", async ({ page }) => {
  for (const screen of PUBLIC_SCREENS) {
    await page.goto(screen.path);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(screen.heading);
    await check(page, screen.path);
  }
  await page.goto("/signin");
  await page.getByLabel("Email", { exact: true }).fill("nobody@example.com");
  await page.getByLabel("Password", { exact: true }).fill("not-the-password");
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page.getByRole("form", { name: "Sign in" }).getByText("Invalid login credentials")).toBeVisible();
  await check(page, "/signin with the error under the form");

  await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Open menu" }).click();
  await expect(page.locator("#mobile-menu")).toBeVisible();
  await check(page, "/signin with the mobile menu open");

  await page.goto("/signup");
  await page.getByLabel("Email", { exact: true }).fill(`narrow-${Date.now()}@example.com`);
  await page.getByLabel("Password", { exact: true }).fill("correct-horse-42");
  await page.getByLabel("Confirm password", { exact: true }).fill("correct-horse-42");
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByRole("heading", { name: "Check Your Email", level: 1 })).toBeFocused();
  await check(page, "/signup's Check Your Email");
});

test("signed in at 375 px: dashboard, settings, activate and /team, before and after creating a team", async ({
  page,
  helpers,
}) => {
  const email = await helpers.verifiedUser("narrow");
  await signInToDashboard(page, email);
  for (const screen of ACCOUNT_SCREENS) {
    await page.goto(screen.path);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(screen.heading);
    await check(page, screen.path);
  }
  await page.goto("/dashboard");
  await expect(page.getByText("Free Trial", { exact: true }).first()).toBeVisible();
  await check(page, "/dashboard with the free plan's panels");

  await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Open menu" }).click();
  await expect(page.locator("#mobile-menu").getByRole("link", { name: "Settings" })).toBeVisible();
  await check(page, "/dashboard with the mobile menu open");

  await page.goto("/team");
  await page.getByLabel("Team name").fill("Narrow Screens Sales Team");
  await page.getByRole("button", { name: "Create team" }).click();
  await expect(page.getByRole("heading", { name: "Narrow Screens Sales Team", level: 2 })).toBeVisible();
  await expect(page.getByRole("table").first()).toBeVisible();
  await check(page, "/team with a team and its members");
});
