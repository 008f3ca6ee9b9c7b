// Flow 2: the billing portal (cancel at period end, resume) and the period running out on
// stripe-mock's test clock. Moving the clock moves it for every subscription of that stripe-mock, so
// this file gets a stack of its own (a worker option forces its own worker).

import { expect, longDate, signInToDashboard, subscribe, test } from "../support/fixtures";

test.use({ stackName: "test-clock" });

test("billing portal: cancel at period end, resume, then the period ends on the test clock", async ({ page, helpers }) => {
  const email = await helpers.verifiedUser("portal");
  await signInToDashboard(page, email);
  await subscribe(page);
  const token = await helpers.accessToken(email);
  const sub = (await helpers.waitForSubscription(token, "an active subscription", (s) => s?.subscription_status === "active"))!;
  const periodEnd = longDate(sub.current_period_end);

  const management = page.getByRole("region", { name: "Subscription Management" });
  const openPortal = async () => {
    await page.goto("/dashboard");
    await management.getByRole("button", { name: "Manage Billing" }).click();
    await expect(page).toHaveURL(new RegExp(`^${helpers.stack.mockUrl}/p/session/`));
    await expect(page.getByRole("heading", { name: "Billing", level: 1 })).toBeVisible();
  };

  // Cancel at period end in the portal.
  await openPortal();
  await expect(page.getByText(`Renews on ${periodEnd}`)).toBeVisible();
  await page.getByRole("button", { name: "Cancel plan" }).click();
  await expect(page.getByText("Your plan has been canceled. It stays active until the end of the billing period.")).toBeVisible();
  await expect(page.getByText(`Cancels on ${periodEnd}`)).toBeVisible();
  await helpers.waitForSubscription(token, "the cancellation", (s) => s?.cancel_at_period_end === true);
  await page.getByRole("link", { name: "Return to Closewise" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText("Pro Plan")).toBeVisible();
  await expect(management.getByText("Expires", { exact: true })).toBeVisible();
  await expect(management.getByText(periodEnd, { exact: true })).toBeVisible();
  await expect(management.getByText("Renews", { exact: true })).toHaveCount(0);

  // Resume.
  await openPortal();
  await page.getByRole("button", { name: "Renew plan" }).click();
  await expect(page.getByText("Your plan has been renewed.")).toBeVisible();
  await helpers.waitForSubscription(token, "the renewal", (s) => s?.cancel_at_period_end === false);
  await page.getByRole("link", { name: "Return to Closewise" }).click();
  await expect(management.getByText("Renews", { exact: true })).toBeVisible();
  await expect(management.getByText(periodEnd, { exact: true })).toBeVisible();

  // Cancel again and let the period run out on stripe-mock's test clock: back to the Free Trial.
  await openPortal();
  await page.getByRole("button", { name: "Cancel plan" }).click();
  await expect(page.getByText(`Cancels on ${periodEnd}`)).toBeVisible();
  await helpers.waitForSubscription(token, "the cancellation", (s) => s?.cancel_at_period_end === true);
  const mockNow = await helpers.mockNow();
  await helpers.advanceMockClock(sub.current_period_end - mockNow + 3600);
  await helpers.waitForSubscription(token, "the subscription ended", (s) => s === null || s.subscription_status === "canceled");
  await expect.poll(async () => (await helpers.plan(token)).plan_type, { message: "the plan is free again" }).toBe("free");

  await page.goto("/dashboard");
  await expect(page.getByText("Free Trial", { exact: true }).first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Upgrade Now" })).toBeVisible();
  await expect(page.getByText("Pro Plan")).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "You're All Set!" })).toHaveCount(0);
});
