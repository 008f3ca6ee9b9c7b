// Single sign-on, end to end in Chromium: the owner of a paid team verifies the company
// domain over real DNS (the stack's DNS server) and connects the team to a real, certified OpenID
// provider (panva's oidc-provider, support/oidc.ts); a new person at that domain chooses "Continue
// with SSO", signs in on the provider's own pages and lands signed in as a member holding a seat.
// Then "Require SSO": that member's password is refused with the way to SSO, while the owner, at
// the same domain, still signs in with a password (break-glass).

import path from "node:path";
import type { Browser, Page } from "@playwright/test";
import { expect, PASSWORD, signIn, test, toast } from "../support/fixtures";
import { ownerWithPaidTeam, uniqueDomain, verifyDomain } from "../support/enterprise";
import { CLIENT_ID, CLIENT_SECRET, startIdp, type Idp } from "../support/oidc";

const TEAM = "Acme Sales";
const IDP_PASSWORD = "idp-password-7";
const REP_PASSWORD = "rep-own-password-9";
const SSO_REQUIRED = "Your company signs in with single sign-on. Continue with SSO to sign in.";

/** Another person's browser (closed with `page.context().close()`). */
async function newPage(browser: Browser, baseURL: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, timezoneId: "UTC", locale: "en-US" });
  return context.newPage();
}

/** On /signin?sso=1 with the address filled: on to the provider, its sign-in form (a wrong password refused first, when asked) and consent. */
async function throughProvider(page: Page, idp: Idp, email: string, wrongPasswordFirst = false) {
  await page.getByRole("button", { name: "Continue with SSO" }).click();
  await expect(page).toHaveURL(new RegExp(`^${idp.issuer}/interaction/`));
  await expect(page.getByRole("heading", { name: "Sign in to Test Identity" })).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveValue(email); // the login_hint Closewise sent
  if (wrongPasswordFirst) {
    await page.getByLabel("Password").fill("not-the-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("alert")).toHaveText("Wrong email or password.");
  }
  await page.getByLabel("Password").fill(IDP_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Allow access" })).toBeVisible();
  await page.getByRole("button", { name: "Allow" }).click();
}

test("SSO: a verified domain and a real OpenID provider; a new rep signs in with SSO and takes a seat; Require SSO refuses the rep's password, not the owner's", async ({
  page,
  browser,
  helpers,
  baseURL,
}) => {
  const domain = uniqueDomain("acme");
  const owner = await helpers.verifiedAccount(`owner@${domain}`);
  const rep = `rep@${domain}`;
  await ownerWithPaidTeam(page, helpers, owner, TEAM, 2);
  await verifyDomain(page, helpers, domain);

  const idp = await startIdp(
    `${baseURL}/api/auth/sso/callback`,
    { [rep]: { password: IDP_PASSWORD } },
    path.join(helpers.stack.logDir, `oidc-${domain}.log`),
  );
  const others: Page[] = [];
  try {
    // The owner connects the provider; the page shows the redirect URI to register there.
    const sso = page.getByRole("region", { name: "Single sign-on" });
    await expect(sso.getByText(`${baseURL}/api/auth/sso/callback`)).toBeVisible();
    await sso.getByLabel("Issuer URL").fill(idp.issuer);
    await sso.getByLabel("Client ID").fill(CLIENT_ID);
    await sso.getByLabel("Client secret").fill(CLIENT_SECRET);
    await sso.getByRole("button", { name: "Save single sign-on" }).click();
    await expect(toast(page, "Single sign-on is saved")).toBeVisible();
    await expect(sso.getByLabel("Client secret")).toHaveValue(""); // never shown again
    await expect(sso.getByLabel("Client secret")).toHaveAttribute("placeholder", /Stored/);

    // A new person at the domain: Continue with SSO from /signin, the provider's pages, signed in.
    const repPage = await newPage(browser, baseURL!);
    others.push(repPage);
    await repPage.goto("/signin");
    await repPage.getByRole("link", { name: "Continue with SSO" }).click();
    await expect(repPage).toHaveURL(/\/signin\?(.*&)?sso=1/);
    await repPage.getByLabel("Work email").fill(rep);
    await throughProvider(repPage, idp, rep, true);
    await expect(repPage).toHaveURL(new RegExp(`^${baseURL}/dashboard$`));
    await expect(repPage.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
    await expect(repPage.getByText(`Unlimited Sales Copilot through ${TEAM}`)).toBeVisible();

    // The owner's /team: the rep is a member, holding the second seat.
    await page.goto("/team");
    await expect(page.getByRole("table", { name: `Members of ${TEAM}` }).getByText(rep)).toBeVisible();
    await expect(page.getByText("2 of 2 used")).toBeVisible();

    // The rep also sets a password of their own, as the product allows (reset from the mail link).
    const mailsBefore = (await helpers.mails(rep)).length;
    const recover = await helpers.api.post("/api/auth/recover", { data: { email: rep } });
    expect(recover.status(), await recover.text()).toBe(200);
    const resetToken = new URL(await helpers.mailLink(rep, mailsBefore + 1), baseURL).searchParams.get("token");
    const reset = await helpers.api.post("/api/auth/reset", { data: { token: resetToken, password: REP_PASSWORD } });
    expect(reset.status(), await reset.text()).toBe(200);
    await helpers.accessToken(rep, REP_PASSWORD); // the password works before Require SSO

    // Require SSO.
    await page.goto("/team/security");
    const settings = page.getByRole("region", { name: "Single sign-on" });
    await settings.getByLabel(/Require SSO for/).check();
    await settings.getByRole("button", { name: "Save single sign-on" }).click();
    await expect(toast(page, "Single sign-on is saved")).toBeVisible();
    await page.reload();
    await expect(page.getByRole("region", { name: "Single sign-on" }).getByLabel(/Require SSO for/)).toBeChecked();

    // The rep's password is refused with the way to SSO, which still signs them in.
    const refused = await helpers.api.post("/api/auth/token?grant_type=password", {
      data: { email: rep, password: REP_PASSWORD },
    });
    expect(refused.status()).toBe(403);
    expect(await refused.json()).toMatchObject({ error: { code: "sso_required", message: SSO_REQUIRED } });
    const again = await newPage(browser, baseURL!);
    others.push(again);
    await signIn(again, rep, REP_PASSWORD);
    await expect(toast(again, SSO_REQUIRED)).toBeVisible();
    await expect(again).toHaveURL(/\/signin\?(.*&)?sso=1/);
    await expect(again.getByLabel("Work email")).toHaveValue(rep);
    await throughProvider(again, idp, rep);
    await expect(again).toHaveURL(new RegExp(`^${baseURL}/dashboard$`));

    // Break-glass: the owner, at the same domain, still signs in with the password.
    const ownerAgain = await newPage(browser, baseURL!);
    others.push(ownerAgain);
    await signIn(ownerAgain, owner, PASSWORD);
    await expect(ownerAgain).toHaveURL(/\/dashboard$/);
    await expect(ownerAgain.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
  } finally {
    await Promise.all(others.map((p) => p.context().close()));
    await idp.stop();
  }
});
