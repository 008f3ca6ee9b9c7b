// The team flow, end to end in Chromium against the real API and stripe-mock: an owner signs up,
// creates a team, buys 3 seats on stripe-mock's checkout page and invites two reps; one signs up
// from the invitation mail and accepts, the other signs in and accepts; both are on Unlimited Sales Copilot through the
// team; the owner removes one, who is back on the Free Trial; seats go from 3 to 2 and the next
// invoice carries the prorated credit.

import AxeBuilder from "@axe-core/playwright";
import type { Browser, Page } from "@playwright/test";
import { CARD_OK, expect, PASSWORD, payOnCheckoutPage, signIn, test, uniqueEmail, type Helpers } from "../support/fixtures";

const TEAM = "Northwind Sales";

test.use({ reducedMotion: "reduce" });

/** axe at rest, as a11y.spec does: no serious or critical violations. */
async function expectAccessible(page: Page, label: string) {
  await expect(page.locator('[aria-busy="true"]'), `${label}: still loading`).toHaveCount(0);
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`), label).toEqual([]);
}

interface TeamBody {
  team: {
    id: string;
    seats: { total: number; used: number; free: number };
    subscription: { status: string } | null;
    members: { email: string; role: string }[];
  } | null;
}

interface Entitlements {
  unlimited: boolean;
  source: "personal" | "team" | null;
  team: { id: string; name: string } | null;
}

interface InvoiceLine {
  amount: number;
  quantity: number;
  description: string;
  parent: { subscription_item_details: { proration: boolean } | null } | null;
}

/** A stripe-mock request with the local secret key, as the API makes them. */
async function stripe<T>(helpers: Helpers, method: "GET" | "POST", path: string, form?: Record<string, string>): Promise<T> {
  const res = await helpers.api.fetch(`${helpers.stack.mockUrl}${path}`, {
    method,
    headers: { Authorization: "Bearer sk_test_closewise_local" },
    form,
  });
  expect(res.ok(), `${method} ${path}: ${await res.text()}`).toBeTruthy();
  return (await res.json()) as T;
}

async function newPage(browser: Browser, baseURL: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, timezoneId: "UTC", locale: "en-US" });
  return context.newPage();
}

async function expectDashboardPlan(page: Page, paidThroughTeam: boolean) {
  await page.goto("/dashboard");
  await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
  if (paidThroughTeam) {
    await expect(page.getByText(`Unlimited Sales Copilot through ${TEAM}`)).toBeVisible();
  } else {
    await expect(page.getByText("Free Trial", { exact: true }).first()).toBeVisible();
    await expect(page.getByText(`Unlimited Sales Copilot through ${TEAM}`)).toHaveCount(0);
  }
}

test("an owner buys 3 seats, two reps join by invitation, one is removed and seats go to 2 with a prorated credit", async ({ page, browser, helpers, baseURL }) => {
  test.setTimeout(240_000);

  // The owner signs up (through the API: the form is flow 1's) and creates the team from the dashboard.
  const owner = await helpers.verifiedUser("owner");
  await signIn(page, owner);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByRole("link", { name: "Create a team" }).click();
  await expect(page).toHaveURL(/\/team$/);
  await page.getByLabel("Team name").fill(TEAM);
  await page.getByRole("button", { name: "Create team" }).click();
  await expect(page.getByRole("heading", { name: TEAM, level: 2 })).toBeVisible();

  // Three seats (under Seats & billing) on stripe-mock's hosted checkout page, back on /team with the team paid.
  await page.getByRole("navigation", { name: "Team sections" }).getByRole("link", { name: "Seats & billing" }).click();
  await expect(page).toHaveURL(/\/team\/billing$/);
  await page.getByLabel("Seats", { exact: true }).fill("3");
  await page.getByRole("button", { name: "Buy seats" }).click();
  await expect(page).toHaveURL(new RegExp(`^${helpers.stack.mockUrl}/c/pay/cs_`));
  await payOnCheckoutPage(page, CARD_OK);
  await expect(page).toHaveURL(/\/team/);
  const ownerToken = await helpers.accessToken(owner);
  await expect
    .poll(async () => (await helpers.getJson<TeamBody>("/api/team", ownerToken)).team?.subscription?.status, { message: "the team's subscription" })
    .toBe("active");
  const paid = (await helpers.getJson<TeamBody>("/api/team", ownerToken)).team!;
  expect(paid.seats.total).toBe(3);
  await expect(page.getByText("1 of 3 used")).toBeVisible();

  // Two invitations: Rita has no account yet, Sam has one.
  const rita = uniqueEmail("rita");
  const sam = await helpers.verifiedUser("sam");
  for (const email of [rita, sam]) {
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByRole("button", { name: "Send invitation", exact: true }).click();
    await expect(page.getByRole("list", { name: "Pending invitations" }).getByText(email)).toBeVisible();
  }
  await expect(page.getByText("3 of 3 used")).toBeVisible();
  await expectAccessible(page, "/team, the owner's view with invitations");

  // Rita follows the mail's link signed out, creates her account with the address pre-filled,
  // verifies it from the next mail, signs in and lands back on the invitation.
  const ritaLink = await helpers.mailLink(rita);
  expect(ritaLink).toMatch(/^\/invite\?token=/);
  const ritaPage = await newPage(browser, baseURL!);
  await ritaPage.goto(ritaLink);
  await expect(ritaPage.getByText(TEAM).first()).toBeVisible();
  await expectAccessible(ritaPage, "/invite signed out");
  await ritaPage.getByRole("link", { name: "Create account" }).click();
  await expect(ritaPage).toHaveURL(/\/signup/);
  await expect(ritaPage.getByLabel("Email", { exact: true })).toHaveValue(rita);
  await ritaPage.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await ritaPage.getByLabel("Confirm password", { exact: true }).fill(PASSWORD);
  await ritaPage.getByRole("button", { name: "Create Account" }).click();
  await expect(ritaPage.getByRole("heading", { name: "Check Your Email", level: 1 })).toBeVisible();
  await ritaPage.goto(await helpers.mailLink(rita, 2));
  await expect(ritaPage.getByRole("heading", { name: "Email verified", level: 1 })).toBeVisible();
  await ritaPage.getByRole("link", { name: "Go to Sign In" }).click();
  await expect(ritaPage).toHaveURL(/\/signin/);
  await ritaPage.getByLabel("Email", { exact: true }).fill(rita);
  await ritaPage.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await ritaPage.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(ritaPage).toHaveURL(/\/invite\?token=/);
  await ritaPage.getByRole("button", { name: "Accept" }).click();
  await expect(ritaPage).toHaveURL(/\/team/);
  await expect(ritaPage.getByRole("heading", { name: TEAM, level: 2 })).toBeVisible();

  // Sam signs in first, then opens the mail's link and accepts.
  const samPage = await newPage(browser, baseURL!);
  await signIn(samPage, sam);
  await expect(samPage).toHaveURL(/\/dashboard$/);
  await samPage.goto(await helpers.mailLink(sam, 2));
  await samPage.getByRole("button", { name: "Accept" }).click();
  await expect(samPage).toHaveURL(/\/team/);

  // Both are on Unlimited Sales Copilot through the team, on the dashboard and for the desktop app.
  await expectDashboardPlan(ritaPage, true);
  await expectDashboardPlan(samPage, true);
  const samToken = await helpers.accessToken(sam);
  const samPaid = await helpers.getJson<Entitlements>("/api/entitlements", samToken);
  expect(samPaid).toMatchObject({ unlimited: true, source: "team", team: { name: TEAM } });

  // The owner removes Sam: every session of Sam's ends at once (the browser's and the app's token);
  // signed in again, Sam is back on the Free Trial.
  await page.goto("/team");
  const members = page.getByRole("table", { name: `Members of ${TEAM}` });
  await expect(members.getByText(rita)).toBeVisible();
  await expect(members.getByText(sam)).toBeVisible();
  await page.getByRole("button", { name: `Remove ${sam}` }).click();
  await page.getByRole("dialog", { name: `Remove ${sam}?` }).getByRole("button", { name: "Remove" }).click();
  await expect(members.getByText(sam)).toHaveCount(0);
  const ended = await helpers.api.get("/api/entitlements", { headers: { Authorization: `Bearer ${samToken}` } });
  expect(ended.status(), "the removal ended the app's session").toBe(401);
  await samPage.goto("/dashboard");
  await expect(samPage).toHaveURL(/\/signin/);
  await signIn(samPage, sam);
  await expect(samPage).toHaveURL(/\/dashboard$/);
  await expectDashboardPlan(samPage, false);
  const samAgain = await helpers.accessToken(sam);
  expect(await helpers.getJson<Entitlements>("/api/entitlements", samAgain)).toMatchObject({ unlimited: false, source: null });
  await expectDashboardPlan(ritaPage, true);

  // Seats 3 → 2: the preview shows the credit, the change is confirmed, Stripe's item has quantity 2
  // and the next invoice carries a prorated credit line.
  await page.goto("/team/billing");
  await page.getByRole("button", { name: "Change seats" }).click();
  const dialog = page.getByRole("dialog", { name: "Change seats" });
  await dialog.getByLabel("Seats", { exact: true }).fill("2");
  await dialog.getByRole("button", { name: "Preview" }).click();
  await expect(dialog.getByText(/-\$|credit/i).first()).toBeVisible();
  await dialog.getByRole("button", { name: "Confirm 2 seats" }).click();
  await expect(page.getByText("2 of 2 used")).toBeVisible();
  expect((await helpers.getJson<TeamBody>("/api/team", ownerToken)).team!.seats.total).toBe(2);

  const subscriptions = await stripe<{ data: { id: string; metadata: Record<string, string>; items: { data: { quantity: number }[] } }[] }>(
    helpers,
    "GET",
    "/v1/subscriptions?limit=100",
  );
  const subscription = subscriptions.data.find((s) => s.metadata.team_id === paid.id);
  expect(subscription, "the team's subscription on stripe-mock").toBeTruthy();
  expect(subscription!.items.data[0].quantity).toBe(2);
  const next = await stripe<{ lines: { data: InvoiceLine[] } }>(helpers, "POST", "/v1/invoices/create_preview", { subscription: subscription!.id });
  const prorations = next.lines.data.filter((l) => l.parent?.subscription_item_details?.proration);
  expect(prorations.length, JSON.stringify(next.lines.data)).toBeGreaterThan(0);
  expect(prorations.some((l) => l.amount < 0), "a credit for the seat given back").toBe(true);

  // The owner manages the team's billing in the portal of the team's own customer, back to /team.
  await page.goto("/team/billing");
  await page.getByRole("button", { name: "Manage Billing" }).click();
  await expect(page).toHaveURL(new RegExp(`^${helpers.stack.mockUrl}/p/session/`));
  await expect(page.getByRole("heading", { name: "Billing", level: 1 })).toBeVisible();
  await page.getByRole("link", { name: "Return to Closewise" }).click();
  await expect(page).toHaveURL(/\/team$/);
  await expect(page.getByText("2 of 2 used")).toBeVisible();
});
