// Flows 3, 4 and 8: a declined card, cancelling on the checkout page, and a success page with a
// session that is made up or someone else's. (Flow 2, the billing portal: billing-portal.spec.ts.)

import { CARD_DECLINED, expect, payOnCheckoutPage, signInToDashboard, test } from "../support/fixtures";

test("a declined card stays on the checkout page with its error and the plan stays free", async ({ page, helpers }) => {
  const email = await helpers.verifiedUser("declined");
  await signInToDashboard(page, email);
  await page.goto("/pricing");
  await page.getByRole("button", { name: "Start Subscription" }).click();
  await payOnCheckoutPage(page, CARD_DECLINED);
  await expect(page.getByRole("alert")).toHaveText("Your card was declined.");
  await expect(page).toHaveURL(new RegExp(`^${helpers.stack.mockUrl}/c/pay/cs_`));
  await expect(page.getByRole("heading", { name: "Subscribe to Unlimited Sales Copilot" })).toBeVisible();

  const token = await helpers.accessToken(email);
  expect((await helpers.plan(token)).plan_type).toBe("free");
  await page.goto("/dashboard");
  await expect(page.getByText("Free Trial", { exact: true }).first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Upgrade Now" })).toBeVisible();
});

test("Cancel on the checkout page returns to /pricing", async ({ page, helpers }) => {
  const email = await helpers.verifiedUser("cancel");
  await signInToDashboard(page, email);
  await page.goto("/pricing");
  await page.getByRole("button", { name: "Start Subscription" }).click();
  await expect(page.getByRole("heading", { name: "Subscribe to Unlimited Sales Copilot" })).toBeVisible();
  await page.getByRole("link", { name: "Cancel" }).click();
  await expect(page).toHaveURL(`${helpers.stack.baseUrl}/pricing`);
  await expect(page.getByRole("heading", { name: "Simple, Transparent Pricing", level: 1 })).toBeVisible();
  await expect(page.getByRole("button", { name: "Start Subscription" })).toBeVisible();
});

test("/success with a made-up session id activates nothing", async ({ page, helpers }) => {
  const email = await helpers.verifiedUser("madeup");
  await signInToDashboard(page, email);
  await page.goto("/success?session_id=cs_made_up");
  await expect(page.getByRole("heading", { name: "We couldn't activate your plan" })).toBeVisible();
  await expect(page.getByText("Plan activation failed, but you can contact support.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Payment Successful" })).toHaveCount(0);

  await page.getByRole("link", { name: "Go to Dashboard" }).click();
  await expect(page.getByText("Free Trial", { exact: true }).first()).toBeVisible();
  expect((await helpers.plan(await helpers.accessToken(email))).plan_type).toBe("free");
});

test("/success with someone else's paid session activates nothing for the visitor", async ({ page, helpers }) => {
  // Ana starts a checkout (through the API, as her browser would) ...
  const ana = await helpers.verifiedUser("ana");
  const anaToken = await helpers.accessToken(ana);
  const origin = helpers.stack.baseUrl;
  const created = await helpers.postJson<{ url: string }>("/api/checkout", anaToken, {
    price_id: "price_closewise_monthly",
    mode: "subscription",
    success_url: `${origin}/success?session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: `${origin}/pricing`,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);

  // ... and Ben, signed in in this browser, pays on her checkout page and lands on /success with her session.
  const ben = await helpers.verifiedUser("ben");
  await signInToDashboard(page, ben);
  await page.goto(created.body.url);
  await payOnCheckoutPage(page, "4242 4242 4242 4242");
  await expect(page).toHaveURL(/\/success\?session_id=cs_/);
  await expect(page.getByRole("heading", { name: "We couldn't activate your plan" })).toBeVisible();
  await expect(page.getByText("Plan activation failed, but you can contact support.")).toBeVisible();

  await page.getByRole("link", { name: "Go to Dashboard" }).click();
  await expect(page.getByText("Free Trial", { exact: true }).first()).toBeVisible();
  expect((await helpers.plan(await helpers.accessToken(ben))).plan_type).toBe("free");
  // The payment was Ana's: her plan follows Stripe (the webhook), not the visitor's success page.
  await expect.poll(async () => (await helpers.plan(anaToken)).plan_type, { message: "Ana's plan" }).toBe("monthly");
});
