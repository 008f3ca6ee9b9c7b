//! The suite's `test`: every worker gets its own stack (stripe-mock + API on free ports with a fresh
//! database), `baseURL` points at that API (which serves the built web app), and helpers reach the
//! dev mail outbox, the API and the mock's test clock the way a developer would.

import { createPrivateKey, randomBytes, sign } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test as base, expect, request as playwrightRequest, type APIRequestContext, type Page } from "@playwright/test";
import { spawnSync } from "node:child_process";
import { webWithAnalytics } from "./analyticsBuild";
import { binDir, REPO, startStack, type Database, type Stack } from "./stack";

export { expect };

export interface Mail {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  created_at: string;
  sent_at: string | null;
  link: string | null;
}

export interface Subscription {
  price_id: string;
  subscription_status: string;
  cancel_at_period_end: boolean;
  current_period_end: number;
  payment_method_brand: string | null;
  payment_method_last4: string | null;
  /** The reason given when it was set to end (null: none, or it renews). */
  cancellation_reason?: string | null;
}

export interface Plan {
  plan_type: "free" | "monthly";
  status: string;
  stripe_customer_id: string | null;
}

export const PASSWORD = "correct-horse-42";
export const CARD_OK = "4242 4242 4242 4242";
export const CARD_DECLINED = "4000 0000 0000 0002";

/** A fresh address per call, so tests never share an account. */
export function uniqueEmail(label: string): string {
  return `${label}-${Date.now().toString(36)}-${randomBytes(3).toString("hex")}@example.com`;
}

/**
 * The API writes its development key as PKCS#8 v2 (seed and public key), which OpenSSL 3 refuses;
 * rebuild the plain PKCS#8 v1 form from the 32-byte seed.
 */
function ed25519Key(pem: string) {
  const der = Buffer.from(pem.replace(/-----[^-]+-----/g, "").replace(/\s+/g, ""), "base64");
  const marker = Buffer.from("04220420", "hex");
  const at = der.indexOf(marker);
  if (at < 0) throw new Error("not an Ed25519 PKCS#8 key");
  const seed = der.subarray(at + marker.length, at + marker.length + 32);
  const v1 = Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), seed]);
  return createPrivateKey({ key: v1, format: "der", type: "pkcs8" });
}

/**
 * SQLite keeps times as RFC 3339 text (sqlx): each of the address's mails is rewritten in the same form,
 * `seconds` earlier. Python's sqlite3 module, as scripts/scim-conformance.sh uses, so no sqlite3 CLI is needed.
 */
const BACKDATE_SQLITE = `
import re, sqlite3, sys
from datetime import datetime, timedelta
db = sqlite3.connect(sys.argv[1], timeout=15)
rows = db.execute("SELECT rowid, created_at FROM mail_outbox WHERE to_email = ?", (sys.argv[2],)).fetchall()
if not rows:
    sys.exit(f"no mail to {sys.argv[2]}")
for rowid, at in rows:
    m = re.fullmatch(r"(\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d)(\\.\\d+)?(Z|[+-]\\d\\d:\\d\\d)", at)
    if not m:
        sys.exit(f"unexpected time {at!r}")
    earlier = datetime.strptime(m[1], "%Y-%m-%dT%H:%M:%S") - timedelta(seconds=int(sys.argv[3]))
    db.execute("UPDATE mail_outbox SET created_at = ? WHERE rowid = ?", (earlier.strftime("%Y-%m-%dT%H:%M:%S") + (m[2] or "") + m[3], rowid))
db.commit()
`;

/** A member's joining and sessions moved back (SQLite): `joined_at`, `refreshed_at` as RFC 3339 text, none seen since. */
const BACKDATE_MEMBER_SQLITE = `
import sqlite3, sys
from datetime import datetime, timedelta, timezone
db = sqlite3.connect(sys.argv[1], timeout=15)
at = (datetime.now(timezone.utc) - timedelta(days=int(sys.argv[3]))).strftime("%Y-%m-%dT%H:%M:%SZ")
user = "(SELECT id FROM users WHERE email = ?)"
if db.execute(f"UPDATE team_members SET joined_at = ? WHERE user_id = {user}", (at, sys.argv[2])).rowcount != 1:
    sys.exit(f"{sys.argv[2]} is in no team")
db.execute(f"UPDATE sessions SET refreshed_at = ?, last_seen_at = NULL WHERE user_id = {user}", (at, sys.argv[2]))
db.commit()
`;

export class Helpers {
  constructor(
    readonly stack: Stack,
    readonly api: APIRequestContext,
  ) {}

  /** The outbox for `to`, newest first (GET /dev/mail.json). */
  async mails(to: string): Promise<Mail[]> {
    const res = await this.api.get(`/dev/mail.json?to=${encodeURIComponent(to)}`);
    expect(res.ok(), `GET /dev/mail.json answered ${res.status()}`).toBeTruthy();
    return ((await res.json()) as { mails: Mail[] }).mails;
  }

  /** Waits until `to` has at least `count` mails and returns the newest. */
  async waitForMail(to: string, count = 1): Promise<Mail> {
    await expect
      .poll(async () => (await this.mails(to)).length, { message: `mail number ${count} to ${to}`, timeout: 15_000 })
      .toBeGreaterThanOrEqual(count);
    return (await this.mails(to))[0];
  }

  /** The link of the newest mail to `to`, as a path on our origin (`/verify?token=…`). */
  async mailLink(to: string, count = 1): Promise<string> {
    const mail = await this.waitForMail(to, count);
    expect(mail.link, `mail "${mail.subject}" to ${to} has a link`).toBeTruthy();
    const url = new URL(mail.link!);
    expect(url.origin).toBe(this.stack.baseUrl);
    return `${url.pathname}${url.search}`;
  }

  /** Signs up through the API (no browser), as the sign-up form does. */
  async signUp(email: string, password = PASSWORD): Promise<void> {
    const res = await this.api.post("/api/auth/signup", { data: { email, password } });
    expect(res.status(), await res.text()).toBe(200);
  }

  /** A confirmed account: signs up and follows the verification mail's token through the API. */
  async verifiedUser(label: string, password = PASSWORD): Promise<string> {
    return this.verifiedAccount(uniqueEmail(label), password);
  }

  /** A confirmed account at a given address (e.g. at a team's company domain). */
  async verifiedAccount(email: string, password = PASSWORD): Promise<string> {
    await this.signUp(email, password);
    const token = new URL(await this.mailLink(email), this.stack.baseUrl).searchParams.get("token");
    const res = await this.api.post("/api/auth/verify", { data: { token } });
    expect(res.status(), await res.text()).toBe(200);
    return email;
  }

  /**
   * An access token of the user's own (a separate session, as the desktop app would hold): lets a
   * test wait until the API has caught up with Stripe's webhooks before looking at the screen.
   */
  async accessToken(email: string, password = PASSWORD): Promise<string> {
    const res = await this.api.post("/api/auth/token?grant_type=password", { data: { email, password } });
    expect(res.status(), await res.text()).toBe(200);
    return ((await res.json()) as { access_token: string }).access_token;
  }

  async getJson<T>(path: string, token: string): Promise<T> {
    const res = await this.api.get(path, { headers: { Authorization: `Bearer ${token}` } });
    expect(res.status(), `${path}: ${await res.text()}`).toBe(200);
    return (await res.json()) as T;
  }

  async postJson<T>(path: string, token: string, data: unknown): Promise<{ status: number; body: T }> {
    const res = await this.api.post(path, { headers: { Authorization: `Bearer ${token}` }, data });
    return { status: res.status(), body: (await res.json()) as T };
  }

  /** Waits until the API's view of the user's subscription satisfies `check` (webhooks are asynchronous). */
  async waitForSubscription(token: string, what: string, check: (s: Subscription | null) => boolean): Promise<Subscription | null> {
    let last: Subscription | null = null;
    await expect
      .poll(
        async () => {
          last = (await this.getJson<{ subscription: Subscription | null }>("/api/subscription", token)).subscription;
          return check(last);
        },
        { message: `the API sees ${what}`, timeout: 15_000 },
      )
      .toBe(true);
    return last;
  }

  async plan(token: string): Promise<Plan> {
    return this.getJson<Plan>("/api/plan", token);
  }

  /** Loads a fixture into this stack's database with the operator CLI: `closewise db seed FILE`. */
  seed(fixture: string): void {
    const file = path.join(REPO, fixture);
    const result = spawnSync(path.join(binDir(), "closewise"), ["db", "seed", file, "--database-url", this.stack.databaseUrl, "--yes", "--actor", "e2e"], {
      cwd: this.stack.dataDir,
      encoding: "utf8",
    });
    expect(result.status, `closewise db seed ${fixture}: ${result.error?.message ?? ""}${result.stderr}${result.stdout}`).toBe(0);
  }

  /**
   * Moves the mails to `to` back in time by `seconds` in this stack's database, as if they had been
   * sent that long ago: a test of what happens once the resend interval has passed need not wait it out.
   */
  backdateMail(to: string, seconds: number): void {
    const url = this.stack.databaseUrl;
    const result = url.startsWith("sqlite://")
      ? spawnSync("python3", ["-c", BACKDATE_SQLITE, url.slice("sqlite://".length), to, String(seconds)], { encoding: "utf8" })
      : spawnSync("psql", [url, "-v", "ON_ERROR_STOP=1", "-q", "-t", "-v", `to=${to}`, "-v", `seconds=${seconds}`], {
          input: "UPDATE mail_outbox SET created_at = created_at - make_interval(secs => :seconds) WHERE to_email = :'to';",
          encoding: "utf8",
        });
    expect(result.status, `backdating the mail to ${to}: ${result.error?.message ?? ""}${result.stderr}${result.stdout}`).toBe(0);
  }

  /**
   * As if `email` had joined their team `days` ago and not signed in since (their sessions last used
   * then): how a test meets an idle member without waiting 30 days.
   */
  backdateMember(email: string, days: number): void {
    const url = this.stack.databaseUrl;
    const result = url.startsWith("sqlite://")
      ? spawnSync("python3", ["-c", BACKDATE_MEMBER_SQLITE, url.slice("sqlite://".length), email, String(days)], { encoding: "utf8" })
      : spawnSync("psql", [url, "-v", "ON_ERROR_STOP=1", "-q", "-t", "-v", `email=${email}`, "-v", `days=${days}`], {
          input:
            "UPDATE team_members SET joined_at = now() - make_interval(days => :days) WHERE user_id = (SELECT id FROM users WHERE email = :'email');" +
            "UPDATE sessions SET refreshed_at = now() - make_interval(days => :days), last_seen_at = NULL WHERE user_id = (SELECT id FROM users WHERE email = :'email');",
          encoding: "utf8",
        });
    expect(result.status, `backdating ${email}'s membership: ${result.error?.message ?? ""}${result.stderr}${result.stdout}`).toBe(0);
  }

  /** stripe-mock's clock (Unix seconds): wall time plus however far a test moved it. */
  async mockNow(): Promise<number> {
    const res = await this.api.get(`${this.stack.mockUrl}/_mock/clock`);
    expect(res.ok(), await res.text()).toBeTruthy();
    return ((await res.json()) as { now: number }).now;
  }

  /** Moves stripe-mock's test clock forward (subscriptions renew or end; webhooks follow). */
  async advanceMockClock(seconds: number): Promise<void> {
    const res = await this.api.post(`${this.stack.mockUrl}/_mock/clock/advance`, { data: { seconds } });
    expect(res.ok(), await res.text()).toBeTruthy();
  }

  /**
   * An access token exactly like `token` but expired an hour ago, signed with the API's own key
   * (the development key the API generated in its data dir): the server rejects it as expired.
   */
  expiredCopyOf(token: string): string {
    const [, payload] = token.split(".");
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Record<string, unknown>;
    const header = JSON.parse(Buffer.from(token.split(".")[0], "base64url").toString("utf8")) as Record<string, unknown>;
    const now = Math.floor(Date.now() / 1000);
    const expired = { ...claims, iat: now - 7200, exp: now - 3600 };
    const enc = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
    const input = `${enc(header)}.${enc(expired)}`;
    const key = ed25519Key(readFileSync(path.join(this.stack.dataDir, "jwt-ed25519.pem"), "utf8"));
    return `${input}.${sign(null, Buffer.from(input), key).toString("base64url")}`;
  }
}

/** Signs in through the form on /signin and waits for the dashboard. */
export async function signIn(page: Page, email: string, password = PASSWORD, path = "/signin") {
  await page.goto(path);
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
}

export async function signInToDashboard(page: Page, email: string, password = PASSWORD) {
  await signIn(page, email, password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
}

/** Fills stripe-mock's hosted checkout page and submits it. */
export async function payOnCheckoutPage(page: Page, card: string) {
  await expect(page.getByRole("heading", { name: /^Subscribe to / })).toBeVisible();
  await page.getByLabel("Card number").fill(card);
  await page.getByLabel("Expiration").fill("12 / 34");
  await page.getByLabel("CVC").fill("123");
  await page.getByLabel("Name on card").fill("Ana Tester");
  // A team's checkout collects the billing address (billing_address_collection=required).
  const line1 = page.getByLabel("Address line 1");
  if (await line1.count()) {
    await line1.fill("1 Example Street");
    await page.getByLabel("City").fill("Berlin");
    await page.getByLabel("Postal code").fill("10115");
    await page.getByLabel("Country (two-letter code)").fill("DE");
  }
  await page.getByRole("button", { name: "Subscribe" }).click();
}

/** Signed in on the dashboard: /pricing, Start Subscription, pay with 4242, Payment Successful. */
export async function subscribe(page: Page) {
  await page.goto("/pricing");
  await page.getByRole("button", { name: "Start Subscription" }).click();
  await payOnCheckoutPage(page, CARD_OK);
  await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible();
}

/** The date the dashboard shows for a Unix time, as the app formats it (en-US, the browser runs in UTC). */
export function longDate(unixSeconds: number) {
  return new Date(unixSeconds * 1000).toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });
}

/** A toast (react-hot-toast renders them with role=status). */
export function toast(page: Page, text: string | RegExp) {
  return page.getByRole("status").filter({ hasText: text });
}

interface WorkerFixtures {
  /** Files that need a stack to themselves (e.g. they move stripe-mock's clock) name it. */
  stackName: string;
  database: Database;
  allowUnverifiedSignin: boolean;
  /** The stack's address: `localhost` for passkeys (WebAuthn refuses 127.0.0.1 as relying party). */
  webHost: "127.0.0.1" | "localhost";
  /** Serve the web app with a PostHog key (a configured copy of the build, see analyticsBuild.ts). */
  analytics: boolean;
  /** That copy's dist/, when `analytics` is set. */
  analyticsWebDist: string | undefined;
  stack: Stack;
}

interface TestFixtures {
  api: APIRequestContext;
  helpers: Helpers;
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  stackName: ["shared", { option: true, scope: "worker" }],
  database: ["sqlite", { option: true, scope: "worker" }],
  allowUnverifiedSignin: [false, { option: true, scope: "worker" }],
  webHost: ["127.0.0.1", { option: true, scope: "worker" }],
  analytics: [false, { option: true, scope: "worker" }],
  analyticsWebDist: [
    async ({ analytics }, use) => {
      if (!analytics) return use(undefined);
      const site = webWithAnalytics();
      await use(site.dist);
      site.remove();
    },
    { scope: "worker" },
  ],
  stack: [
    async ({ stackName, database, allowUnverifiedSignin, webHost, analyticsWebDist }, use, workerInfo) => {
      const stack = await startStack({ database, allowUnverifiedSignin, webDist: analyticsWebDist, webHost });
      console.log(
        `[e2e] worker ${workerInfo.workerIndex} (${stackName} stack): API ${stack.baseUrl} (${database}${allowUnverifiedSignin ? ", unverified sign-in allowed" : ""}${analyticsWebDist ? ", web app with analytics" : ""}), stripe-mock ${stack.mockUrl}, logs in ${stack.logDir}`,
      );
      await use(stack);
      await stack.stop();
    },
    { scope: "worker", timeout: 90_000 },
  ],
  baseURL: async ({ stack }, use) => {
    await use(stack.baseUrl);
  },
  api: async ({ stack }, use) => {
    const context = await playwrightRequest.newContext({ baseURL: stack.baseUrl });
    await use(context);
    await context.dispose();
  },
  helpers: async ({ stack, api }, use) => {
    await use(new Helpers(stack, api));
  },
});
