import { screen, waitFor, within } from "@testing-library/react";
import { http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import { db } from "../../testing/db";
import { renderApp } from "../../testing/render";
import { refuse } from "../../testing/handlers";
import { server } from "../../testing/server";

const OWNER = "ana@northwind.example";

/** Ana owns Northwind Sales (3 seats, paid) with Bo (admin), Cy (member) and a pending invite. */
function seedNorthwind(seats = 4) {
  db.createUser({ email: OWNER });
  return db.seedTeam({
    owner: OWNER,
    seats,
    members: [
      { email: "bo@northwind.example", role: "admin" },
      { email: "cy@northwind.example", role: "member" },
    ],
    invites: [{ email: "rep@northwind.example", role: "member" }],
  });
}

const row = (email: string) => screen.getByRole("rowheader", { name: new RegExp(email) }).closest("tr")!;

describe("/team", () => {
  it("sends signed-out visitors to sign in with next=/team and back", async () => {
    db.createUser({ email: OWNER });
    const { user, router } = renderApp("/team");
    await waitFor(() => expect(router.state.location.pathname).toBe("/signin"));
    expect(new URLSearchParams(router.state.location.search).get("next")).toBe("/team");
    await user.type(await screen.findByLabelText("Email"), OWNER);
    await user.type(screen.getByLabelText("Password"), "secret123");
    await user.click(screen.getByRole("button", { name: "Sign In" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/team"));
    expect(await screen.findByRole("region", { name: "Create a team" })).toBeInTheDocument();
  });

  it("says it is loading, then shows an error with Try again when the team cannot be read", async () => {
    db.createUser({ email: OWNER });
    let fail = true;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.get("*/api/team", async () => {
        await gate;
        if (fail) return HttpResponse.json({ error: { code: "internal", message: "Boom" } }, { status: 500 });
        return HttpResponse.json({ team: null });
      }),
    );
    const { user } = renderApp("/team", { signedInAs: OWNER });
    expect(await screen.findByText("Loading your team...")).toBeInTheDocument();
    release();
    expect(await screen.findByRole("alert")).toHaveTextContent("Could not load your team.");
    fail = false;
    await user.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByRole("region", { name: "Create a team" })).toBeInTheDocument();
  });

  it("creates a team for someone in none; the name is checked first", async () => {
    db.createUser({ email: OWNER });
    const { user } = renderApp("/team", { signedInAs: OWNER });
    const create = await screen.findByRole("region", { name: "Create a team" });
    server.use(refuse("post", "/api/team", 400, "invalid_team_name", "Please enter a team name.", { once: true }));
    await user.click(within(create).getByRole("button", { name: "Create team" }));
    expect(await within(create).findByText("Please enter a team name.")).toBeInTheDocument();
    await user.type(within(create).getByLabelText("Team name"), "  Northwind Sales ");
    await user.click(within(create).getByRole("button", { name: "Create team" }));
    expect(await screen.findByRole("heading", { name: "Northwind Sales", level: 2 })).toBeInTheDocument();
    // No seats before the first purchase: said so, never "1 of 0 used".
    expect(screen.getByText("No seats yet: buy seats to give the team the paid plan")).toBeInTheDocument();
    expect(screen.queryByText(/of 0 used/)).not.toBeInTheDocument();
    expect(screen.getByText("No subscription yet")).toBeInTheDocument();
    await user.click(screen.getByRole("link", { name: "Seats & billing" }));
    expect(await screen.findByRole("button", { name: "Buy seats" })).toBeInTheDocument();
    expect(db.team.teamOf(db.findUser(OWNER)!.user.id)?.name).toBe("Northwind Sales");
  });

  it("says why an unverified user cannot create a team", async () => {
    db.createUser({ email: OWNER, verified: false });
    server.use(refuse("post", "/api/team", 403, "email_not_verified", "Please verify your e-mail address first."));
    const { user } = renderApp("/team", { signedInAs: OWNER });
    await user.type(await screen.findByLabelText("Team name"), "Northwind Sales");
    await user.click(screen.getByRole("button", { name: "Create team" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Please verify your e-mail address first.");
  });

  it("shows the owner everything: name, seats, subscription, members, invitations and owner actions", async () => {
    seedNorthwind();
    const { user } = renderApp("/team", { signedInAs: OWNER });
    expect(await screen.findByRole("heading", { name: "Team", level: 1 })).toBeInTheDocument();
    expect(await screen.findByRole("heading", { name: "Northwind Sales", level: 2 })).toBeInTheDocument();
    expect(screen.getByText("Your role: Owner")).toBeInTheDocument();
    expect(screen.getByText("4 of 4 used")).toBeInTheDocument();
    expect(screen.getByText("Active")).toBeInTheDocument();
    const members = screen.getByRole("table", { name: "Members of Northwind Sales" });
    expect(within(members).getAllByRole("row")).toHaveLength(4);
    expect(within(row(OWNER)).getByText("(you)")).toBeInTheDocument();
    expect(within(row(OWNER)).queryByRole("button", { name: /Remove/ })).not.toBeInTheDocument();
    expect(within(row("bo@northwind.example")).getByRole("combobox", { name: "Role of bo@northwind.example" })).toHaveValue(
      "admin",
    );
    expect(screen.getByRole("button", { name: "Remove bo@northwind.example" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Remove cy@northwind.example" })).toBeInTheDocument();
    const invites = screen.getByRole("list", { name: "Pending invitations" });
    expect(within(invites).getByText("rep@northwind.example")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Rename team" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Transfer ownership" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Delete team" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Leave team" })).not.toBeInTheDocument();
    await user.click(screen.getByRole("link", { name: "Seats & billing" }));
    expect(await screen.findByRole("button", { name: "Change seats" })).toBeInTheDocument();
  });

  it("lets an admin invite and remove members only; no roles, rename, transfer or delete", async () => {
    seedNorthwind();
    renderApp("/team", { signedInAs: "bo@northwind.example" });
    expect(await screen.findByText("Your role: Admin")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Remove cy@northwind.example" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: `Remove ${OWNER}` })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Remove bo@northwind.example" })).not.toBeInTheDocument();
    expect(screen.queryByRole("combobox", { name: /Role of/ })).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Send invitation" })).toBeInTheDocument();
    // Admins invite members; only the owner, who alone changes roles, invites admins.
    const invites = screen.getByRole("region", { name: "Invitations" });
    expect(within(invites).queryByRole("combobox", { name: "Role" })).not.toBeInTheDocument();
    expect(within(invites).getByText("Invited as members.")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Rename team" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Delete team" })).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Leave team" })).toBeInTheDocument();
  });

  it("shows an admin no Buy seats, Change seats or Manage Billing, and whom to ask: the card is the owner's", async () => {
    seedNorthwind();
    renderApp("/team/billing", { signedInAs: "bo@northwind.example" });
    expect(await screen.findByText("Your role: Admin")).toBeInTheDocument();
    expect(
      screen.getByText(
        `Seats are paid with the owner's card, so only the owner buys or changes them. Need more seats? Ask ${OWNER}.`,
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Change seats" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Buy seats" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Manage Billing" })).not.toBeInTheDocument();
    expect(screen.queryByLabelText("Seats", { exact: true })).not.toBeInTheDocument();
  });

  it("shows an admin of a team without a subscription no Buy seats either", async () => {
    db.createUser({ email: OWNER });
    db.seedTeam({ owner: OWNER, seats: 2, members: [{ email: "bo@northwind.example", role: "admin" }] });
    renderApp("/team/billing", { signedInAs: "bo@northwind.example" });
    expect(await screen.findByText("Your role: Admin")).toBeInTheDocument();
    expect(screen.getByText(/only the owner buys or changes them/)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Buy seats" })).not.toBeInTheDocument();
  });

  it("shows a member a read-only team: no invitations, seat changes or removals", async () => {
    seedNorthwind();
    renderApp("/team", { signedInAs: "cy@northwind.example" });
    expect(await screen.findByText("Your role: Member")).toBeInTheDocument();
    expect(screen.getByRole("table", { name: "Members of Northwind Sales" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /^Remove/ })).not.toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Invitations" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Change seats" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Buy seats" })).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Leave team" })).toBeInTheDocument();
  });

  it("renames the team (owner)", async () => {
    seedNorthwind();
    const { user } = renderApp("/team", { signedInAs: OWNER });
    await user.click(await screen.findByRole("button", { name: "Rename team" }));
    const field = screen.getByLabelText("Team name");
    expect(field).toHaveFocus();
    await user.clear(field);
    await user.type(field, "Northwind EMEA");
    await user.click(screen.getByRole("button", { name: "Save name" }));
    expect(await screen.findByRole("heading", { name: "Northwind EMEA", level: 2 })).toBeInTheDocument();
  });

  it("invites by e-mail and role, and shows the server's seats_taken message", async () => {
    seedNorthwind(5);
    const { user } = renderApp("/team", { signedInAs: OWNER });
    const invites = await screen.findByRole("region", { name: "Invitations" });
    await user.type(within(invites).getByLabelText("Email"), "dee@northwind.example");
    await user.selectOptions(within(invites).getByLabelText("Role"), "admin");
    await user.click(within(invites).getByRole("button", { name: "Send invitation" }));
    expect(await screen.findByText("Invitation sent to dee@northwind.example")).toBeInTheDocument();
    expect(await within(invites).findByText("dee@northwind.example")).toBeInTheDocument();
    expect(db.lastMailTo("dee@northwind.example")?.link).toMatch(/\/invite\?token=inv_/);
    expect(screen.getByText("5 of 5 used")).toBeInTheDocument();

    await user.type(within(invites).getByLabelText("Email"), "eve@northwind.example");
    await user.click(within(invites).getByRole("button", { name: "Send invitation" }));
    expect(await within(invites).findByRole("alert")).toHaveTextContent(
      "All 5 seats are taken. Add seats to invite more people.",
    );
  });

  it("says a member of the team is one already, and takes no seat", async () => {
    seedNorthwind(5);
    const { user } = renderApp("/team", { signedInAs: OWNER });
    const invites = await screen.findByRole("region", { name: "Invitations" });
    expect(await screen.findByText("4 of 5 used")).toBeInTheDocument();
    server.use(
      refuse("post", "/api/team/invites", 409, "already_member", "cy@northwind.example is already a member of this team."),
    );
    await user.type(within(invites).getByLabelText("Email"), "Cy@Northwind.example");
    await user.click(within(invites).getByRole("button", { name: "Send invitation" }));
    expect(await within(invites).findByRole("alert")).toHaveTextContent("cy@northwind.example is already a member of this team.");
    expect(screen.getByText("4 of 5 used")).toBeInTheDocument();
    expect(db.lastMailTo("cy@northwind.example")).toBeUndefined();
  });

  it("checks the address before inviting", async () => {
    seedNorthwind(5);
    const { user } = renderApp("/team", { signedInAs: OWNER });
    const invites = await screen.findByRole("region", { name: "Invitations" });
    await user.type(within(invites).getByLabelText("Email"), "not-an-address");
    await user.click(within(invites).getByRole("button", { name: "Send invitation" }));
    expect(await within(invites).findByText("Please enter a valid email address")).toBeInTheDocument();
  });

  it("resends and revokes a pending invitation", async () => {
    const { tokens } = seedNorthwind();
    const invite = db.team.inviteByToken(tokens[0]!)!;
    const { user } = renderApp("/team", { signedInAs: OWNER });
    await user.click(await screen.findByRole("button", { name: "Resend invitation to rep@northwind.example" }));
    expect(await screen.findByText("Invitation sent to rep@northwind.example again")).toBeInTheDocument();
    expect(invite.token).not.toBe(tokens[0]);
    const wait = "For security purposes, you can only request this after 58 seconds.";
    server.use(refuse("post", "/api/team/invites/{id}/resend", 429, "rate_limited", wait, { headers: { "Retry-After": "58" } }));
    await user.click(screen.getByRole("button", { name: "Resend invitation to rep@northwind.example" }));
    expect(await screen.findByText(/you can only request this after/)).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Revoke invitation to rep@northwind.example" }));
    expect(await screen.findByText("No pending invitations.")).toBeInTheDocument();
    expect(screen.getByText("3 of 4 used")).toBeInTheDocument();
  });

  it("changes a member's role (owner) and removes a member after confirmation", async () => {
    seedNorthwind();
    const { user } = renderApp("/team", { signedInAs: OWNER });
    await user.selectOptions(await screen.findByRole("combobox", { name: "Role of cy@northwind.example" }), "admin");
    expect(await screen.findByText("cy@northwind.example is an admin now")).toBeInTheDocument();
    expect(db.team.membershipOf(db.findUser("cy@northwind.example")!.user.id)?.role).toBe("admin");

    await user.click(screen.getByRole("button", { name: "Remove bo@northwind.example" }));
    const dialog = screen.getByRole("dialog", { name: "Remove bo@northwind.example?" });
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Remove bo@northwind.example" }));
    await user.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Remove" }));
    await waitFor(() => expect(screen.queryByRole("rowheader", { name: /bo@northwind/ })).not.toBeInTheDocument());
    expect(db.team.membershipOf(db.findUser("bo@northwind.example")!.user.id)).toBeUndefined();
    // The button that opened the dialog went with the row: focus goes to the list's heading.
    await waitFor(() => expect(screen.getByRole("heading", { name: "Members", level: 2 })).toHaveFocus());
  });

  it("lets a member leave after confirming, and then offers to create a team", async () => {
    seedNorthwind();
    const { user } = renderApp("/team", { signedInAs: "cy@northwind.example" });
    await user.click(await screen.findByRole("button", { name: "Leave team" }));
    const dialog = screen.getByRole("dialog", { name: "Leave Northwind Sales?" });
    await user.click(within(dialog).getByRole("button", { name: "Leave team" }));
    expect(await screen.findByText("You left Northwind Sales")).toBeInTheDocument();
    expect(await screen.findByRole("region", { name: "Create a team" })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole("heading", { name: "Team", level: 1 })).toHaveFocus());
  });

  it("says why someone who became the owner meanwhile cannot leave, and shows them as the owner", async () => {
    const { team } = seedNorthwind();
    const { user } = renderApp("/team", { signedInAs: "cy@northwind.example" });
    await user.click(await screen.findByRole("button", { name: "Leave team" }));
    // Ana handed the team to Cy in another tab.
    const cy = db.team.membershipOf(db.findUser("cy@northwind.example")!.user.id)!;
    const ana = db.team.membershipOf(db.findUser(OWNER)!.user.id)!;
    [cy.role, ana.role, team.ownerId] = ["owner", "admin", cy.userId];
    const dialog = screen.getByRole("dialog", { name: "Leave Northwind Sales?" });
    await user.click(within(dialog).getByRole("button", { name: "Leave team" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent(
      "The owner cannot leave the team. Transfer it to another member first.",
    );
    expect(await screen.findByText("Your role: Owner")).toBeInTheDocument();
    // Leave team is gone with the new role: closing the dialog puts focus on the section's heading.
    expect(screen.getAllByRole("button", { name: "Leave team" })).toEqual([
      within(dialog).getByRole("button", { name: "Leave team" }),
    ]);
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.getByRole("heading", { name: "Ownership", level: 2 })).toHaveFocus());
  });

  it("closes the Leave dialog and reads the team again when the caller is in it no longer", async () => {
    seedNorthwind();
    const { user, settled } = renderApp("/team", { signedInAs: "cy@northwind.example" });
    await user.click(await screen.findByRole("button", { name: "Leave team" }));
    await settled();
    // Removed by the owner in the meantime.
    db.team.members = db.team.members.filter((m) => m.userId !== db.findUser("cy@northwind.example")!.user.id);
    const dialog = screen.getByRole("dialog", { name: "Leave Northwind Sales?" });
    await user.click(within(dialog).getByRole("button", { name: "Leave team" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(await screen.findByRole("region", { name: "Create a team" })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole("heading", { name: "Team", level: 1 })).toHaveFocus());
  });

  it("takes someone who left meanwhile out of the transfer picker after the API says they are not a member", async () => {
    seedNorthwind();
    const { user, settled } = renderApp("/team", { signedInAs: OWNER });
    await user.click(await screen.findByRole("button", { name: "Transfer ownership" }));
    const dialog = screen.getByRole("dialog", { name: "Transfer ownership" });
    await user.selectOptions(within(dialog).getByLabelText("New owner"), "cy@northwind.example");
    await settled();
    db.team.members = db.team.members.filter((m) => m.userId !== db.findUser("cy@northwind.example")!.user.id);
    await user.click(within(dialog).getByRole("button", { name: "Transfer ownership" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent("There is no such team.");
    await waitFor(() => expect(within(dialog).queryByRole("option", { name: "cy@northwind.example" })).not.toBeInTheDocument());
    expect(within(dialog).getByLabelText("New owner")).toHaveValue(db.findUser("bo@northwind.example")!.user.id);
    await user.click(within(dialog).getByRole("button", { name: "Transfer ownership" }));
    expect(await screen.findByText("Your role: Admin")).toBeInTheDocument();
  });

  it("transfers ownership: the owner becomes an admin", async () => {
    seedNorthwind();
    const { user } = renderApp("/team", { signedInAs: OWNER });
    await user.click(await screen.findByRole("button", { name: "Transfer ownership" }));
    const dialog = screen.getByRole("dialog", { name: "Transfer ownership" });
    await user.selectOptions(within(dialog).getByLabelText("New owner"), "cy@northwind.example");
    await user.click(within(dialog).getByRole("button", { name: "Transfer ownership" }));
    expect(await screen.findByText("Your role: Admin")).toBeInTheDocument();
    expect(db.team.membershipOf(db.findUser("cy@northwind.example")!.user.id)?.role).toBe("owner");
  });

  it("deletes the team with the password; a wrong one is said next to the field", async () => {
    seedNorthwind();
    const { user } = renderApp("/team", { signedInAs: OWNER });
    await user.click(await screen.findByRole("button", { name: "Delete team" }));
    const dialog = screen.getByRole("dialog", { name: "Delete Northwind Sales?" });
    await user.click(within(dialog).getByRole("button", { name: "Delete team" }));
    expect(await within(dialog).findByText("Password is required")).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText("Password", { exact: true }), "wrong");
    await user.click(within(dialog).getByRole("button", { name: "Delete team" }));
    expect(await within(dialog).findByText("Password is incorrect")).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText("Password", { exact: true }));
    await user.type(within(dialog).getByLabelText("Password", { exact: true }), "secret123");
    await user.click(within(dialog).getByRole("button", { name: "Delete team" }));
    expect(await screen.findByRole("region", { name: "Create a team" })).toBeInTheDocument();
    expect(db.team.teams.size).toBe(0);
    await waitFor(() => expect(screen.getByRole("heading", { name: "Team", level: 1 })).toHaveFocus());
  });
});
