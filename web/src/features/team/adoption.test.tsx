//! /team → Usage and Activity: the members with their calls and idle marks, totals,
//! Reclaim with its preview and confirm; who sees them.

import { screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { db } from "../../testing/db";
import { calls, adoptionPaging, newMembers } from "../../testing/handlers/teamAdoption";
import { renderApp } from "../../testing/render";

const OWNER = "ana@northwind.example";

describe("/team usage", () => {
  afterEach(() => {
    calls.clear();
    newMembers.clear();
    adoptionPaging.size = 100;
  });

  it("shows the first page of members with the team's totals, then more on Show more", async () => {
    db.createUser({ email: OWNER });
    db.seedTeam({ owner: OWNER, seats: 3, members: [{ email: "bo@northwind.example" }, { email: "cy@northwind.example" }] });
    calls.set(OWNER, 2).set("bo@northwind.example", 4);
    adoptionPaging.size = 2;
    const { user } = renderApp("/team/usage", { signedInAs: OWNER });
    const usage = await screen.findByRole("region", { name: "Adoption" });
    await within(usage).findByRole("row", { name: /bo@northwind\.example/ });
    expect(within(usage).queryByRole("row", { name: /cy@northwind\.example/ })).not.toBeInTheDocument();
    // The totals and the savings line are the team's, not the page's: Cy is counted before shown.
    expect(within(usage).getByRole("row", { name: /Total \(3 members, 1 idle\)/ })).toHaveTextContent("6");
    expect(
      within(usage).getByText("Reclaiming removes 1 idle member: 3 seats become 2, saving $20.00 a month."),
    ).toBeInTheDocument();
    await user.click(within(usage).getByRole("button", { name: "Show more" }));
    expect(await within(usage).findByRole("row", { name: /cy@northwind\.example/ })).toBeInTheDocument();
    expect(within(usage).getAllByRole("row", { name: /@northwind\.example/ })).toHaveLength(3);
    expect(within(usage).queryByRole("button", { name: "Show more" })).not.toBeInTheDocument();
  });

  it("lists every member's calls, marks the idle and reclaims their seat after a preview", async () => {
    db.createUser({ email: OWNER });
    db.seedTeam({ owner: OWNER, seats: 3, members: [{ email: "bo@northwind.example" }, { email: "cy@northwind.example" }] });
    calls.set(OWNER, 2).set("bo@northwind.example", 4);
    const { user } = renderApp("/team/usage", { signedInAs: OWNER });
    const usage = await screen.findByRole("region", { name: "Adoption" });
    const bo = await within(usage).findByRole("row", { name: /bo@northwind\.example/ });
    expect(within(usage).queryByRole("button", { name: "Show more" })).not.toBeInTheDocument();
    expect(within(bo).getAllByRole("cell")[2]).toHaveTextContent("4");
    expect(within(bo).queryByText("Idle")).not.toBeInTheDocument();
    const cy = within(usage).getByRole("row", { name: /cy@northwind\.example/ });
    expect(within(cy).getByText("Idle")).toBeInTheDocument();
    expect(within(usage).getByRole("row", { name: /Total \(3 members, 1 idle\)/ })).toHaveTextContent("6");
    expect(
      within(usage).getByText("Reclaiming removes 1 idle member: 3 seats become 2, saving $20.00 a month."),
    ).toBeInTheDocument();
    expect(within(usage).getByRole("button", { name: "Export CSV" })).toBeInTheDocument();

    await user.click(within(usage).getByRole("button", { name: "Reclaim idle seats" }));
    const dialog = await screen.findByRole("dialog", { name: "Reclaim idle seats" });
    expect(within(dialog).getByText("Remove cy@northwind.example and lower the seats from 3 to 2.")).toBeInTheDocument();
    expect(within(dialog).getByText("Saves $20.00 a month.")).toBeInTheDocument();
    expect(within(dialog).getByText(/Next monthly total: \$40\.00/)).toBeInTheDocument();
    // What lowering the seats gives back is a credit, said as one.
    expect(within(dialog).getByText(/Due now: credit of \$\d+\.\d\d\./)).toBeInTheDocument();
    expect(dialog.textContent).not.toMatch(/-\$/);
    expect(db.team.membersOf(db.team.teamOf(db.findUser(OWNER)!.user.id)!.id)).toHaveLength(3);
    await user.click(within(dialog).getByRole("button", { name: "Confirm reclaim" }));
    expect(await screen.findByText("2 of 2 used")).toBeInTheDocument();
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(db.team.membersOf(db.team.teamOf(db.findUser(OWNER)!.user.id)!.id)).toHaveLength(2);
  });

  it("shows Usage and Activity to the owner and admins, not to members", async () => {
    db.createUser({ email: OWNER });
    db.seedTeam({ owner: OWNER, seats: 2, members: [{ email: "bo@northwind.example" }] });
    renderApp("/team", { signedInAs: "bo@northwind.example" });
    expect(await screen.findByText("bo@northwind.example")).toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Adoption" })).not.toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Activity" })).not.toBeInTheDocument();
  });

  it("reclaims the idle members of the whole team, not only those on the page shown", async () => {
    db.createUser({ email: OWNER });
    db.seedTeam({ owner: OWNER, seats: 3, members: [{ email: "bo@northwind.example" }, { email: "cy@northwind.example" }] });
    calls.set(OWNER, 2).set("bo@northwind.example", 4);
    adoptionPaging.size = 1;
    const { user } = renderApp("/team/usage", { signedInAs: OWNER });
    const usage = await screen.findByRole("region", { name: "Adoption" });
    await user.click(await within(usage).findByRole("button", { name: "Reclaim idle seats" }));
    const dialog = await screen.findByRole("dialog", { name: "Reclaim idle seats" });
    expect(within(dialog).getByText("Remove cy@northwind.example and lower the seats from 3 to 2.")).toBeInTheDocument();
  });

  it("marks members who joined in the last 30 days New, never Idle, and leaves their seats out of a reclaim", async () => {
    db.createUser({ email: OWNER });
    db.seedTeam({ owner: OWNER, seats: 3, members: [{ email: "bo@northwind.example" }, { email: "cy@northwind.example" }] });
    calls.set(OWNER, 2);
    newMembers.add("bo@northwind.example");
    renderApp("/team/usage", { signedInAs: OWNER });
    const usage = await screen.findByRole("region", { name: "Adoption" });
    const bo = await within(usage).findByRole("row", { name: /bo@northwind\.example/ });
    expect(within(bo).getByText("New")).toBeInTheDocument();
    expect(within(bo).queryByText("Idle")).not.toBeInTheDocument();
    expect(within(within(usage).getByRole("row", { name: /cy@northwind\.example/ })).getByText("Idle")).toBeInTheDocument();
    expect(within(usage).getByRole("row", { name: /Total \(3 members, 1 idle, 1 new\)/ })).toBeInTheDocument();
    expect(
      within(usage).getByText("Reclaiming removes 1 idle member: 3 seats become 2, saving $20.00 a month."),
    ).toBeInTheDocument();
  });

  it("names the unused seats a reclaim drops beside the idle member's, in the line and the dialog alike", async () => {
    db.createUser({ email: OWNER });
    db.seedTeam({ owner: OWNER, seats: 4, members: [{ email: "bo@northwind.example" }, { email: "cy@northwind.example" }] });
    calls.set(OWNER, 2).set("bo@northwind.example", 4);
    const { user } = renderApp("/team/usage", { signedInAs: OWNER });
    const usage = await screen.findByRole("region", { name: "Adoption" });
    const line = "Reclaiming removes 1 idle member and 1 unused seat: 4 seats become 2, saving $40.00 a month.";
    expect(await within(usage).findByText(line)).toBeInTheDocument();
    expect(within(usage).getByRole("row", { name: /Total \(3 members, 1 idle\)/ })).toBeInTheDocument();
    await user.click(within(usage).getByRole("button", { name: "Reclaim idle seats" }));
    const dialog = await screen.findByRole("dialog", { name: "Reclaim idle seats" });
    expect(
      within(dialog).getByText("Remove cy@northwind.example and lower the seats from 4 to 2 (1 unused seat included)."),
    ).toBeInTheDocument();
    expect(within(dialog).getByText("Saves $40.00 a month.")).toBeInTheDocument();
    expect(dialog.textContent).not.toMatch(/-\$/);
  });

  it("lists the activity with exports for the owner", async () => {
    db.createUser({ email: OWNER });
    db.seedTeam({ owner: OWNER, seats: 2 });
    renderApp("/team/activity", { signedInAs: OWNER });
    const activity = await screen.findByRole("region", { name: "Activity" });
    expect(within(activity).getByRole("button", { name: "Export CSV" })).toBeInTheDocument();
    expect(within(activity).getByRole("button", { name: "Export JSON lines" })).toBeInTheDocument();
    expect(within(activity).getByLabelText("Action")).toHaveValue("");
  });
});
