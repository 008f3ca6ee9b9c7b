// The setup link for IT, end to end in Chromium: the owner of a paid team creates a link on
// /team/security; a browser with no Closewise account opens it, adds the company domain and verifies
// it once the TXT record is published on the stack's DNS server ("Check now"), chooses Okta, reads our
// ACS URL and entity ID under Okta's names, gives the IdP's metadata URL (samlify's IdP,
// support/saml.ts), saves and passes a real test sign-in, creates a SCIM token (shown once; the SCIM
// API answers it) and finishes. The owner's page shows the link finished with its three steps done,
// and the owner is mailed. A revoked link's page answers 410 and says so.

import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, test } from "../support/fixtures";
import { ownerWithPaidTeam, uniqueDomain } from "../support/enterprise";
import { startSamlIdp } from "../support/saml";

const TEAM = "Acme Sales";
const GONE = "This setup link has expired or was revoked. Ask the team owner for a new one.";

/** On /team/security: creates a link with every step and returns its URL (shown once). */
async function createLink(page: Page): Promise<string> {
  await page.goto("/team/security");
  const region = page.getByRole("region", { name: "Setup link for IT" });
  await region.getByRole("button", { name: "Create setup link" }).click();
  const shown = region.getByRole("status").filter({ hasText: "Copy this link now: it is not shown again." });
  const url = (await shown.locator("code").innerText()).trim();
  expect(url).toMatch(/\/setup\/[A-Za-z0-9_-]{43}$/);
  return url;
}

test("setup link: IT verifies the domain, connects SAML after a passed test sign-in and creates a SCIM token, with no account", async ({
  page,
  browser,
  helpers,
  baseURL,
}) => {
  const domain = uniqueDomain("setup");
  const owner = await helpers.verifiedAccount(`owner@${domain}`);
  const it = `it@${domain}`;
  await ownerWithPaidTeam(page, helpers, owner, TEAM, 2);
  const url = await createLink(page);
  const links = page.getByRole("region", { name: "Setup link for IT" }).getByRole("list", { name: "Setup links" });
  await expect(links.getByText(/^Open until /)).toBeVisible();

  // IT's browser: no account, no session.
  const context = await browser.newContext({ baseURL, timezoneId: "UTC", locale: "en-US" });
  let idp: Awaited<ReturnType<typeof startSamlIdp>> | null = null;
  try {
    const itPage = await context.newPage();
    const opened = await itPage.goto(url);
    expect(opened?.status()).toBe(200);
    await expect(itPage.getByRole("heading", { level: 1, name: `Set up ${TEAM} on Closewise` })).toBeVisible();

    // 1. The domain: the TXT record to publish, refused before it exists, verified after.
    const domainStep = itPage.getByRole("region", { name: /Verify the company domain/ });
    await domainStep.getByLabel("Company domain").fill(domain);
    await domainStep.getByRole("button", { name: "Add domain" }).click();
    const row = domainStep.getByRole("listitem", { name: domain });
    const record = row.getByRole("definition");
    await expect(record.nth(1)).toContainText("closewise-domain-verification=");
    const [name, value] = [(await record.nth(0).innerText()).trim(), (await record.nth(1).innerText()).trim()];
    expect(name).toBe(`_closewise-challenge.${domain}`);
    await row.getByRole("button", { name: "Check now" }).click();
    await expect(row.getByRole("alert")).toBeVisible();
    await helpers.stack.dns.set(name, value);
    await row.getByRole("button", { name: "Check now" }).click();
    await expect(row.getByText("Verified", { exact: true })).toBeVisible();
    await expect(domainStep.getByText("Done", { exact: true })).toBeVisible();

    // 2. Single sign-on: Okta's names for our values, the IdP's metadata URL, a real test sign-in.
    const sso = itPage.getByRole("region", { name: /Connect single sign-on/ });
    await sso.getByRole("radio", { name: "Okta" }).check();
    const values = sso.getByLabel("Values for Okta");
    const acs = (await values.getByRole("definition").nth(0).locator("code").innerText()).trim();
    const entity = (await values.getByRole("definition").nth(1).locator("code").innerText()).trim();
    expect(acs).toMatch(/\/api\/auth\/saml\/[0-9a-f-]+\/acs$/);
    expect(entity).toMatch(/\/api\/auth\/saml\/[0-9a-f-]+\/metadata$/);
    const metadata = await helpers.api.get(new URL(entity).pathname);
    expect(metadata.status()).toBe(200);
    idp = await startSamlIdp(await metadata.text(), [it], path.join(helpers.stack.logDir, `saml-${domain}.log`));
    await sso.getByLabel("Metadata URL").fill(idp.metadataUrl);
    await sso.getByRole("button", { name: "Save and test" }).click();
    const test = sso.getByRole("form", { name: "Test sign-in" });
    await test.getByLabel("Work e-mail").fill(it);
    await test.getByRole("button", { name: "Test sign-in" }).click();
    await expect(itPage).toHaveURL(new RegExp(`/setup/[A-Za-z0-9_-]{43}\\?sso_test=passed$`));
    await expect(sso.getByRole("status")).toHaveText("The test sign-in passed. Single sign-on is saved.");
    await expect(sso.getByText("Done", { exact: true })).toBeVisible();

    // 3. A SCIM token, shown once, that the SCIM API accepts.
    const scim = itPage.getByRole("region", { name: /Create a SCIM token/ });
    await scim.getByLabel("Token name").fill("Okta production");
    await scim.getByRole("button", { name: "Create SCIM token" }).click();
    const shown = scim.getByRole("status").filter({ hasText: "Copy this token now: it is not shown again." });
    const token = (await shown.locator("code").innerText()).trim();
    expect(token).toMatch(/^cws_scim_/);
    const users = await helpers.api.get("/scim/v2/Users", { headers: { Authorization: `Bearer ${token}` } });
    expect(users.status()).toBe(200);

    await itPage.getByRole("button", { name: "Finish" }).click();
    await itPage.getByRole("dialog", { name: "Finish setup?" }).getByRole("button", { name: "Finish setup" }).click();
    await expect(itPage.getByRole("heading", { level: 1, name: "Setup is finished" })).toBeVisible();
    expect((await itPage.goto(url))?.status()).toBe(410);
    await expect(itPage.getByText("This setup link was used to finish setup.", { exact: false })).toBeVisible();
  } finally {
    await context.close();
    await idp?.stop();
  }

  // The owner: the link finished with its three steps done, and a mail.
  await page.reload();
  await expect(links.getByText(/^Finished /)).toBeVisible();
  for (const step of ["Domain", "Single sign-on", "SCIM token"]) await expect(links.getByText(`${step}: done`)).toBeVisible();
  await expect
    .poll(async () => (await helpers.mails(owner)).map((m) => m.subject), { timeout: 15_000 })
    .toContainEqual(expect.stringContaining(`IT finished setting up ${TEAM}`));
});

test("setup link: a revoked link's page answers 410 and says so", async ({ page, browser, helpers, baseURL }) => {
  const domain = uniqueDomain("setup-revoked");
  const owner = await helpers.verifiedAccount(`owner@${domain}`);
  await ownerWithPaidTeam(page, helpers, owner, TEAM, 1);
  const url = await createLink(page);
  const region = page.getByRole("region", { name: "Setup link for IT" });
  await region.getByRole("button", { name: "Revoke", exact: true }).click();
  await page.getByRole("dialog", { name: "Revoke this setup link?" }).getByRole("button", { name: "Revoke link" }).click();
  await expect(region.getByText(/^Revoked /)).toBeVisible();

  const context = await browser.newContext({ baseURL, timezoneId: "UTC", locale: "en-US" });
  try {
    const itPage = await context.newPage();
    const response = await itPage.goto(url);
    expect(response?.status()).toBe(410);
    await expect(itPage.getByText(GONE)).toBeVisible();
  } finally {
    await context.close();
  }
});
