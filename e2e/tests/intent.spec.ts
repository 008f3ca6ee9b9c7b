// A signed-out visitor's intent (the paid plan's checkout) survives sign-up, the
// verification mail and sign-in, against the real API; and a signed-in visitor is not shown /signup.

import { CARD_OK, expect, PASSWORD, payOnCheckoutPage, test, uniqueEmail } from "../support/fixtures";

test("the paid plan's button, signed out, leads through sign-up, verification and sign-in back to that checkout", async ({
  page,
  helpers,
}) => {
  const email = uniqueEmail("intent");
  const intent = encodeURIComponent("/pricing?checkout=price_closewise_monthly");

  await page.goto("/pricing");
  const paid = page.getByRole("article", { name: "Unlimited Sales Copilot" });
  await paid.getByRole("link", { name: "Sign In Required" }).click();
  await expect(page).toHaveURL(new RegExp(`/signup\\?next=${intent}$`));

  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirm password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByRole("heading", { name: "Check Your Email", level: 1 })).toBeVisible();

  // Resend in place, then the once-a-minute limit as a countdown.
  await page.getByRole("button", { name: "Resend verification email" }).click();
  await expect(page.getByText("Verification email sent! Check your inbox.")).toBeVisible();
  await expect(page.getByRole("button", { name: /^Resend verification email in \d+s$/ })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Try again" })).toBeVisible();

  const link = await helpers.mailLink(email);
  expect(link).toMatch(new RegExp(`^/verify\\?token=[^&]+&next=${intent}$`));
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Email verified", level: 1 })).toBeVisible();
  await page.getByRole("link", { name: "Go to Sign In" }).click();
  await expect(page).toHaveURL(new RegExp(`/signin\\?next=${intent}$`));

  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();

  // Back on pricing with the intent: the checkout starts by itself.
  await expect(page).toHaveURL(new RegExp(`^${helpers.stack.mockUrl}/c/pay/cs_`));
  await expect(page.getByRole("heading", { name: "Subscribe to Unlimited Sales Copilot" })).toBeVisible();
  await payOnCheckoutPage(page, CARD_OK);
  await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible();

  // Signed in now: /signup is not for them.
  await page.goto("/signup");
  await expect(page).toHaveURL(/\/dashboard$/);
});
