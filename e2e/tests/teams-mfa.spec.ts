// The team's MFA rule, in Chromium against the real API (both databases: the postgres project's
// testMatch takes `mfa.spec.ts` files): an owner buys seats, a rep joins, the owner requires a second
// factor on /team; the rep, who has none, is sent to Settings → Security when signing in and cannot
// approve a device until they set one up.

import type { Browser, Page } from "@playwright/test";
import {
  CARD_OK,
  expect,
  payOnCheckoutPage,
  signIn,
  test,
} from "../support/fixtures";

const TEAM = "Second Factor Sales";

interface TeamBody {
  team: {
    subscription: { status: string } | null;
    mfa_required: boolean;
    members: { email: string; mfa: boolean }[];
  } | null;
}

async function newPage(browser: Browser, baseURL: string): Promise<Page> {
  const context = await browser.newContext({
    baseURL,
    timezoneId: "UTC",
    locale: "en-US",
  });
  return context.newPage();
}

test("an owner requires a second factor; a rep without one is sent to set it up and cannot approve a device", async ({
  page,
  browser,
  helpers,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const owner = await helpers.verifiedUser("mfa-owner");
  await signIn(page, owner);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/team");
  await page.getByLabel("Team name").fill(TEAM);
  await page.getByRole("button", { name: "Create team" }).click();
  await expect(
    page.getByRole("heading", { name: TEAM, level: 2 }),
  ).toBeVisible();
  await page.goto("/team/billing");
  await page.getByLabel("Seats", { exact: true }).fill("2");
  await page.getByRole("button", { name: "Buy seats" }).click();
  await payOnCheckoutPage(page, CARD_OK);
  await expect(page).toHaveURL(/\/team/);
  const ownerToken = await helpers.accessToken(owner);
  await expect
    .poll(
      async () =>
        (await helpers.getJson<TeamBody>("/api/team", ownerToken)).team
          ?.subscription?.status,
      { message: "the team's subscription" },
    )
    .toBe("active");

  // A rep joins by invitation (accepted through the API: the invitation screens are teams.spec's).
  const rep = await helpers.verifiedUser("mfa-rep");
  const invited = await helpers.postJson("/api/team/invites", ownerToken, {
    email: rep,
    role: "member",
  });
  expect(invited.status).toBe(202);
  const token = new URL(
    await helpers.mailLink(rep, 2),
    baseURL,
  ).searchParams.get("token");
  const accepted = await helpers.postJson(
    "/api/team/invites/accept",
    await helpers.accessToken(rep),
    { token },
  );
  expect(accepted.status).toBe(200);

  await page.goto("/team/security");
  const section = page.getByRole("region", { name: "Second factor" });
  const who = section.getByRole("list", { name: "Who has a second factor" });
  await expect(
    who.getByRole("listitem").filter({ hasText: rep }),
  ).toContainText("No second factor");
  const toggle = section.getByRole("switch", {
    name: "Require a second factor",
  });
  await expect(toggle).not.toBeChecked();
  await toggle.click();
  await expect(toggle).toBeChecked();
  await expect(
    section.getByText(/Everyone in this team needs a second factor/),
  ).toBeVisible();
  expect(
    (await helpers.getJson<TeamBody>("/api/team", ownerToken)).team!
      .mfa_required,
  ).toBe(true);

  // The rep signs in: sent to Settings → Security, told why.
  const repPage = await newPage(browser, baseURL!);
  await signIn(repPage, rep);
  await expect(repPage).toHaveURL(/\/settings#security$/);
  await expect(
    repPage.getByText("Your team requires two-step verification"),
  ).toBeVisible();

  // A desktop app asks to sign in; the rep cannot approve it.
  const device = await helpers.api.post("/api/auth/device", {
    data: {
      client_id: "closewise-desktop",
      device_name: "Rep's laptop",
      platform: "macos",
    },
  });
  expect(device.status(), await device.text()).toBe(200);
  const { user_code } = (await device.json()) as { user_code: string };
  await repPage.goto(`/activate?user_code=${encodeURIComponent(user_code)}`);
  await expect(repPage.getByText("Rep's laptop")).toBeVisible();
  await repPage.getByRole("button", { name: "Approve" }).click();
  await expect(
    repPage.getByText(
      "Your team requires a second factor. Set up an authenticator app or a passkey first.",
    ),
  ).toBeVisible();
  await expect(repPage.getByText(/Your device is signed in/)).toHaveCount(0);
});
