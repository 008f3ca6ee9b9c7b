// Yearly billing in the browser: the paid card's switch carries the yearly price through Stripe's
// checkout page to the success page, and the dashboard says the subscription renews yearly. The switch
// and the button work whatever moment the visitor clicks: before the pricing island has loaded (its code
// held back here) they are links, after it the switch changes the card in place.

import type { Page } from "@playwright/test";
import { CARD_OK, expect, payOnCheckoutPage, signInToDashboard, test } from "../support/fixtures";

/** Holds the pricing island's code back until the returned function is called. */
async function holdPricingIsland(page: Page): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/islands\/pricing-[^/]+\.js$/, async (route) => {
    await held;
    await route.continue().catch(() => {}); // the page that asked may be gone
  });
  return release;
}

test("the Yearly switch on /pricing checks out the yearly price and ends on the success page", async ({ page, helpers }) => {
  const email = await helpers.verifiedUser("yearly");
  await signInToDashboard(page, email);
  await holdPricingIsland(page); // never released: every click below lands before the island
  await page.goto("/pricing");
  const paid = page.getByRole("article", { name: "Unlimited Sales Copilot" });
  await paid.getByRole("radio", { name: "Yearly" }).click();
  await expect(page).toHaveURL(/\/pricing\?interval=year#pricing$/);
  await expect(paid.getByRole("radio", { name: "Yearly" })).toHaveAttribute("aria-checked", "true");
  await expect(paid.getByText("/year — 2 months free")).toBeVisible();
  // The prerendered button is the link to sign-up with the intent; signed in, sign-up passes it on.
  await paid.getByRole("link", { name: "Sign In Required" }).click();

  await expect(page).toHaveURL(new RegExp(`^${helpers.stack.mockUrl}/c/pay/cs_`));
  await expect(page.getByText("$200.00 per year")).toBeVisible();
  await payOnCheckoutPage(page, CARD_OK);
  await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible();

  const token = await helpers.accessToken(email);
  await helpers.waitForSubscription(token, "the yearly price", (s) => s?.price_id === "price_closewise_yearly");
  await page.goto("/dashboard");
  await expect(page.getByText("Renews yearly on")).toBeVisible();
});

test("once the pricing island is live, the switch changes the card in place and the button checks out the choice", async ({
  page,
  helpers,
}) => {
  const email = await helpers.verifiedUser("yearly-live");
  await signInToDashboard(page, email);
  const release = await holdPricingIsland(page);
  await page.goto("/pricing?utm_source=e2e");
  const paid = page.getByRole("article", { name: "Unlimited Sales Copilot" });
  await expect(paid.getByRole("link", { name: "Sign In Required" })).toBeVisible();
  release();
  await expect(paid.getByRole("button", { name: "Start Subscription" })).toBeEnabled();

  // No page load: what the page holds survives the clicks.
  await page.evaluate(() => ((window as unknown as { samePage: boolean }).samePage = true));
  await paid.getByRole("radio", { name: "Yearly" }).click();
  await expect(paid.getByText("/year — 2 months free")).toBeVisible();
  await expect(page).toHaveURL(/\/pricing\?utm_source=e2e&interval=year$/);
  await paid.getByRole("radio", { name: "Monthly" }).click();
  await expect(paid.getByText("/month", { exact: true })).toBeVisible();
  await paid.getByRole("radio", { name: "Yearly" }).click();
  await expect(paid.getByRole("radio", { name: "Yearly" })).toHaveAttribute("aria-checked", "true");
  expect(await page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage)).toBe(true);

  await paid.getByRole("button", { name: "Start Subscription" }).click();
  await expect(page).toHaveURL(new RegExp(`^${helpers.stack.mockUrl}/c/pay/cs_`));
  await expect(page.getByText("$200.00 per year")).toBeVisible();
});
