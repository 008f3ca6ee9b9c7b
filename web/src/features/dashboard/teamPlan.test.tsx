//! The dashboard with teams (docs/teams.md): a seat in a paid team is the paid plan, "Unlimited Sales Copilot through
//! {team}"; someone in no team is offered to create one.

import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { db, VIA_TEAM } from "../../testing/db";
import { renderApp } from "../../testing/render";

describe("Dashboard and teams", () => {
  it("shows a seat in a paid team as 'Unlimited Sales Copilot through {team}' with a link to /team, and no personal billing", async () => {
    db.createUser({ email: "ana@northwind.example" });
    db.createUser({ email: "bo@northwind.example", entitlements: VIA_TEAM, checkout: "current_plan" });
    db.seedTeam({ owner: "ana@northwind.example", seats: 2, members: [{ email: "bo@northwind.example" }] });
    renderApp("/dashboard", { signedInAs: "bo@northwind.example" });
    const plan = await screen.findByRole("region", { name: "Your Plan" });
    expect(await within(plan).findByText("Unlimited Sales Copilot through Northwind Sales")).toBeInTheDocument();
    expect(within(plan).getByText("Pro Plan")).toBeInTheDocument();
    expect(within(plan).getByRole("link", { name: "View Northwind Sales" })).toHaveAttribute("href", "/team");
    expect(screen.getByRole("link", { name: "Your team" })).toHaveAttribute("href", "/team");
    expect(screen.getByRole("region", { name: "You're All Set!" })).toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Subscription Management" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Upgrade Now" })).not.toBeInTheDocument();
  });

  it("keeps the Free Trial for a member of a team without a paid subscription, with a link to the team", async () => {
    db.createUser({ email: "ana@northwind.example" });
    db.seedTeam({ owner: "ana@northwind.example", members: [{ email: "bo@northwind.example" }] });
    renderApp("/dashboard", { signedInAs: "bo@northwind.example" });
    expect(await screen.findByRole("link", { name: "Your team" })).toHaveAttribute("href", "/team");
    const plan = screen.getByRole("region", { name: "Your Plan" });
    expect(within(plan).getByText("Free Trial")).toBeInTheDocument();
    expect(within(plan).queryByText(/Unlimited Sales Copilot through/)).not.toBeInTheDocument();
  });

  it("offers 'Create a team' to someone in no team", async () => {
    db.createUser({ email: "ana@example.com" });
    renderApp("/dashboard", { signedInAs: "ana@example.com" });
    expect(await screen.findByRole("link", { name: "Create a team" })).toHaveAttribute("href", "/team");
  });

  it("has Team in the user menu", async () => {
    db.createUser({ email: "ana@example.com" });
    const { user } = renderApp("/dashboard", { signedInAs: "ana@example.com" });
    await user.click(await screen.findByRole("button", { name: /User menu/ }));
    expect(screen.getByRole("menuitem", { name: "Team" })).toHaveAttribute("href", "/team");
  });
});
