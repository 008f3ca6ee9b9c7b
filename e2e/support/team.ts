//! A paid team and its people for the admin specs (policy.spec, usage.spec): the owner creates the
//! team and buys seats in Chromium on stripe-mock's checkout page (teams.spec covers those screens
//! in detail), members join by invitation through the API, and a member's desktop app signs in with
//! a device code approved through the API the /activate page uses (desktop.spec covers that page).

import type { Browser, Page } from "@playwright/test";
import { Desktop } from "./desktop";
import { CARD_OK, expect, payOnCheckoutPage, signIn, type Helpers } from "./fixtures";

export interface TeamBody {
  team: {
    id: string;
    seats: { total: number; used: number; free: number };
    subscription: { status: string } | null;
    members: { user_id: string; email: string; role: string }[];
  } | null;
}

/** A new browser context of its own (another person's browser). */
export async function newPage(browser: Browser, baseURL: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, timezoneId: "UTC", locale: "en-US" });
  return context.newPage();
}

/**
 * Signs the owner in on `page`, creates the team on /team and buys `seats` on stripe-mock's checkout
 * page; waits until the API sees the subscription active. Answers the owner's address and token.
 */
export async function paidTeam(
  page: Page,
  helpers: Helpers,
  name: string,
  seats: number,
): Promise<{ owner: string; ownerToken: string }> {
  const owner = await helpers.verifiedUser("owner");
  await signIn(page, owner);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/team");
  await page.getByLabel("Team name").fill(name);
  await page.getByRole("button", { name: "Create team" }).click();
  await expect(page.getByRole("heading", { name, level: 2 })).toBeVisible();
  await page.getByRole("navigation", { name: "Team sections" }).getByRole("link", { name: "Seats & billing" }).click();
  await page.getByLabel("Seats", { exact: true }).fill(String(seats));
  await page.getByRole("button", { name: "Buy seats" }).click();
  await payOnCheckoutPage(page, CARD_OK);
  await expect(page).toHaveURL(/\/team/);
  const ownerToken = await helpers.accessToken(owner);
  await expect
    .poll(async () => (await helpers.getJson<TeamBody>("/api/team", ownerToken)).team?.subscription?.status, {
      message: "the team's subscription",
    })
    .toBe("active");
  return { owner, ownerToken };
}

/** A verified account invited with `role` and accepted through the API; answers its address. */
export async function addMember(helpers: Helpers, ownerToken: string, label: string, role: "member" | "admin"): Promise<string> {
  const email = await helpers.verifiedUser(label);
  const invited = await helpers.postJson("/api/team/invites", ownerToken, { email, role });
  expect(invited.status, JSON.stringify(invited.body)).toBe(202);
  // The first mail verified the account; the second is the invitation.
  const token = new URL(await helpers.mailLink(email, 2), helpers.stack.baseUrl).searchParams.get("token");
  const accepted = await helpers.postJson("/api/team/invites/accept", await helpers.accessToken(email), { token });
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  return email;
}

/**
 * `closewise-desktop login --device` for `email`: the code it prints is approved with the member's
 * own token (`POST /api/auth/device/approve`, as /activate does). The caller removes the Desktop.
 */
export async function signedInDesktop(helpers: Helpers, email: string, deviceName: string): Promise<Desktop> {
  const desktop = new Desktop(helpers.stack.baseUrl);
  const login = desktop.start(["login", "--device", "--device-name", deviceName]);
  const code = await login.line(/^Code: ([B-Z]{4}-[B-Z]{4})$/);
  const approved = await helpers.postJson("/api/auth/device/approve", await helpers.accessToken(email), { user_code: code });
  expect(approved.status, JSON.stringify(approved.body)).toBe(200);
  const result = await login.exited;
  expect(result.status, result.stdout + result.stderr).toBe(0);
  expect(result.stdout).toContain(email);
  return desktop;
}

/** The id `call start` printed ("Call started: <id>"). */
export function startedCallId(stdout: string): string {
  const id = stdout.match(/^Call started: (\S+)$/m)?.[1];
  expect(id, stdout).toBeTruthy();
  return id!;
}

/** A stripe-mock request with the local secret key, as the API makes them. */
export async function stripe<T>(
  helpers: Helpers,
  method: "GET" | "POST",
  path: string,
  form?: Record<string, string>,
): Promise<T> {
  const res = await helpers.api.fetch(`${helpers.stack.mockUrl}${path}`, {
    method,
    headers: { Authorization: "Bearer sk_test_closewise_local" },
    form,
  });
  expect(res.ok(), `${method} ${path}: ${await res.text()}`).toBeTruthy();
  return (await res.json()) as T;
}

/** The seat quantity of the team's subscription on stripe-mock. */
export async function stripeSeats(helpers: Helpers, teamId: string): Promise<number | undefined> {
  const subscriptions = await stripe<{ data: { metadata: Record<string, string>; items: { data: { quantity: number }[] } }[] }>(
    helpers,
    "GET",
    "/v1/subscriptions?limit=100",
  );
  return subscriptions.data.find((s) => s.metadata.team_id === teamId)?.items.data[0]?.quantity;
}
