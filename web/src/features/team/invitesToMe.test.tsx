//! An invitee's /team: a signed-in user in no team sees the invitations to their address (the team, who
//! invited them, the role) and accepts one there, beside "Create a team".

import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { db } from "../../testing/db";
import { renderApp } from "../../testing/render";

const OWNER = "ana@northwind.example";
const INVITED = "rep@northwind.example";

describe("/team for someone invited", () => {
  it("shows the pending invitation with the team and who invited them, and joins on Accept", async () => {
    db.createUser({ email: OWNER });
    db.createUser({ email: INVITED });
    db.seedTeam({ owner: OWNER, seats: 3, invites: [{ email: INVITED, role: "admin" }] });
    const { user } = renderApp("/team", { signedInAs: INVITED });
    const invites = await screen.findByRole("region", { name: "Your invitations" });
    const row = within(invites).getByRole("listitem");
    expect(row).toHaveTextContent("Northwind Sales");
    expect(row).toHaveTextContent("ana@northwind.example invited you to join as an admin.");
    expect(screen.getByRole("region", { name: "Create a team" })).toBeInTheDocument();
    await user.click(within(row).getByRole("button", { name: "Accept the invitation to Northwind Sales" }));
    expect(await screen.findByRole("heading", { name: "Northwind Sales", level: 2 })).toBeInTheDocument();
    expect(screen.getByText("Your role: Admin")).toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Your invitations" })).not.toBeInTheDocument();
  });

  it("shows nothing more than Create a team to someone with no invitation", async () => {
    db.createUser({ email: INVITED });
    renderApp("/team", { signedInAs: INVITED });
    expect(await screen.findByRole("region", { name: "Create a team" })).toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Your invitations" })).not.toBeInTheDocument();
  });
});
