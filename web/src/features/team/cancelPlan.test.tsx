//! The team's plan cancelled at the period's end by whoever may manage the team's billing, with a
//! reason, then resumed; nobody else is offered either.

import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { db } from "../../testing/db";
import { renderApp } from "../../testing/render";

const OWNER = "ana@northwind.example";
const ADMIN = "bo@northwind.example";

function seedPaidTeam() {
  db.createUser({ email: OWNER });
  db.createUser({ email: ADMIN });
  return db.seedTeam({ owner: OWNER, seats: 3, members: [{ email: ADMIN, role: "admin" }] }).team;
}

describe("/team: cancelling the team's plan", () => {
  it("the owner cancels with a reason and resumes", async () => {
    const team = seedPaidTeam();
    const { user } = renderApp("/team/billing", { signedInAs: OWNER });
    await user.click(await screen.findByRole("button", { name: "Cancel plan" }));
    const dialog = screen.getByRole("dialog", { name: "Cancel your plan?" });
    await within(dialog).findByRole("option", { name: "I'm moving to another tool" });
    await user.selectOptions(within(dialog).getByLabelText("Why are you cancelling? (optional)"), "I'm moving to another tool");
    await user.click(within(dialog).getByRole("button", { name: "Cancel plan" }));

    expect(await screen.findByText(/^Your plan ends on /)).toBeInTheDocument();
    expect(team.subscription).toMatchObject({ cancel_at_period_end: true, cancellation_reason: "switched_service" });

    await user.click(screen.getByRole("button", { name: "Resume plan" }));
    expect(await screen.findByRole("button", { name: "Cancel plan" })).toBeInTheDocument();
    expect(team.subscription).toMatchObject({ cancel_at_period_end: false, cancellation_reason: null });
  });

  it("is not offered to an admin", async () => {
    seedPaidTeam();
    renderApp("/team/billing", { signedInAs: ADMIN });
    await screen.findByRole("heading", { name: "Northwind Sales" });
    expect(screen.queryByRole("button", { name: "Cancel plan" })).not.toBeInTheDocument();
  });
});
