// Failed payments on stripe-mock's clock: a renewal declined (4000 0000 0000 0341) is retried by
// Stripe, mailed with a link that opens the billing portal, and recovered by a card updated there;
// and retries exhausted end the plan with a mail. Moving the clock moves it for every subscription
// of that stripe-mock, so this file gets a stack of its own.

import type { Page } from "@playwright/test";
import {
  expect,
  type Helpers,
  type Mail,
  signInToDashboard,
  subscribe,
  test,
} from "../support/fixtures";

test.use({ stackName: "dunning" });

const CARD_FAILS_LATER = "4000 0000 0000 0341";
const DAY = 86_400;

interface Dunning {
  subscription_status: string;
  past_due_since: number | null;
  attempt_count: number | null;
  next_payment_attempt: number | null;
}

/** Sets a card on the billing portal page the browser is on. */
async function portalCard(page: Page, card: string) {
  await expect(
    page.getByRole("heading", { name: "Billing", level: 1 }),
  ).toBeVisible();
  await page.getByLabel("Card number").fill(card);
  await page.getByLabel("Expiration").fill("12 / 34");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: "Update card" }).click();
  await expect(page).toHaveURL(/done=card/);
}

/** A subscribed user whose card fails every charge, at the first failed renewal. */
async function failingRenewal(page: Page, helpers: Helpers, label: string) {
  const email = await helpers.verifiedUser(label);
  await signInToDashboard(page, email);
  await subscribe(page);
  const token = await helpers.accessToken(email);
  const sub = (await helpers.waitForSubscription(
    token,
    "an active subscription",
    (s) => s?.subscription_status === "active",
  ))!;
  await page.goto("/dashboard");
  await page
    .getByRole("region", { name: "Subscription Management" })
    .getByRole("button", { name: "Manage Billing" })
    .click();
  await expect(page).toHaveURL(
    new RegExp(`^${helpers.stack.mockUrl}/p/session/`),
  );
  await portalCard(page, CARD_FAILS_LATER);
  await helpers.advanceMockClock(
    sub.current_period_end - (await helpers.mockNow()) + 3600,
  );
  const failed = (await helpers.waitForSubscription(
    token,
    "the renewal failed",
    (s) => (s as unknown as Dunning | null)?.attempt_count === 1,
  )) as unknown as Dunning;
  expect(failed.subscription_status).toBe("past_due");
  return { email, token, failed };
}

async function mailWithSubject(
  helpers: Helpers,
  to: string,
  subject: string,
  count = 1,
): Promise<Mail> {
  await expect
    .poll(
      async () =>
        (await helpers.mails(to)).filter((m) => m.subject === subject).length,
      { message: `${count} × "${subject}"` },
    )
    .toBeGreaterThanOrEqual(count);
  return (await helpers.mails(to)).find((m) => m.subject === subject)!;
}

test("a declined renewal is retried, the mail's link opens the portal, and the card updated there recovers it", async ({
  page,
  helpers,
}) => {
  const { email, token, failed } = await failingRenewal(
    page,
    helpers,
    "dunning-recovered",
  );
  expect(failed.next_payment_attempt).toBe(failed.past_due_since! + DAY);
  await mailWithSubject(helpers, email, "Your Closewise payment failed");

  // Pro stays, with the banner and Stripe's next try.
  await page.goto("/dashboard");
  await expect(page.getByText("Pro Plan")).toBeVisible();
  await expect(
    page.getByText("Your last payment failed.", { exact: false }),
  ).toBeVisible();
  await expect(page.getByText(/We'll try the card again on/)).toBeVisible();

  // The day-1 retry fails too: a second mail.
  await helpers.advanceMockClock(DAY + 3600);
  await helpers.waitForSubscription(
    token,
    "the first retry failed",
    (s) => (s as unknown as Dunning | null)?.attempt_count === 2,
  );
  const mail = await mailWithSubject(
    helpers,
    email,
    "Your Closewise payment failed",
    2,
  );
  const link = mail.text.match(/Update the card: (\S+)/)?.[1];
  expect(link, mail.text).toMatch(/\/dashboard#update-card$/);

  // The mail's link, signed in, opens the billing portal; a good card pays at once.
  await page.goto(new URL(link!).pathname + "#update-card");
  await expect(page).toHaveURL(
    new RegExp(`^${helpers.stack.mockUrl}/p/session/`),
  );
  await portalCard(page, "4242 4242 4242 4242");
  await helpers.waitForSubscription(
    token,
    "paid again",
    (s) =>
      s?.subscription_status === "active" &&
      (s as unknown as Dunning).past_due_since === null,
  );
  const receipt = await mailWithSubject(
    helpers,
    email,
    "Your Closewise payment went through",
  );
  expect(receipt.text).toContain("20.00 USD paid on");
  await page.getByRole("link", { name: "Return to Closewise" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText("Pro Plan")).toBeVisible();
  await expect(
    page.getByText("Your last payment failed.", { exact: false }),
  ).toHaveCount(0);
});

test("retries exhausted end the plan, with a mail saying how to come back", async ({
  page,
  helpers,
}) => {
  const { email, token } = await failingRenewal(
    page,
    helpers,
    "dunning-exhausted",
  );
  await helpers.advanceMockClock(8 * DAY);
  await expect
    .poll(async () => (await helpers.plan(token)).plan_type, {
      message: "the plan is free again",
    })
    .toBe("free");
  const ended = await mailWithSubject(
    helpers,
    email,
    "Your Closewise Pro plan has ended",
  );
  expect(ended.text).toContain(
    "upgrade to Closewise Pro again from your dashboard",
  );
  await page.goto("/dashboard");
  await expect(
    page.getByText("Free Trial", { exact: true }).first(),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: "Upgrade Now" })).toBeVisible();
});
