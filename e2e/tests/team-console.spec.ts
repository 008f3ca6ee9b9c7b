// /team as a console, walked at 1280 and 375 px as the owner and as a plain member: each section at
// its own URL from the section navigation (and the browser's Back), a mail's `/team#team-adoption` in
// Usage, a member's `/team/billing` back at Members; on every section axe finds nothing serious, no
// table cell or control is cut or runs out of its card or the window, no column headers run
// together, and at 375 px on a touch screen every control is at least 44 px high. Dialogs open on
// their first control (not Close) and a focused heading shows no box. The team is made through the
// API (seats paid by invoice: active at once), its people by invitation, one with a long address.

import type { Page } from "@playwright/test";
import { expect, signIn, test, type Helpers } from "../support/fixtures";
import {
  clippedContent,
  seriousViolations,
  sidewaysScrolling,
  smallTargets,
} from "../support/layout";
import { addMember } from "../support/team";

test.use({ reducedMotion: "reduce" });

const SECTIONS = [
  { link: "Members", path: "/team/members", region: "Members" },
  { link: "Seats & billing", path: "/team/billing", region: "Seats & billing" },
  { link: "Usage", path: "/team/usage", region: "Adoption" },
  { link: "Activity", path: "/team/activity", region: "Activity" },
  { link: "Security", path: "/team/security", region: "Second factor" },
  { link: "Policy", path: "/team/policy", region: "Policies" },
];

const WIDTHS = [
  { name: "1280 px", viewport: { width: 1280, height: 900 }, touch: false },
  { name: "375 px", viewport: { width: 375, height: 812 }, touch: true },
] as const;

/** An owner with a team of ten seats paid by invoice, an admin and a member with a long address. */
async function team(helpers: Helpers) {
  const owner = await helpers.verifiedUser("console-owner");
  const token = await helpers.accessToken(owner);
  const created = await helpers.postJson("/api/team", token, {
    name: "Console Sales",
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const bought = await helpers.postJson("/api/team/checkout", token, {
    seats: 10,
    interval: "year",
    collection: "invoice",
  });
  expect(bought.status, JSON.stringify(bought.body)).toBe(200);
  await addMember(helpers, token, "console-admin", "admin");
  const member = await addMember(
    helpers,
    token,
    "alexandra.konstantinopoulou-sales",
    "member",
  );
  return { owner, member };
}

async function atRest(page: Page, label: string, touch: boolean) {
  await expect(
    page.getByRole("heading", { name: "Team", level: 1 }),
    label,
  ).toBeVisible();
  await expect(
    page.locator('[aria-busy="true"]'),
    `${label}: still loading`,
  ).toHaveCount(0);
  await expect(
    page.getByText(/^Loading/),
    `${label}: still loading`,
  ).toHaveCount(0);
  expect(await sidewaysScrolling(page), `${label}: sideways scrolling`).toEqual(
    [],
  );
  expect(await clippedContent(page), `${label}: cut off`).toEqual([]);
  if (touch)
    expect(await smallTargets(page), `${label}: targets under 44 px`).toEqual(
      [],
    );
  expect(
    await seriousViolations(page),
    `${label}: serious or critical axe violations`,
  ).toEqual([]);
}

for (const width of WIDTHS) {
  test(`/team's sections at ${width.name}: the owner walks each, a plain member sees Members alone`, async ({
    browser,
    baseURL,
    helpers,
  }) => {
    test.setTimeout(150_000);
    const { owner, member } = await team(helpers);
    const context = await browser.newContext({
      baseURL,
      viewport: width.viewport,
      hasTouch: width.touch,
      isMobile: width.touch,
      reducedMotion: "reduce",
      timezoneId: "UTC",
      locale: "en-US",
    });
    const page = await context.newPage();
    await signIn(page, owner);
    await expect(page).toHaveURL(/\/dashboard$/);

    // A mail's anchor lands in its section.
    await page.goto("/team#team-adoption");
    await expect(page).toHaveURL(/\/team\/usage#team-adoption$/);
    await expect(
      page.getByRole("region", { name: "Adoption", exact: true }),
    ).toBeVisible();

    await page.goto("/team");
    const nav = page.getByRole("navigation", { name: "Team sections" });
    await expect(nav.getByRole("link")).toHaveText(SECTIONS.map((s) => s.link));
    await expect(nav.getByRole("link", { name: "Members" })).toHaveAttribute(
      "aria-current",
      "page",
    );
    const members = page.getByRole("region", { name: "Members" });
    await expect(
      members.getByRole("rowheader", {
        name: new RegExp(member.split("@")[0]!),
      }),
    ).toBeVisible();
    await atRest(page, `${width.name} /team`, width.touch);

    // A dialog opens on its first control, not on Close; Escape gives focus back.
    const remove = members.getByRole("button", { name: `Remove ${member}` });
    await remove.click();
    const dialog = page.getByRole("dialog", { name: `Remove ${member}?` });
    await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(remove).toBeFocused();

    for (const section of SECTIONS) {
      await nav.getByRole("link", { name: section.link }).click();
      await expect(page).toHaveURL(new RegExp(`${section.path}$`));
      await expect(
        nav.getByRole("link", { name: section.link }),
      ).toHaveAttribute("aria-current", "page");
      await expect(
        page.getByRole("region", { name: section.region, exact: true }),
      ).toBeVisible();
      await atRest(page, `${width.name} ${section.path}`, width.touch);
    }
    // The page's heading took focus on the way (a route change): no box around it.
    const outline = await page.evaluate(() => {
      const h1 = document.querySelector<HTMLElement>("main h1")!;
      h1.focus();
      return getComputedStyle(h1).outlineStyle;
    });
    expect(outline).toBe("none");

    // Back returns to the section before, deep links open theirs.
    await page.goBack();
    await expect(page).toHaveURL(/\/team\/security$/);
    await expect(
      page.getByRole("region", { name: "Second factor" }),
    ).toBeVisible();
    await page.goto("/team/activity");
    await expect(
      page.getByRole("region", { name: "Activity", exact: true }),
    ).toBeVisible();
    await context.close();

    // A plain member: Members alone, no navigation; a section of the admins' is Members at /team.
    const memberContext = await browser.newContext({
      baseURL,
      viewport: width.viewport,
      hasTouch: width.touch,
      isMobile: width.touch,
      reducedMotion: "reduce",
      timezoneId: "UTC",
      locale: "en-US",
    });
    const memberPage = await memberContext.newPage();
    await signIn(memberPage, member);
    await expect(memberPage).toHaveURL(/\/dashboard$/);
    await memberPage.goto("/team/billing");
    await expect(memberPage).toHaveURL(/\/team$/);
    await expect(
      memberPage.getByRole("region", { name: "Members" }),
    ).toBeVisible();
    await expect(
      memberPage.getByRole("navigation", { name: "Team sections" }),
    ).toHaveCount(0);
    for (const region of [
      "Seats & billing",
      "Adoption",
      "Activity",
      "Second factor",
      "Policies",
      "Invitations",
    ])
      await expect(
        memberPage.getByRole("region", { name: region, exact: true }),
      ).toHaveCount(0);
    await atRest(memberPage, `${width.name} a member's /team`, width.touch);
    await memberContext.close();
  });
}
