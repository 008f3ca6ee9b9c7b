// A team's free trial ("Try it with your team free for 14 days": the card on stripe-mock's page, the
// team page "Trial — ends on …", the owner's mail three days before, paid at its end) and seats paid
// by invoice (one paid on its hosted page after 20 days, another left overdue: past due). Both move
// stripe-mock's clock, so this file gets a stack of its own.

import type { Page } from "@playwright/test";
import { CARD_OK, expect, longDate, signIn, test, toast, type Helpers } from "../support/fixtures";

test.use({ stackName: "team-trial-invoice" });

const DAY = 86_400;

interface TeamAnswer {
  team: { subscription: { status: string; trial_end: number | null; current_period_end: number | null } | null } | null;
}

interface SentInvoices {
  data: { invoice: string; to: string; hosted_invoice_url: string; due_date: number; status: string }[];
}

/** Signs a new owner in, creates their team on /team and opens Seats & billing; answers the owner's address and token. */
async function ownerWithTeam(page: Page, helpers: Helpers, name: string) {
  const owner = await helpers.verifiedUser("owner");
  await signIn(page, owner);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/team");
  await page.getByLabel("Team name").fill(name);
  await page.getByRole("button", { name: "Create team" }).click();
  await expect(page.getByRole("heading", { name, level: 2 })).toBeVisible();
  await page.getByRole("navigation", { name: "Team sections" }).getByRole("link", { name: "Seats & billing" }).click();
  return { owner, token: await helpers.accessToken(owner) };
}

async function teamStatus(helpers: Helpers, token: string) {
  return (await helpers.getJson<TeamAnswer>("/api/team", token)).team?.subscription?.status;
}

async function sentInvoices(helpers: Helpers): Promise<SentInvoices> {
  const res = await helpers.api.get(`${helpers.stack.mockUrl}/_mock/sent_invoices`);
  expect(res.ok()).toBeTruthy();
  return (await res.json()) as SentInvoices;
}

test("a team trial: the card up front, 'Trial — ends on …', the owner told three days before, paid at its end", async ({ page, helpers }) => {
  test.setTimeout(120_000);
  const { owner, token } = await ownerWithTeam(page, helpers, "Trial Sales");

  await page.getByLabel("Seats", { exact: true }).fill("3");
  await page.getByRole("button", { name: "Try it with your team free for 14 days" }).click();
  await expect(page).toHaveURL(new RegExp(`^${helpers.stack.mockUrl}/c/pay/cs_`));
  await expect(page.getByText("14 days free")).toBeVisible();
  await expect(page.getByText("Total due today: $0.00")).toBeVisible();
  await page.getByLabel("Card number").fill(CARD_OK);
  await page.getByLabel("Expiration").fill("12 / 34");
  await page.getByLabel("CVC").fill("123");
  await page.getByLabel("Name on card").fill("Ana Tester");
  await page.getByLabel("Address line 1").fill("1 Example Street");
  await page.getByLabel("City").fill("Berlin");
  await page.getByLabel("Postal code").fill("10115");
  await page.getByLabel("Country (two-letter code)").fill("DE");
  await page.getByRole("button", { name: "Start trial" }).click();
  await expect(page).toHaveURL(/\/team/);
  await expect.poll(() => teamStatus(helpers, token), { message: "the team's trial" }).toBe("trialing");
  const trialEnd = (await helpers.getJson<TeamAnswer>("/api/team", token)).team!.subscription!.trial_end!;
  await page.goto("/team");
  await expect(page.getByText(`Trial — ends on ${longDate(trialEnd)}`)).toBeVisible();
  await expect(page.getByRole("button", { name: "Try it with your team free for 14 days" })).toHaveCount(0);

  // Three days before the end, the owner is told.
  await helpers.advanceMockClock(trialEnd - (await helpers.mockNow()) - 3 * DAY + 60);
  await expect
    .poll(async () => (await helpers.mails(owner)).map((m) => m.subject), { message: "the trial mail" })
    .toContain(`The free trial of Trial Sales ends on ${longDate(trialEnd)}`);

  // At its end the card is charged: the team is active.
  await helpers.advanceMockClock(3 * DAY);
  await expect.poll(() => teamStatus(helpers, token), { message: "the first charge" }).toBe("active");
  await page.goto("/team");
  await expect(page.getByText("Active", { exact: true })).toBeVisible();
});

test("seats paid by invoice: one paid on its page after 20 days, another left overdue is past due", async ({ page, browser, helpers, baseURL }) => {
  test.setTimeout(120_000);
  const { owner, token } = await ownerWithTeam(page, helpers, "Invoice Sales");
  await page.getByLabel("Yearly").check();
  await page.getByLabel("Seats", { exact: true }).fill("12");
  await page.getByRole("button", { name: "Pay by invoice" }).click();
  await expect(toast(page, /12 seats are active\. The invoice was sent; it is due on /)).toBeVisible();
  await expect.poll(() => teamStatus(helpers, token), { message: "the seats at once" }).toBe("active");
  const sent = (await sentInvoices(helpers)).data.find((m) => m.to === owner)!;
  expect(sent.status).toBe("open");

  // A second team buys by invoice too (through the API) and never pays.
  const late = await browser.newContext({ baseURL, timezoneId: "UTC", locale: "en-US" });
  const latePage = await late.newPage();
  const other = await ownerWithTeam(latePage, helpers, "Late Sales");
  const bought = await helpers.postJson<{ seats_active: boolean }>("/api/team/checkout", other.token, {
    seats: 10,
    interval: "year",
    collection: "invoice",
  });
  expect(bought.status, JSON.stringify(bought.body)).toBe(200);
  expect(bought.body.seats_active).toBe(true);

  // Twenty days later the first is paid on its hosted page.
  await helpers.advanceMockClock(20 * DAY);
  await page.goto(sent.hosted_invoice_url);
  await expect(page.getByText(`Due ${longDate(sent.due_date)}`)).toBeVisible();
  await page.getByLabel("Card number").fill(CARD_OK);
  await page.getByLabel("Expiration").fill("12 / 34");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: "Pay $2400.00" }).click();
  await expect(page.getByText("Paid ·", { exact: false })).toBeVisible();

  // Past the due date: the unpaid one is past due, the paid one stays active.
  await helpers.advanceMockClock(11 * DAY);
  await expect.poll(() => teamStatus(helpers, other.token), { message: "the overdue invoice" }).toBe("past_due");
  expect(await teamStatus(helpers, token)).toBe("active");
  await latePage.goto("/team");
  await expect(latePage.getByText("The team's last payment failed.")).toBeVisible();
  await late.close();
});

test("a trial whose first charge is declined: past due with the banner and the mail, retried, recovered by a card updated in the portal", async ({
  page,
  helpers,
}) => {
  test.setTimeout(120_000);
  const { owner, token } = await ownerWithTeam(page, helpers, "Trial Declined");

  await page.getByLabel("Seats", { exact: true }).fill("2");
  await page.getByRole("button", { name: "Try it with your team free for 14 days" }).click();
  await expect(page).toHaveURL(new RegExp(`^${helpers.stack.mockUrl}/c/pay/cs_`));
  // 4000 0000 0000 0341 attaches and then fails every charge: the trial starts, its first charge fails.
  await page.getByLabel("Card number").fill("4000 0000 0000 0341");
  await page.getByLabel("Expiration").fill("12 / 34");
  await page.getByLabel("CVC").fill("123");
  await page.getByLabel("Name on card").fill("Ana Tester");
  await page.getByLabel("Address line 1").fill("1 Example Street");
  await page.getByLabel("City").fill("Berlin");
  await page.getByLabel("Postal code").fill("10115");
  await page.getByLabel("Country (two-letter code)").fill("DE");
  await page.getByRole("button", { name: "Start trial" }).click();
  await expect(page).toHaveURL(/\/team/);
  await expect.poll(() => teamStatus(helpers, token), { message: "the team's trial" }).toBe("trialing");
  const trialEnd = (await helpers.getJson<TeamAnswer>("/api/team", token)).team!.subscription!.trial_end!;

  // The trial ends: the first charge is declined, the team is past due and the owner is mailed.
  await helpers.advanceMockClock(trialEnd - (await helpers.mockNow()) + 3600);
  await expect.poll(() => teamStatus(helpers, token), { message: "the first charge declined" }).toBe("past_due");
  await expect
    .poll(async () => (await helpers.mails(owner)).map((m) => m.subject), { message: "the failed payment's mail" })
    .toContain("Trial Declined: the payment for Closewise failed");
  await page.goto("/team");
  await expect(page.getByText("The team's last payment failed.")).toBeVisible();
  await expect(page.getByText(/We'll try the card again on/)).toBeVisible();

  // Stripe's first retry fails too; a good card set in the portal pays at once.
  await helpers.advanceMockClock(DAY + 3600);
  await expect
    .poll(async () => (await helpers.mails(owner)).filter((m) => m.subject === "Trial Declined: the payment for Closewise failed").length, {
      message: "the retry's mail",
    })
    .toBeGreaterThanOrEqual(2);
  await page.goto("/team");
  await page.getByRole("button", { name: "Update card" }).click();
  await expect(page).toHaveURL(new RegExp(`^${helpers.stack.mockUrl}/p/session/`));
  await page.getByLabel("Card number").fill(CARD_OK);
  await page.getByLabel("Expiration").fill("12 / 34");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: "Update card" }).click();
  await expect(page).toHaveURL(/done=card/);
  await expect.poll(() => teamStatus(helpers, token), { message: "recovered" }).toBe("active");
  await page.goto("/team");
  await expect(page.getByText("The team's last payment failed.")).toHaveCount(0);
});
