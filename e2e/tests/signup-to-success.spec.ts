// Flow 1 (and 12: the postgres project runs this file against an API on PostgreSQL): from the sign-up
// form to a paid plan, through the real verification mail and stripe-mock's hosted checkout page.

import { CARD_OK, expect, longDate, PASSWORD, payOnCheckoutPage, test, uniqueEmail } from "../support/fixtures";

test("sign up, verify, sign in, subscribe with 4242 and land on a paid dashboard", async ({ page, helpers }) => {
  const email = uniqueEmail("flow1");

  // Sign-up form: the validation messages first.
  await page.goto("/signup");
  await expect(page.getByRole("heading", { name: "Create your account", level: 1 })).toBeVisible();
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirm password", { exact: true }).fill(`${PASSWORD}-typo`);
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByText("Passwords do not match")).toBeVisible();

  await page.getByLabel("Password", { exact: true }).fill("abc");
  await page.getByLabel("Confirm password", { exact: true }).fill("abc");
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByText("Password must be at least 6 characters")).toBeVisible();
  await expect(page.getByText("Passwords do not match")).toHaveCount(0);

  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirm password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Create Account" }).click();

  // Check Your Email.
  await expect(page.getByText("Account created! Please check your email to verify your account.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Check Your Email", level: 1 })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();

  // The verification link from the dev mail.
  const link = await helpers.mailLink(email);
  expect(link).toMatch(/^\/verify\?token=/);
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Email verified", level: 1 })).toBeVisible();
  await page.getByRole("link", { name: "Go to Sign In" }).click();

  // Sign in: the dashboard on the Free Trial with the Download panel.
  await expect(page).toHaveURL(/\/signin/);
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page.getByText("Signed in successfully!")).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText("Free Trial", { exact: true }).first()).toBeVisible();
  await expect(page.getByRole("heading", { name: "Download Closewise" })).toBeVisible();
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();

  // Upgrade Now scrolls to the upgrade block; Start Subscription goes to the mock's checkout page.
  await page.getByRole("button", { name: "Upgrade Now" }).click();
  const start = page.getByRole("button", { name: "Start Subscription" });
  await expect(start).toBeInViewport();
  await start.click();
  await expect(page).toHaveURL(new RegExp(`^${helpers.stack.mockUrl}/c/pay/cs_`));
  await expect(page.getByRole("heading", { name: "Subscribe to Unlimited Sales Copilot" })).toBeVisible();
  await expect(page.getByLabel("Email", { exact: true })).toHaveValue(email);

  // Hold the activation call until "Activating" has been seen, so the first state is checked for sure.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/checkout/confirm", async (route) => {
    await held;
    await route.continue();
  });

  await payOnCheckoutPage(page, CARD_OK);
  await expect(page).toHaveURL(/\/success\?session_id=cs_/);
  const sessionId = new URL(page.url()).searchParams.get("session_id")!;
  await expect(page.getByRole("heading", { name: "Activating your subscription" })).toBeVisible();
  await expect(page.getByText(`…${sessionId.slice(-8)}`)).toBeVisible();
  const confirmed = page.waitForResponse((r) => r.url().endsWith("/api/checkout/confirm"));
  release();
  const confirmAnswer = await confirmed;
  expect(confirmAnswer.status(), await confirmAnswer.text()).toBe(200);
  const { subscription } = (await confirmAnswer.json()) as { subscription: { current_period_end: number } };

  await expect(page.getByText("Subscription activated successfully!")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible();
  await expect(page.getByText("Unlimited Sales Copilot")).toBeVisible();
  await expect(page.getByText("Monthly Plan")).toBeVisible();
  await expect(page.getByText("Unlimited Usage")).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to Home" })).toBeVisible();

  // The paid dashboard.
  await page.getByRole("link", { name: "Go to Dashboard" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText("Unlimited Sales Copilot", { exact: true })).toBeVisible();
  await expect(page.getByText("Pro Plan")).toBeVisible();
  await expect(page.getByRole("heading", { name: "You're All Set!" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Upgrade Now" })).toHaveCount(0);

  const management = page.getByRole("region", { name: "Subscription Management" });
  await expect(management).toBeVisible();
  const days = (subscription.current_period_end - (await helpers.mockNow())) / 86_400;
  expect(days, "the first period lasts about a month").toBeGreaterThan(27);
  expect(days).toBeLessThan(32);
  await expect(management.getByText("Active", { exact: true })).toBeVisible();
  await expect(management.getByText("Renews", { exact: true })).toBeVisible();
  await expect(management.getByText(longDate(subscription.current_period_end))).toBeVisible();
  await expect(management.getByText(/Visa/)).toBeVisible();
  await expect(management.getByText(/4242/)).toBeVisible();
});
