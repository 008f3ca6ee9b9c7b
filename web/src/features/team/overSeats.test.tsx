//! Seats never fall below members: when Stripe lowered the team's seats below
//! its members, /team says so — to the owner with how many seats are missing and the two ways out —
//! and an invite is refused with the API's `team_over_seats` message.

import { screen, within } from "@testing-library/react";
import { http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import { db } from "../../testing/db";
import { renderApp } from "../../testing/render";
import { refuse } from "../../testing/handlers";
import { server } from "../../testing/server";

const OWNER = "ana@northwind.example";

/** Northwind Sales paid for 3 seats with 3 members, then Stripe lowered the quantity to 1. */
function seedOverSeats() {
  db.createUser({ email: OWNER });
  const over = { over_seats: true, seats_missing: 2 };
  const { team } = db.seedTeam({
    owner: OWNER,
    seats: 3,
    answers: { owner: over, member: over },
    members: [
      { email: "bo@northwind.example", role: "admin" },
      { email: "cy@northwind.example", role: "member" },
    ],
  });
  team.seats = 1;
  return team;
}

describe("/team over seats", () => {
  it("tells the owner how many seats are missing and how to fix it; invites are refused", async () => {
    seedOverSeats();
    const { user } = renderApp("/team", { signedInAs: OWNER });
    const notice = await screen.findByRole("region", { name: "Fewer seats than members" });
    expect(notice).toHaveTextContent(
      "Northwind Sales has 1 seat for 3 members: 2 seats missing. Nobody was removed, but nobody can be invited or join until every member has a seat. Buy 2 more in Seats & billing, or remove members.",
    );
    expect(screen.getAllByRole("rowheader")).toHaveLength(3);
    const invites = screen.getByRole("region", { name: "Invitations" });
    const missing = "The team has fewer seats than members (2 missing). Add seats or remove members before anyone else joins.";
    server.use(refuse("post", "/api/team/invites", 409, "team_over_seats", missing));
    await user.type(within(invites).getByLabelText("Email"), "new@northwind.example");
    await user.click(within(invites).getByRole("button", { name: "Send invitation" }));
    expect(await within(invites).findByRole("alert")).toHaveTextContent(
      "The team has fewer seats than members (2 missing). Add seats or remove members before anyone else joins.",
    );
  });

  it("tells a member only that invitations are paused", async () => {
    seedOverSeats();
    renderApp("/team", { signedInAs: "cy@northwind.example" });
    const notice = await screen.findByRole("region", { name: "Fewer seats than members" });
    expect(notice).toHaveTextContent("invitations and join requests are paused until the owner adds seats");
    expect(notice).not.toHaveTextContent("missing");
  });

  it("renders the API's fields as they come (a fixture of GET /api/team)", async () => {
    db.createUser({ email: OWNER });
    server.use(
      http.get("*/api/team", async () => {
        return HttpResponse.json({
          team: {
            id: "2b7c7a3e-3f0e-4c55-9d6e-0a3c1b0c9f11",
            name: "Northwind Sales",
            role: "owner",
            seats: { total: 2, used: 5, free: 0 },
            seat_range: { min: 5, max: 10000 },
            subscription: { status: "active", current_period_end: 1795000000, cancel_at_period_end: false },
            paid: true,
            payment_failed: false,
            may: {
              rename: true,
              invite: true,
              approve_join: true,
              configure_domain_join: true,
              leave: false,
              transfer: true,
              delete: true,
              manage_billing: true,
              buy_seats: false,
              change_seats: true,
            },
            invite_roles: ["member", "admin"],
            join_domain: null,
            domain_join_offer: null,
            personal_subscription: false,
            personal_subscription_overlap: false,
            over_seats: true,
            seats_missing: 3,
            members: [],
            members_count: 0,
            members_with_mfa: 0,
            members_next: null,
            invites: [],
            invites_count: 0,
            invites_next: null,
            owner_email: OWNER,
          },
        });
      }),
    );
    renderApp("/team", { signedInAs: OWNER });
    expect(await screen.findByRole("region", { name: "Fewer seats than members" })).toHaveTextContent(
      "Northwind Sales has 2 seats for 0 members: 3 seats missing.",
    );
  });

  it("shows no notice while the seats cover the members", async () => {
    db.createUser({ email: OWNER });
    db.seedTeam({ owner: OWNER, seats: 3, members: [{ email: "bo@northwind.example" }] });
    renderApp("/team", { signedInAs: OWNER });
    expect(await screen.findByRole("rowheader", { name: new RegExp(OWNER) })).toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Fewer seats than members" })).not.toBeInTheDocument();
  });
});
