// "Locked out within a minute", end to end: the owner of a paid team with a verified
// domain creates a SCIM token on /team (shown once); the identity provider (this test, with that
// token) provisions a rep, who signs in to the desktop app (`closewise-desktop`) and starts a call;
// then the provider deactivates the rep (`PATCH /scim/v2/Users/{id}`, `replace active false`) and
// the app's next `call start` fails within 60 seconds, the client dropping its session and
// entitlement token instead of using the offline grace.

import { existsSync } from "node:fs";
import { expect, signIn, test } from "../support/fixtures";
import { Desktop } from "../support/desktop";
import { ownerWithPaidTeam, uniqueDomain, verifyDomain } from "../support/enterprise";

const TEAM = "Globex Sales";
const USER_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:User";
const PATCH_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:PatchOp";

test("SCIM: a token made on /team provisions a rep; deactivating them stops the desktop app's next call within 60 s, no grace", async ({
  page,
  browser,
  helpers,
  baseURL,
}) => {
  const domain = uniqueDomain("globex");
  const owner = await helpers.verifiedAccount(`owner@${domain}`);
  const rep = await helpers.verifiedAccount(`rep@${domain}`);
  await ownerWithPaidTeam(page, helpers, owner, TEAM, 2);
  await verifyDomain(page, helpers, domain);

  // The owner creates a SCIM token: shown once, then listed without its secret.
  const scim = page.getByRole("region", { name: "Security: SCIM tokens" });
  await scim.getByLabel("Token name").fill("Okta");
  await scim.getByRole("button", { name: "Create SCIM token" }).click();
  const shown = scim.getByRole("status").filter({ hasText: "Copy this token now: it is not shown again." });
  await expect(shown).toBeVisible();
  const token = (await shown.locator("code").innerText()).trim();
  expect(token.length).toBeGreaterThanOrEqual(32);
  await page.reload();
  const tokens = page.getByRole("list", { name: "SCIM tokens" });
  await expect(tokens.getByRole("listitem")).toHaveCount(1);
  await expect(tokens).toContainText("never used");
  await expect(tokens).toContainText("Okta");
  await expect(page.getByText(token)).toHaveCount(0);

  // The identity provider, with that token: the rep is provisioned and takes the second seat.
  const scimHeaders = { Authorization: `Bearer ${token}`, "Content-Type": "application/scim+json" };
  const created = await helpers.api.post("/scim/v2/Users", {
    headers: scimHeaders,
    data: {
      schemas: [USER_SCHEMA],
      userName: rep,
      externalId: `ext-${rep}`,
      emails: [{ value: rep, primary: true }],
      active: true,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const scimUser = (await created.json()) as { id: string; active: boolean };
  expect(scimUser.active).toBe(true);
  await page.goto("/team");
  await expect(page.getByRole("table", { name: `Members of ${TEAM}` }).getByText(rep)).toBeVisible();
  await expect(page.getByText("2 of 2 used")).toBeVisible();

  // The rep signs in to the desktop app through Chromium and starts a call on the team's plan.
  const repContext = await browser.newContext({ baseURL, timezoneId: "UTC", locale: "en-US" });
  const repPage = await repContext.newPage();
  const desktop = new Desktop(helpers.stack.baseUrl);
  try {
    await signIn(repPage, rep);
    await expect(repPage).toHaveURL(/\/dashboard$/);
    await desktop.signInWithBrowser(repPage, "Rep's laptop");
    expect(desktop.entitlements()).toMatchObject({ unlimited: true, source: "online" });
    const started = desktop.ok(["call", "start", "--id", "before-scim"]);
    const callId = started.match(/^Call started: (\S+)/m)?.[1];
    expect(callId, started).toBeTruthy();
    desktop.ok(["call", "end", callId!]);

    // The provider deactivates the rep; the app's next call fails, well within a minute.
    const deactivatedAt = Date.now();
    const patched = await helpers.api.patch(`/scim/v2/Users/${scimUser.id}`, {
      headers: scimHeaders,
      data: { schemas: [PATCH_SCHEMA], Operations: [{ op: "replace", path: "active", value: false }] },
    });
    expect(patched.status(), await patched.text()).toBe(200);
    expect(((await patched.json()) as { active: boolean }).active).toBe(false);
    const next = desktop.run(["call", "start", "--id", "after-scim"]);
    const lockedOutIn = Date.now() - deactivatedAt;
    expect(next.status, next.stdout + next.stderr).not.toBe(0);
    expect(next.stderr).toContain("You are signed out. Sign in to continue.");
    expect(next.stdout).not.toContain("Call started");
    expect(lockedOutIn, `the next call failed ${lockedOutIn} ms after the deactivation`).toBeLessThan(60_000);

    // The client dropped its session and entitlement token: no grace, nothing to answer from.
    expect(existsSync(desktop.store), "the session file is gone").toBe(false);
    const whoami = desktop.run(["whoami"]);
    expect(whoami.status).not.toBe(0);
    const offline = desktop.run(["entitlements", "--json"]);
    expect(offline.status, offline.stdout).not.toBe(0);
    expect(offline.stdout + offline.stderr).not.toMatch(/grace/i);

    // The seat is free again on the owner's /team.
    await page.reload();
    await expect(page.getByRole("table", { name: `Members of ${TEAM}` }).getByText(rep)).toHaveCount(0);
    await expect(page.getByText("1 of 2 used")).toBeVisible();
  } finally {
    desktop.remove();
    await repContext.close();
  }
});
