// SAML single sign-on, end to end in Chromium: the owner of a paid team with a verified domain
// connects a real SAML identity provider (samlify's, support/saml.ts) by its metadata URL on
// /team, which shows our SP's entity ID and ACS URL to give it and the IdP's certificate; a new
// person at that domain chooses "Continue with SSO" on /signin, the IdP posts its signed response
// to our ACS, and they land on the dashboard as a member holding a seat.

import path from "node:path";
import { expect, test, toast } from "../support/fixtures";
import { ownerWithPaidTeam, uniqueDomain, verifyDomain } from "../support/enterprise";
import { startSamlIdp } from "../support/saml";

const TEAM = "Acme Sales";

test("SAML: the owner connects a SAML IdP by its metadata; a new rep signs in through it from /signin to the dashboard", async ({
  page,
  browser,
  helpers,
  baseURL,
}) => {
  const domain = uniqueDomain("saml");
  const owner = await helpers.verifiedAccount(`owner@${domain}`);
  const rep = `rep@${domain}`;
  await ownerWithPaidTeam(page, helpers, owner, TEAM, 2);
  await verifyDomain(page, helpers, domain);

  const sso = page.getByRole("region", { name: "Single sign-on" });
  await sso.getByLabel("SAML 2.0").check();
  const acs = await sso.locator("code", { hasText: /\/acs$/ }).textContent();
  const teamId = /\/api\/auth\/saml\/([0-9a-f-]+)\/acs$/.exec(acs!)![1];
  const metadata = await helpers.api.get(`/api/auth/saml/${teamId}/metadata`);
  expect(metadata.status()).toBe(200);
  const idp = await startSamlIdp(await metadata.text(), [rep], path.join(helpers.stack.logDir, `saml-${domain}.log`));
  const context = await browser.newContext({ baseURL, timezoneId: "UTC", locale: "en-US" });
  try {
    await sso.getByLabel("Metadata URL").fill(idp.metadataUrl);
    await sso.getByRole("button", { name: "Save single sign-on" }).click();
    await expect(toast(page, "Single sign-on is saved")).toBeVisible();
    await expect(sso.getByText(idp.metadataUrl.replace(/\/metadata$/, "/sso"))).toBeVisible();
    await expect(sso.getByText(/^CN=Closewise test IdP, expires \d{4}-\d{2}-\d{2}$/)).toBeVisible();

    const repPage = await context.newPage();
    await repPage.goto("/signin");
    await repPage.getByRole("link", { name: "Continue with SSO" }).click();
    await repPage.getByLabel("Work email").fill(rep);
    await repPage.getByRole("button", { name: "Continue with SSO" }).click();
    await expect(repPage).toHaveURL(new RegExp(`^${baseURL}/dashboard$`));
    await expect(repPage.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
    await expect(repPage.getByText(`Unlimited Sales Copilot through ${TEAM}`)).toBeVisible();

    await page.goto("/team");
    await expect(page.getByRole("table", { name: `Members of ${TEAM}` }).getByText(rep)).toBeVisible();
    await expect(page.getByText("2 of 2 used")).toBeVisible();
  } finally {
    await context.close();
    await idp.stop();
  }
});
