//! /team → Policies: the owner and admins see how many devices obey the current policy
//! and replace the policy whole; the server's 400 names the field; members do not see it.

import { screen, waitFor, within } from "@testing-library/react";
import { http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import { db } from "../../testing/db";
import { renderApp } from "../../testing/render";
import { server } from "../../testing/server";
import { adoptionLine } from "./components/PolicyAdoption";

const OWNER = "ana@northwind.example";
const ADMIN = "bo@northwind.example";
const MEMBER = "cy@northwind.example";

function seed() {
  db.createUser({ email: OWNER });
  return db.seedTeam({
    owner: OWNER,
    seats: 4,
    members: [
      { email: ADMIN, role: "admin" },
      { email: MEMBER, role: "member" },
    ],
  }).team;
}

describe("/team policies", () => {
  it("says how many devices are on the current policy", () => {
    const now = Date.parse("2026-11-26T12:00:00Z");
    const a = { devices: 11, current: 9, behind: 2, behind_last_seen_at: "2026-11-23T10:00:00Z" };
    expect(adoptionLine(a, now)).toBe("9 of 11 devices on the current policy; 2 last seen 3 days ago");
    expect(adoptionLine({ ...a, current: 11, behind: 0, behind_last_seen_at: null }, now)).toBe(
      "11 of 11 devices on the current policy",
    );
  });

  it("an admin sets a consent notice and forbids Zoom; the sign-in rules are not the form's", async () => {
    const team = seed();
    const { user } = renderApp("/team/policy", { signedInAs: ADMIN });
    const section = await screen.findByRole("region", { name: "Policies" });
    expect(await within(section).findByText(/0 of 0 devices on the current policy/)).toBeInTheDocument();
    // The sign-in rules are Security's (the owner's), not the policy form's.
    expect(within(section).queryByLabelText(/Require a second factor/)).not.toBeInTheDocument();
    expect(within(section).queryByLabelText(/Require SSO/)).not.toBeInTheDocument();
    await user.selectOptions(within(section).getByLabelText("At the start of every call"), "show");
    await user.type(within(section).getByLabelText("Notice (default)"), "This call is recorded.");
    await user.click(within(section).getByLabelText("Zoom"));
    await user.click(within(section).getByRole("button", { name: "Save policy" }));
    await waitFor(() => expect(team.policy?.policy.allowed_apps).toEqual(["meet", "teams", "phone"]));
    expect(team.policy?.policy.consent_notice).toEqual({ mode: "show", text: "This call is recorded.", regions: {} });
    expect(team.policy?.updated_by).toBe(ADMIN);
  });

  it("shows the server's message naming the wrong field", async () => {
    seed();
    server.use(
      http.put("*/api/team/policy", () =>
        HttpResponse.json(
          { error: { code: "invalid_policy", message: "consent_notice.regions.US-XX: not a region" } },
          { status: 400 },
        ),
      ),
    );
    const { user } = renderApp("/team/policy", { signedInAs: OWNER });
    const section = await screen.findByRole("region", { name: "Policies" });
    await user.click(await within(section).findByRole("button", { name: "Save policy" }));
    expect(await within(section).findByRole("alert")).toHaveTextContent("consent_notice.regions.US-XX: not a region");
  });

  it("is not shown to members", async () => {
    seed();
    renderApp("/team/policy", { signedInAs: MEMBER });
    await screen.findByRole("region", { name: "Members" });
    expect(screen.queryByRole("region", { name: "Policies" })).not.toBeInTheDocument();
  });
});
