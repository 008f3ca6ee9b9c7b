//! The server decides, the web renders: /team offers exactly what the `Team`
//! answer's decisions say (`may`, `invite_roles`, each member's `may_remove` and `may_change_role`,
//! `seat_range`, `payment_failed`), whatever the caller's role would suggest. Fixtures of
//! GET /api/team, deliberately at odds with the role, so that only the fields can explain the screen.

import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import type { Team, TeamMember, TeamPermissions } from "../../lib/api/types";
import { db } from "../../testing/db";
import { renderApp } from "../../testing/render";
import { server } from "../../testing/server";

const ME = "ana@northwind.example";

const NOTHING: TeamPermissions = {
  rename: false,
  invite: false,
  approve_join: false,
  configure_domain_join: false,
  leave: false,
  transfer: false,
  delete: false,
  manage_billing: false,
  buy_seats: false,
  change_seats: false,
  start_trial: false,
  pay_by_invoice: false,
  require_mfa: false,
  remove_members: false,
  set_policy: false,
  manage_domains: false,
  manage_scim: false,
  configure_sso: false,
  manage_streams: false,
  view_adoption: false,
  view_activity: false,
  view_invoices: false,
  edit_billing_details: false,
};

/** The console's gated sections, each shown on its `may` flag. */
const GATED = {
  manage_domains: "Security",
  manage_scim: "Security: SCIM tokens",
  configure_sso: "Single sign-on",
  set_policy: "Policies",
  view_adoption: "Adoption",
  view_activity: "Activity",
} as const;
/** The console section (its navigation link) each gated region is in. */
const LINK_OF: Record<keyof typeof GATED, string> = {
  manage_domains: "Security",
  manage_scim: "Security",
  configure_sso: "Security",
  set_policy: "Policy",
  view_adoption: "Usage",
  view_activity: "Activity",
};
const EVERY_GATE: TeamPermissions = { ...NOTHING, ...Object.fromEntries(Object.keys(GATED).map((f) => [f, true])) };

/** Each address its own id, as the server gives them. */
const ids = new Map<string, string>();
function member(email: string, role: TeamMember["role"], may_remove: boolean, may_change_role: boolean): TeamMember {
  if (!ids.has(email)) ids.set(email, `00000000-0000-4000-8000-${String(ids.size + 1).padStart(12, "0")}`);
  const user_id = ids.get(email)!;
  return {
    user_id,
    email,
    role,
    joined_at: "2026-11-01T10:00:00Z",
    calls_this_month: 0,
    may_remove,
    may_change_role,
    mfa: false,
  };
}

function serve(team: Partial<Team>, path = "/team") {
  db.createUser({ email: ME });
  const body: Team = {
    id: "2b7c7a3e-3f0e-4c55-9d6e-0a3c1b0c9f11",
    name: "Northwind Sales",
    role: "member",
    seats: { total: 4, used: 3, free: 1 },
    seat_range: { min: 3, max: 10000 },
    subscription: { status: "active", current_period_end: 1795000000, cancel_at_period_end: false },
    paid: true,
    payment_failed: false,
    invoice_min_seats: 10,
    may: NOTHING,
    invite_roles: [],
    join_domain: null,
    domain_join_offer: null,
    personal_subscription: false,
    personal_subscription_overlap: false,
    over_seats: false,
    seats_missing: 0,
    mfa_required: false,
    members: [member(ME, "member", false, false), member("bo@northwind.example", "member", false, false)],
    members_count: 2,
    members_with_mfa: 0,
    members_next: null,
    invites: [],
    invites_count: 0,
    invites_next: null,
    owner_email: "bo@northwind.example",
    ...team,
  };
  server.use(http.get("*/api/team", () => HttpResponse.json({ team: body })));
  renderApp(path, { signedInAs: ME });
}

describe("/team renders the server's decisions", () => {
  it("offers a member nothing but what `may` grants", async () => {
    serve({ may: { ...NOTHING, rename: true, transfer: true } });
    expect(await screen.findByRole("button", { name: "Rename team" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Transfer ownership" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Leave team" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Delete team" })).not.toBeInTheDocument();
  });

  it("shows an owner no billing, no invitations and no rename when `may` denies them", async () => {
    serve({ role: "owner", may: { ...NOTHING, leave: true }, members: [member(ME, "owner", false, false)] });
    expect(await screen.findByRole("button", { name: "Leave team" })).toBeInTheDocument();
    for (const name of ["Rename team", "Buy seats", "Change seats", "Manage Billing", "Delete team"])
      expect(screen.queryByRole("button", { name })).not.toBeInTheDocument();
    expect(screen.queryByRole("textbox", { name: /e-mail/i })).not.toBeInTheDocument();
  });

  it("removes and re-roles exactly the members the answer marks", async () => {
    serve({
      role: "admin",
      may: { ...NOTHING, invite: true, remove_members: true },
      invite_roles: ["member"],
      members: [
        member(ME, "admin", false, false),
        member("bo@northwind.example", "member", false, true),
        member("cy@northwind.example", "admin", true, false),
      ],
    });
    expect(await screen.findByRole("button", { name: "Remove cy@northwind.example" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Remove bo@northwind.example" })).not.toBeInTheDocument();
    expect(screen.getByRole("combobox", { name: "Role of bo@northwind.example" })).toBeInTheDocument();
    expect(screen.queryByRole("combobox", { name: "Role of cy@northwind.example" })).not.toBeInTheDocument();
  });

  it("shows a member every console section their `may` grants", async () => {
    serve({ role: "member", may: EVERY_GATE });
    const user = userEvent.setup();
    for (const [flag, title] of Object.entries(GATED)) {
      await user.click(await screen.findByRole("link", { name: LINK_OF[flag as keyof typeof GATED] }));
      expect(await screen.findByRole("region", { name: title })).toBeInTheDocument();
    }
  }, 30_000);

  it("shows an owner none of the console sections their `may` denies, nor the members' actions", async () => {
    serve({
      role: "owner",
      may: { ...NOTHING, rename: true },
      members: [member(ME, "owner", false, false), member("bo@northwind.example", "member", true, false)],
    });
    expect(await screen.findByRole("button", { name: "Rename team" })).toBeInTheDocument();
    expect(screen.queryByRole("navigation", { name: "Team sections" })).not.toBeInTheDocument();
    for (const title of Object.values(GATED)) expect(screen.queryByRole("region", { name: title })).not.toBeInTheDocument();
    expect(screen.queryByRole("columnheader", { name: "Actions" })).not.toBeInTheDocument();
  });

  it("lists the invitation roles of `invite_roles`", async () => {
    serve({ role: "admin", may: { ...NOTHING, invite: true }, invite_roles: ["member", "admin"] });
    const role = await screen.findByRole("combobox", { name: "Role" });
    expect(
      within(role)
        .getAllByRole("option")
        .map((o) => o.textContent),
    ).toEqual(["Member", "Admin"]);
  });

  it("chooses the seats form by `buy_seats`/`change_seats`, checks the count against `seat_range`, and says a payment failed", async () => {
    serve(
      {
        role: "owner",
        subscription: null,
        payment_failed: true,
        may: { ...NOTHING, buy_seats: true, manage_billing: true },
        seat_range: { min: 3, max: 25 },
        members: [member(ME, "owner", false, false)],
      },
      "/team/billing",
    );
    const seats = await screen.findByLabelText("Seats");
    expect(seats).toHaveAttribute("max", "25");
    expect(screen.getByText(/last payment failed/)).toBeInTheDocument();
    await userEvent.clear(seats);
    await userEvent.type(seats, "30");
    await userEvent.click(screen.getByRole("button", { name: "Buy seats" }));
    expect(await screen.findByText("A team has between 1 and 25 seats.")).toBeInTheDocument();
    await userEvent.clear(seats);
    await userEvent.type(seats, "2");
    await userEvent.click(screen.getByRole("button", { name: "Buy seats" }));
    expect(await screen.findByText("3 seats are in use. Remove members or revoke invites first.")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Change seats" })).not.toBeInTheDocument();
  });
});
