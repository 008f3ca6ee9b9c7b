//! The team's page says its subscription's discount, and the seat dialog names the new total by
//! the subscription's interval.

import { screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { Discount, Team } from "../../lib/api/types";
import { db } from "../../testing/db";
import { calls } from "../../testing/handlers/teamAdoption";
import { renderApp } from "../../testing/render";

const OWNER = "ana@northwind.example";
const PARTNER: Discount = {
  name: "Partner",
  percent_off: 20,
  amount_off: null,
  currency: null,
  duration: "forever",
  duration_in_months: null,
  ends_at: null,
  label: "20% off forever",
};

function paidTeam(subscription: Partial<NonNullable<Team["subscription"]>>) {
  db.createUser({ email: OWNER });
  const { team } = db.seedTeam({ owner: OWNER, seats: 2 });
  team.subscription = { ...team.subscription!, ...subscription };
}

async function previewFiveSeats() {
  const { user } = renderApp("/team/billing", { signedInAs: OWNER });
  await user.click(await screen.findByRole("button", { name: "Change seats" }));
  const dialog = screen.getByRole("dialog", { name: "Change seats" });
  await user.clear(within(dialog).getByLabelText("Seats"));
  await user.type(within(dialog).getByLabelText("Seats"), "5");
  await user.click(within(dialog).getByRole("button", { name: "Preview" }));
  expect(await within(dialog).findByText("Due now")).toBeInTheDocument();
  return dialog;
}

describe("/team's subscription", () => {
  afterEach(() => calls.clear());

  it("says the team's discount beside its renewal", async () => {
    paidTeam({ interval: "year", discount: PARTNER });
    renderApp("/team/billing", { signedInAs: OWNER });
    expect(await screen.findByText("20% off forever")).toBeInTheDocument();
    expect(screen.getByText("Discount")).toBeInTheDocument();
  });

  it("says no discount when the team has none", async () => {
    paidTeam({ interval: "month", discount: null });
    renderApp("/team/billing", { signedInAs: OWNER });
    expect(await screen.findByRole("button", { name: "Change seats" })).toBeInTheDocument();
    expect(screen.queryByText("Discount")).not.toBeInTheDocument();
  });

  it("names the new total of a monthly team's seats monthly", async () => {
    paidTeam({ interval: "month" });
    const dialog = await previewFiveSeats();
    expect(within(dialog).getByText("New monthly total")).toBeInTheDocument();
  });

  it("names the new total of a yearly team's seats yearly", async () => {
    paidTeam({ interval: "year" });
    const dialog = await previewFiveSeats();
    expect(within(dialog).getByText("New yearly total")).toBeInTheDocument();
    expect(within(dialog).queryByText("New monthly total")).not.toBeInTheDocument();
  });

  it("names the new total of a yearly team's reclaim yearly", async () => {
    db.createUser({ email: OWNER });
    const { team } = db.seedTeam({ owner: OWNER, seats: 2, members: [{ email: "bo@northwind.example" }] });
    team.subscription = { ...team.subscription!, interval: "year" };
    calls.set(OWNER, 2);
    const { user } = renderApp("/team/usage", { signedInAs: OWNER });
    const usage = await screen.findByRole("region", { name: "Adoption" });
    await user.click(await within(usage).findByRole("button", { name: "Reclaim idle seats" }));
    const dialog = await screen.findByRole("dialog", { name: "Reclaim idle seats" });
    expect(within(dialog).getByText(/Next yearly total: \$/)).toBeInTheDocument();
  });
});
