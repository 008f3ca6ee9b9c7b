// The team's adoption report and seats, end to end in Chromium against the real API and stripe-mock: two
// members make calls (one with the real closewise-desktop, one through the calls API the app uses),
// a third joined over 30 days ago and has neither called nor signed in since; /team → Adoption lists each
// with their calls and minutes, marks the third idle and the others new (`closewise_domain::idle_seats::seat_use`);
// the owner reclaims the idle seat through Stripe's preview, confirmed; the seats go from 4 to 3 on
// /team and on stripe-mock's subscription; /team → Activity lists the removal and the seat change.

import type { Locator } from "@playwright/test";
import { expect, test, type Helpers } from "../support/fixtures";
import { addMember, paidTeam, signedInDesktop, startedCallId, stripe, stripeSeats, type TeamBody } from "../support/team";

const TEAM = "Adoption Sales";

/** Seconds as the report's minutes: whole minutes, a started minute counting. */
const minutes = (seconds: number) => Math.ceil(seconds / 60);

/** A call through `POST /api/calls`, a heartbeat and the end, as the desktop app makes them; its seconds. */
async function apiCall(helpers: Helpers, token: string, clientCallId: string): Promise<number> {
  const started = await helpers.postJson<{ call_id: string }>("/api/calls", token, { client_call_id: clientCallId });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const beat = await helpers.postJson("/api/calls/" + started.body.call_id + "/heartbeat", token, {});
  expect(beat.status, JSON.stringify(beat.body)).toBe(200);
  const ended = await helpers.postJson<{ duration_seconds: number }>(`/api/calls/${started.body.call_id}/end`, token, {});
  expect(ended.status, JSON.stringify(ended.body)).toBe(200);
  return ended.body.duration_seconds;
}

/** The adoption table's cells of `email`'s row: member, last active, calls and minutes this month, the month before, devices, second factor. */
function adoptionRow(adoption: Locator, email: string) {
  const row = adoption.getByRole("row").filter({ hasText: email });
  return { row, cell: (i: number) => row.getByRole("cell").nth(i) };
}

test("two members' calls on /team → Adoption; the idle member reclaimed through Stripe's preview lowers the seats from 4 to 3; Activity lists it", async ({
  page,
  helpers,
}) => {
  const { owner, ownerToken } = await paidTeam(page, helpers, TEAM, 4);
  const ana = await addMember(helpers, ownerToken, "adoption-ana", "member");
  const ben = await addMember(helpers, ownerToken, "adoption-ben", "member");
  const cleo = await addMember(helpers, ownerToken, "adoption-cleo", "member");
  const teamId = (await helpers.getJson<TeamBody>("/api/team", ownerToken)).team!.id;
  expect(await stripeSeats(helpers, teamId)).toBe(4);

  // Ana: two calls with the desktop app, each ended with the seconds the server counted.
  const desktop = await signedInDesktop(helpers, ana, "Ana's laptop");
  let anaSeconds = 0;
  try {
    for (const app of ["meet", "phone"]) {
      const id = startedCallId(desktop.ok(["call", "start", "--app", app]));
      desktop.ok(["call", "heartbeat", id]);
      const ended = desktop.ok(["call", "end", id]).match(/ended: (\d+) s$/m);
      expect(ended, "call end prints the seconds").toBeTruthy();
      anaSeconds += Number(ended![1]);
    }
  } finally {
    desktop.remove();
  }
  // Ben: one call through the API the app uses. Cleo: none, in the team 40 days without signing in.
  const benSeconds = await apiCall(helpers, await helpers.accessToken(ben), `adoption-ben-${Date.now()}`);
  helpers.backdateMember(cleo, 40);

  await page.goto("/team/usage");
  const adoption = page.getByRole("region", { name: "Adoption", exact: true });
  const anaRow = adoptionRow(adoption, ana);
  const benRow = adoptionRow(adoption, ben);
  const cleoRow = adoptionRow(adoption, cleo);
  await expect(anaRow.cell(2)).toHaveText("2");
  await expect(anaRow.cell(3)).toHaveText(String(minutes(anaSeconds)));
  await expect(anaRow.cell(6)).toHaveText("1"); // the desktop app signed in
  await expect(benRow.cell(2)).toHaveText("1");
  await expect(benRow.cell(3)).toHaveText(String(minutes(benSeconds)));
  await expect(cleoRow.cell(2)).toHaveText("0");
  // Ana, Ben and the owner (who signed in today) joined minutes ago: new, never idle.
  for (const row of [anaRow, benRow, adoptionRow(adoption, owner)]) {
    await expect(row.cell(0)).toContainText("New");
    await expect(row.cell(0)).not.toContainText("Idle");
  }
  await expect(cleoRow.cell(0)).toContainText("Idle");
  await expect(adoption.getByRole("row").filter({ hasText: "Total" })).toContainText("Total (4 members, 1 idle, 3 new)");
  await expect(adoption.getByRole("row").filter({ hasText: "Total" }).getByRole("cell").nth(2)).toHaveText("3");
  await expect(adoption.getByText("Reclaiming removes 1 idle member: 4 seats become 3, saving $20.00 a month.")).toBeVisible();
  await expect(page.getByText("4 of 4 used")).toBeVisible();

  // Reclaim: Stripe's preview for Cleo's seat, then confirmed.
  await adoption.getByRole("button", { name: "Reclaim idle seats" }).click();
  const dialog = page.getByRole("dialog", { name: "Reclaim idle seats" });
  await expect(dialog.getByText(`Remove ${cleo} and lower the seats from 4 to 3.`)).toBeVisible();
  await expect(dialog.getByText("Saves $20.00 a month.")).toBeVisible();
  await expect(dialog.getByText(/^Due now: (credit of )?\$\d+\.\d\d\. Next monthly total: \$60\.00\.$/)).toBeVisible();
  await dialog.getByRole("button", { name: "Confirm reclaim" }).click();
  await expect(dialog).toBeHidden();
  await expect(cleoRow.row).toHaveCount(0);
  await expect(page.getByText("3 of 3 used")).toBeVisible();
  await expect(adoption.getByText(/^Reclaiming removes/)).toHaveCount(0);

  const after = (await helpers.getJson<TeamBody>("/api/team", ownerToken)).team!;
  expect(after.seats.total).toBe(3);
  expect(after.members.map((m) => m.email)).not.toContain(cleo);
  expect(await stripeSeats(helpers, teamId)).toBe(3);
  // The next invoice carries the prorated credit for the seat given back.
  const subscriptions = await stripe<{ data: { id: string; metadata: Record<string, string> }[] }>(
    helpers,
    "GET",
    "/v1/subscriptions?limit=100",
  );
  const subscription = subscriptions.data.find((s) => s.metadata.team_id === teamId)!;
  const next = await stripe<{
    lines: { data: { amount: number; parent: { subscription_item_details: { proration: boolean } | null } | null }[] };
  }>(helpers, "POST", "/v1/invoices/create_preview", { subscription: subscription.id });
  const credits = next.lines.data.filter((l) => l.parent?.subscription_item_details?.proration && l.amount < 0);
  expect(credits.length, JSON.stringify(next.lines.data)).toBeGreaterThan(0);

  // Activity: Cleo's removal and the seat change, by the owner; the Seats filter keeps only the latter.
  await page.goto("/team/activity");
  const activity = page.getByRole("region", { name: "Activity" });
  await expect(activity.getByRole("listitem").filter({ hasText: `${owner} removed ${cleo}` })).toHaveCount(1);
  const seatChanges = activity.getByRole("listitem").filter({ hasText: `${owner} reclaimed idle seats: from 4 to 3` });
  await expect(seatChanges).toHaveCount(1);
  await activity.getByLabel("Action").selectOption({ label: "Seats" });
  await expect(seatChanges).toHaveCount(1);
  await expect(activity.getByRole("listitem").filter({ hasText: `removed ${cleo}` })).toHaveCount(0);
});
