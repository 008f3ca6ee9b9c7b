// Flow 6 (signed out and paid): the checkout button's labels. The unverified label needs an API that
// lets unconfirmed users sign in: see unverified.spec.ts.

import { expect, signInToDashboard, subscribe, test } from "../support/fixtures";

test("signed out: Sign In Required, a link to sign-up that keeps the checkout intent (intent.spec.ts follows it)", async ({
  page,
}) => {
  await page.goto("/pricing");
  const link = page.getByRole("link", { name: "Sign In Required" });
  await expect(link).toBeVisible();
  await link.click();
  await expect(page.getByText("Please sign in to continue")).toBeVisible();
  await expect(page).toHaveURL(/\/signup\?next=%2Fpricing%3Fcheckout%3Dprice_closewise_monthly$/);
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
