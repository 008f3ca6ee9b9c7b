// Flow 6 (signed out and paid): the checkout button's labels. The unverified label needs an API that
// lets unconfirmed users sign in: see unverified.spec.ts.

import { expect, signInToDashboard, subscribe, test } from "../support/fixtures";

test("signed out: Sign In Required, which leads to sign in and back to /pricing", async ({ page }) => {
  await page.goto("/pricing");
  const button = page.getByRole("button", { name: "Sign In Required" });
  await expect(button).toBeVisible();
  await button.click();
  await expect(page.getByText("Please sign in to continue")).toBeVisible();
  await expect(page).toHaveURL(/\/signin\?redirect=%2Fpricing$/);
});

test("paid: Current Plan, disabled", async ({ page, helpers }) => {
  const email = await helpers.verifiedUser("paid");
  await signInToDashboard(page, email);
  await page.goto("/pricing");
  await expect(page.getByRole("button", { name: "Start Subscription" })).toBeVisible();
  await subscribe(page);
  await page.goto("/pricing");
  const button = page.getByRole("button", { name: "Current Plan" });
  await expect(button).toBeVisible();
  await expect(button).toBeDisabled();
  await expect(page.getByRole("button", { name: "Start Subscription" })).toHaveCount(0);
});
