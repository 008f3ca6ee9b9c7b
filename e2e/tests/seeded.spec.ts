// The seed fixture (fixtures/seed.json), loaded with the operator CLI (`closewise db seed`), shows each
// account in the state the fixture describes: unverified, free, paid, and paid but cancelling.

import { expect, longDate, signIn, signInToDashboard, test, type Subscription } from "../support/fixtures";

const PASSWORD = "closewise-seed-1";

test.beforeEach(({ helpers }) => {
  // Idempotent: accounts already there are left as they are.
  helpers.seed("fixtures/seed.json");
});

async function periodEnd(helpers: { accessToken(e: string, p: string): Promise<string>; getJson<T>(p: string, t: string): Promise<T> }, email: string) {
  const token = await helpers.accessToken(email, PASSWORD);
  const { subscription } = await helpers.getJson<{ subscription: Subscription | null }>("/api/subscription", token);
  expect(subscription).not.toBeNull();
  return longDate(subscription!.current_period_end);
}

test("seeded unverified@example.com cannot sign in before verifying", async ({ page }) => {
  await signIn(page, "unverified@example.com", PASSWORD);
  await expect(page.getByText("Please verify your email address before signing in")).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Email Verification Required" })).toBeVisible();
});

test("seeded free@example.com: Free Trial and Start Subscription", async ({ page }) => {
  await signInToDashboard(page, "free@example.com", PASSWORD);
  await expect(page.getByText("Free Trial", { exact: true }).first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Upgrade Now" })).toBeVisible();
  await page.goto("/pricing");
  await expect(page.getByRole("button", { name: "Start Subscription" })).toBeVisible();
});

test("seeded paid@example.com: Pro Plan, Renews, Visa 4242 and Current Plan", async ({ page, helpers }) => {
  await signInToDashboard(page, "paid@example.com", PASSWORD);
  await expect(page.getByText("Pro Plan")).toBeVisible();
  const management = page.getByRole("region", { name: "Subscription Management" });
  await expect(management.getByText("Renews", { exact: true })).toBeVisible();
  await expect(management.getByText(await periodEnd(helpers, "paid@example.com"))).toBeVisible();
  await expect(management.getByText(/Visa/)).toBeVisible();
  await expect(management.getByText(/4242/)).toBeVisible();
  await page.goto("/pricing");
  await expect(page.getByRole("button", { name: "Current Plan" })).toBeDisabled();
});

test("seeded cancelling@example.com: Pro Plan, Expires, Mastercard 4444", async ({ page, helpers }) => {
  await signInToDashboard(page, "cancelling@example.com", PASSWORD);
  await expect(page.getByText("Pro Plan")).toBeVisible();
  const management = page.getByRole("region", { name: "Subscription Management" });
  await expect(management.getByText("Expires", { exact: true })).toBeVisible();
  // The date shows beside "Expires" and in "Your plan ends on …".
  await expect(management.getByText(await periodEnd(helpers, "cancelling@example.com")).first()).toBeVisible();
  await expect(management.getByText(/Mastercard/)).toBeVisible();
  await expect(management.getByText(/4444/)).toBeVisible();
});
