// A `/pricing?promo=CODE` link: the code survives sign-up, the verification mail and sign-in, and
// Stripe's checkout page shows it applied before the visitor pays.

import { CARD_OK, expect, PASSWORD, payOnCheckoutPage, test, uniqueEmail } from "../support/fixtures";

test("a promotion link leads through sign-up to a discounted checkout and the success page", async ({ page, helpers }) => {
  const auth = { Authorization: "Bearer sk_test_closewise_local" };
  const mock = helpers.stack.mockUrl;
  const coupon = await page.request.post(`${mock}/v1/coupons`, {
    headers: auth,
    form: { percent_off: "20", duration: "repeating", duration_in_months: "3" },
  });
  expect(coupon.status(), await coupon.text()).toBe(200);
  const code = `E2E${Date.now().toString(36).toUpperCase()}`;
  const promo = await page.request.post(`${mock}/v1/promotion_codes`, {
    headers: auth,
    form: { "promotion[type]": "coupon", "promotion[coupon]": ((await coupon.json()) as { id: string }).id, code },
  });
  expect(promo.status(), await promo.text()).toBe(200);

  const email = uniqueEmail("promo");
  await page.goto(`/pricing?promo=${code}`);
  await page.getByRole("article", { name: "Unlimited Sales Copilot" }).getByRole("link", { name: "Sign In Required" }).click();
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirm password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByRole("heading", { name: "Check Your Email", level: 1 })).toBeVisible();

  await page.goto(await helpers.mailLink(email));
  await page.getByRole("link", { name: "Go to Sign In" }).click();
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();

  await expect(page).toHaveURL(new RegExp(`^${mock}/c/pay/cs_`));
  await expect(page.getByRole("status")).toHaveText(`Promotion code ${code} applied: −$4.00`);
  await expect(page.getByText("Total due today: $16.00")).toBeVisible();
  await payOnCheckoutPage(page, CARD_OK);
  await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible();
});
