//! The team's MFA rule on /team/security: the owner and admins see who has a second factor (plain members see
//! no Security section, and the API answers them no one's factor); the owner alone turns
//! "Require a second factor" on and off (`PUT /api/team/mfa-policy`), and the members' Settings then
//! say that the team requires one.

import { screen, waitFor, within } from "@testing-library/react";
import { http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import { db } from "../../testing/db";
import { seedTotp } from "../../testing/handlers/mfa";
import { renderApp } from "../../testing/render";
import { server } from "../../testing/server";
import { REQUIRE_FACTOR_LABEL, REQUIRED_TEXT } from "./components/MfaPolicy";

const OWNER = "ana@example.com";
const ADMIN = "bo@example.com";
const MEMBER = "cy@example.com";

function seed() {
  db.createUser({ email: OWNER });
  const { team } = db.seedTeam({
    owner: OWNER,
    seats: 3,
    members: [
      { email: ADMIN, role: "admin" },
      { email: MEMBER, role: "member" },
    ],
    invites: [],
  });
  seedTotp(ADMIN);
  return team;
}

const factorOf = (list: HTMLElement, email: string) => within(list).getByText(email).closest("li")!.textContent;

describe("/team second factor", () => {
  it("shows who has a second factor, and the owner requires one and stops requiring it", async () => {
    const team = seed();
    const { user } = renderApp("/team/security", { signedInAs: OWNER });
    const section = await screen.findByRole("region", { name: "Second factor" });
    const list = within(section).getByRole("list", { name: "Who has a second factor" });
    expect(factorOf(list, ADMIN)).toContain("Second factor on");
    expect(factorOf(list, MEMBER)).toContain("No second factor");
    expect(factorOf(list, OWNER)).toContain("No second factor");
    const toggle = within(section).getByRole("switch", { name: REQUIRE_FACTOR_LABEL });
    expect(toggle).not.toBeChecked();
    expect(within(section).queryByText(REQUIRED_TEXT)).not.toBeInTheDocument();

    await user.click(toggle);
    await waitFor(() => expect(within(section).getByRole("switch", { name: REQUIRE_FACTOR_LABEL })).toBeChecked());
    expect(team.requireMfa).toBe(true);
    expect(within(section).getByText(REQUIRED_TEXT)).toBeInTheDocument();
    expect(within(section).getByText("2 members have not set one up yet.")).toBeInTheDocument();

    await user.click(within(section).getByRole("switch", { name: REQUIRE_FACTOR_LABEL }));
    await waitFor(() => expect(within(section).getByRole("switch", { name: REQUIRE_FACTOR_LABEL })).not.toBeChecked());
    expect(team.requireMfa).toBe(false);
  });

  it("offers no switch to admins, who see the rule; a plain member has no Security section", async () => {
    const team = seed();
    team.requireMfa = true;
    const { unmount } = renderApp("/team/security", { signedInAs: ADMIN });
    const section = await screen.findByRole("region", { name: "Second factor" });
    expect(within(section).getByText(REQUIRED_TEXT)).toBeInTheDocument();
    expect(within(section).queryByRole("switch")).not.toBeInTheDocument();
    unmount();
    renderApp("/team/security", { signedInAs: MEMBER });
    await screen.findByRole("region", { name: "Members" });
    expect(screen.queryByRole("region", { name: "Second factor" })).not.toBeInTheDocument();
  });

  it("shows an admin who has a second factor, and a plain member nobody's", async () => {
    seed();
    const { unmount } = renderApp("/team/security", { signedInAs: ADMIN });
    const section = await screen.findByRole("region", { name: "Second factor" });
    expect(factorOf(within(section).getByRole("list", { name: "Who has a second factor" }), ADMIN)).toContain("Second factor on");
    unmount();
    renderApp("/team/security", { signedInAs: MEMBER });
    await screen.findByRole("region", { name: "Members" });
    expect(screen.queryByRole("list", { name: "Who has a second factor" })).not.toBeInTheDocument();
    expect(document.body.textContent).not.toMatch(/Second factor on|No second factor|not set one up/);
  });

  it("says why nothing changed when the server refuses", async () => {
    const team = seed();
    server.use(
      http.put("*/api/team/mfa-policy", () =>
        HttpResponse.json({ error: { code: "internal", message: "Something went wrong" } }, { status: 500 }),
      ),
    );
    const { user } = renderApp("/team/security", { signedInAs: OWNER });
    const section = await screen.findByRole("region", { name: "Second factor" });
    await user.click(within(section).getByRole("switch", { name: REQUIRE_FACTOR_LABEL }));
    expect(await within(section).findByRole("alert")).toBeInTheDocument();
    expect(team.requireMfa).toBeFalsy();
    expect(within(section).getByRole("switch", { name: REQUIRE_FACTOR_LABEL })).not.toBeChecked();
  });

  it("tells a member of a team that requires a factor to set one up in Settings", async () => {
    seed().requireMfa = true;
    renderApp("/settings", { signedInAs: MEMBER });
    expect(await screen.findByText(/Your team requires two-step verification/)).toBeInTheDocument();
  });
});
