// The team policy, end to end in Chromium against the real API and the real desktop client: an
// admin sets a recording-consent notice and forbids Zoom on /team → Policies; the member's
// `closewise-desktop call start --app zoom` is refused in the policy's words, `--app meet` starts and
// prints the notice; the adoption line on /team follows the member's device as its heartbeats report
// the policy it obeys; /team → Activity lists the change.

import { expect, signIn, test } from "../support/fixtures";
import { addMember, newPage, paidTeam, signedInDesktop, startedCallId } from "../support/team";

const TEAM = "Consent Sales";
const NOTICE = "This call is recorded with an assistant for note taking. Tell me if you object.";
const EU_NOTICE = "Dieses Gespräch wird mit einem Assistenten aufgezeichnet.";
const ZOOM_REFUSED = "Your team's policy does not allow Closewise in Zoom. Allowed: Google Meet, Microsoft Teams, phone dialers.";

interface Adoption {
  members: { email: string; calls_this_month: number }[];
}

test("an admin sets a consent notice and forbids Zoom; the member's app refuses Zoom in the policy's words, starts in Meet with the notice, and its heartbeat brings /team's adoption line to the current policy", async ({
  page,
  browser,
  helpers,
  baseURL,
}) => {
  const { ownerToken } = await paidTeam(page, helpers, TEAM, 3);
  const admin = await addMember(helpers, ownerToken, "policy-admin", "admin");
  const rep = await addMember(helpers, ownerToken, "policy-rep", "member");
  const repCalls = async () =>
    (await helpers.getJson<Adoption>("/api/team/adoption", ownerToken)).members.find((m) => m.email === rep)?.calls_this_month;

  const desktop = await signedInDesktop(helpers, rep, "Rep laptop");
  try {
    // The default policy: every app, no notice. A Zoom call whose heartbeat reports that policy.
    const before = desktop.ok(["policy"]);
    expect(before).toContain("Consent notice: off");
    expect(before).toContain("Allowed apps: zoom, meet, teams, phone");
    const zoomCall = startedCallId(desktop.ok(["call", "start", "--app", "zoom"]));
    desktop.ok(["call", "heartbeat", zoomCall]);
    desktop.ok(["call", "end", zoomCall]);
    expect(await repCalls()).toBe(1);

    // The admin, in a browser of their own, sees the rep's one device on the current policy.
    const adminPage = await newPage(browser, baseURL!);
    await signIn(adminPage, admin);
    await expect(adminPage).toHaveURL(/\/dashboard$/);
    await adminPage.goto("/team/policy");
    const policies = adminPage.getByRole("region", { name: "Policies" });
    const adoption = policies.getByRole("status");
    await expect(adoption).toContainText("1 of 1 device on the current policy.");

    // A notice shown at the start of every call, a variant for the EU, and Zoom no longer allowed.
    await policies.getByLabel("At the start of every call").selectOption("show");
    await policies.getByLabel("Notice (default)").fill(NOTICE);
    await policies.getByRole("button", { name: "Add a regional notice" }).click();
    await policies.getByLabel("Region", { exact: true }).fill("EU");
    await policies.getByLabel("Notice for EU").fill(EU_NOTICE);
    await policies.getByRole("checkbox", { name: "Zoom" }).uncheck();
    await policies.getByRole("button", { name: "Save policy" }).click();
    await expect(adminPage.getByRole("status").filter({ hasText: "Policy saved" })).toBeVisible();
    // The device still reports the policy before the change: behind, seen today.
    await expect(adoption).toContainText("0 of 1 device on the current policy; 1 last seen today.");
    await expect(policies.getByRole("checkbox", { name: "Zoom" })).not.toBeChecked();
    await expect(policies.getByLabel("Notice (default)")).toHaveValue(NOTICE);

    // The member's app: what applies, Zoom refused in the policy's words (and no call recorded),
    // Meet started with the notice.
    const applies = desktop.ok(["policy"]);
    expect(applies).toContain(`Consent notice (show): ${NOTICE}`);
    expect(applies).toContain("Allowed apps: meet, teams, phone");
    expect(desktop.ok(["policy", "--region", "DE"])).toContain(`Consent notice (show): ${EU_NOTICE}`);

    const zoom = desktop.run(["call", "start", "--app", "zoom"]);
    expect(zoom.status, zoom.stdout + zoom.stderr).not.toBe(0);
    expect(zoom.stderr).toContain(ZOOM_REFUSED);
    expect(zoom.stdout).not.toContain("Call started");
    expect(await repCalls()).toBe(1);

    const meet = desktop.ok(["call", "start", "--app", "meet"]);
    expect(meet).toContain(`Consent notice (shown): ${NOTICE}`);
    expect(meet.indexOf("Consent notice")).toBeLessThan(meet.indexOf("Call started"));
    const meetCall = startedCallId(meet);
    expect(await repCalls()).toBe(2);

    // Its heartbeat reports the new policy: the admin's /team shows the device on it.
    desktop.ok(["call", "heartbeat", meetCall]);
    await adminPage.reload();
    await expect(adoption).toContainText("1 of 1 device on the current policy.");
    desktop.ok(["call", "end", meetCall]);

    // Activity: the change, by the admin.
    await adminPage.getByRole("navigation", { name: "Team sections" }).getByRole("link", { name: "Activity" }).click();
    const activity = adminPage.getByRole("region", { name: "Activity" });
    await expect(activity.getByRole("listitem").filter({ hasText: `${admin}: team policy changed` })).toHaveCount(1);
  } finally {
    desktop.remove();
  }
});
