// Flow 6 (unverified) with ALLOW_UNVERIFIED_SIGNIN=true: an unconfirmed user reaches the restricted
// dashboard, and the checkout button says Verify Email First. This file gets its own worker and stack.

import { expect, signInToDashboard, test, uniqueEmail } from "../support/fixtures";

test.use({ allowUnverifiedSignin: true });

test("unverified: the restricted dashboard and Verify Email First", async ({ page, helpers }) => {
  const email = uniqueEmail("unverified");
  await helpers.signUp(email);
  await signInToDashboard(page, email);

  await expect(page.getByRole("region", { name: "Email verification" })).toBeVisible();
  // A static notice, not an alert (it is there on arrival; nothing happened to announce).
  await expect(page.getByRole("alert").filter({ hasText: "Account Access Limited:" })).toHaveCount(0);
  await expect(page.locator("main div").filter({ hasText: /^Account Access Limited:/ })).toContainText(
    "Some features are restricted until you verify your email address. Please check your inbox and click the verification link to unlock full access.",
  );
  await page.getByRole("button", { name: "Dismiss verification banner" }).click();
  await expect(page.getByRole("region", { name: "Email verification" })).toHaveCount(0);
  await expect(page.getByText("Account Access Limited:")).toBeVisible();

  await page.goto("/pricing");
  const button = page.getByRole("button", { name: "Verify Email First" });
  await expect(button).toBeVisible();
  await button.click();
  await expect(page.getByText("Please verify your email address before subscribing")).toBeVisible();
  await expect(page).toHaveURL(/\/pricing$/);
});
