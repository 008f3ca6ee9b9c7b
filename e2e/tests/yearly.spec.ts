// Yearly billing in the browser: the paid card's switch carries the yearly price through Stripe's
// checkout page to the success page, and the dashboard says the subscription renews yearly.

import { CARD_OK, expect, payOnCheckoutPage, signInToDashboard, test } from "../support/fixtures";

test("the Yearly switch on /pricing checks out the yearly price and ends on the success page", async ({ page, helpers }) => {
  const email = await helpers.verifiedUser("yearly");
  await signInToDashboard(page, email);
  await page.goto("/pricing");
  const paid = page.getByRole("article", { name: "Unlimited Sales Copilot" });
  await paid.getByRole("radio", { name: "Yearly" }).click();
  await expect(paid.getByText("/year — 2 months free")).toBeVisible();
  await paid.getByRole("button", { name: "Start Subscription" }).click();

  await expect(page).toHaveURL(new RegExp(`^${helpers.stack.mockUrl}/c/pay/cs_`));
  await expect(page.getByText("$200.00 per year")).toBeVisible();
  await payOnCheckoutPage(page, CARD_OK);
  await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible();

  const token = await helpers.accessToken(email);
  await helpers.waitForSubscription(token, "the yearly price", (s) => s?.price_id === "price_closewise_yearly");
  await page.goto("/dashboard");
  await expect(page.getByText("Renews yearly on")).toBeVisible();
});
