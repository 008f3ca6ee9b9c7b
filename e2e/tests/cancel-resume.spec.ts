// Cancellation with a way back, personal: cancel from the dashboard with a reason, resume, cancel
// again, then stripe-mock's clock passes the period's end and the account is free. The clock moves
// every subscription of its stripe-mock, so this file gets a stack of its own.

import { expect, longDate, signInToDashboard, subscribe, test } from "../support/fixtures";

test.use({ stackName: "cancel-clock" });

test("cancel with a reason, resume, cancel again and the period ends: free", async ({ page, helpers }) => {
  const email = await helpers.verifiedUser("cancel");
  await signInToDashboard(page, email);
  await subscribe(page);
  const token = await helpers.accessToken(email);
  const sub = (await helpers.waitForSubscription(token, "an active subscription", (s) => s?.subscription_status === "active"))!;
  const periodEnd = longDate(sub.current_period_end);

  await page.goto("/dashboard");
  const management = page.getByRole("region", { name: "Subscription Management" });
  await management.getByRole("button", { name: "Cancel plan" }).click();
  const dialog = page.getByRole("dialog", { name: "Cancel your plan?" });
  await expect(dialog.getByText(`Your plan stays active until ${periodEnd}`)).toBeVisible();
  await dialog.getByLabel("Why are you cancelling? (optional)").selectOption({ label: "It costs too much" });
  await dialog.getByRole("button", { name: "Cancel plan" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(management.getByText(`Your plan ends on ${periodEnd}.`)).toBeVisible();
  await expect(management.getByText("Expires", { exact: true })).toBeVisible();
  const cancelled = await helpers.waitForSubscription(token, "the cancellation", (s) => s?.cancel_at_period_end === true);
  expect(cancelled?.cancellation_reason).toBe("too_expensive");

  // Resume: it renews again, the reason is gone.
  await management.getByRole("button", { name: "Resume plan" }).click();
  await expect(management.getByText("Renews", { exact: true })).toBeVisible();
  await expect(management.getByRole("button", { name: "Cancel plan" })).toBeVisible();
  const resumed = await helpers.waitForSubscription(token, "the renewal", (s) => s?.cancel_at_period_end === false);
  expect(resumed?.cancellation_reason ?? null).toBeNull();

  // Cancel again, no reason; the period runs out on stripe-mock's clock: back to the Free Trial.
  await management.getByRole("button", { name: "Cancel plan" }).click();
  await page.getByRole("dialog", { name: "Cancel your plan?" }).getByRole("button", { name: "Cancel plan" }).click();
  await expect(management.getByText(`Your plan ends on ${periodEnd}.`)).toBeVisible();
  const mockNow = await helpers.mockNow();
  await helpers.advanceMockClock(sub.current_period_end - mockNow + 3600);
  await helpers.waitForSubscription(token, "the subscription ended", (s) => s === null || s.subscription_status === "canceled");
  await expect.poll(async () => (await helpers.plan(token)).plan_type, { message: "the plan is free again" }).toBe("free");
  await page.goto("/dashboard");
  await expect(page.getByText("Free Trial", { exact: true }).first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Upgrade Now" })).toBeVisible();
});
