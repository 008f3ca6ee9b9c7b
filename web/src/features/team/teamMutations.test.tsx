//! The team's own changes (features/team/api/teamMutations.ts and ruleMutations.ts): what each one
//! puts into the cache or reads again, seen as the page updating at once, and an answer that carries
//! the team not read again.

import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { db } from "../../testing/db";
import { calls } from "../../testing/handlers/teamAdoption";
import { renderApp } from "../../testing/render";
import { server } from "../../testing/server";

const OWNER = "ana@northwind.example";
const CY = "cy@northwind.example";

function seedNorthwind(seats = 4) {
  db.createUser({ email: OWNER });
  return db.seedTeam({
    owner: OWNER,
    seats,
    answers: { owner: { domain_join_offer: "northwind.example", seat_range: { min: 2, max: 10000 } } },
    members: [{ email: CY, role: "member" }],
  }).team;
}

/** Counts the reads of the team (`GET /api/team`). */
function countTeamReads() {
  const reads = { count: 0 };
  server.events.on("request:start", ({ request }) => {
    if (request.method === "GET" && new URL(request.url).pathname === "/api/team") reads.count += 1;
  });
  return reads;
}

const findMembersTable = () => screen.findByRole("table", { name: /^Members of/ });

describe("the team's changes", () => {
  afterEach(() => {
    calls.clear();
    server.events.removeAllListeners();
  });

  it("shows a new name from the answer itself, without reading the team again", async () => {
    seedNorthwind();
    const reads = countTeamReads();
    const { user } = renderApp("/team", { signedInAs: OWNER });
    await user.click(await screen.findByRole("button", { name: "Rename team" }));
    const before = reads.count;
    await user.clear(screen.getByLabelText("Team name"));
    await user.type(screen.getByLabelText("Team name"), "Northwind EMEA");
    await user.click(screen.getByRole("button", { name: "Save name" }));
    expect(await screen.findByRole("heading", { name: "Northwind EMEA", level: 2 })).toBeInTheDocument();
    expect(reads.count).toBe(before);
  });

  it("shows a new team from the answer itself, with its toast, without reading the team again", async () => {
    db.createUser({ email: OWNER });
    // Counted from the creation on: the page's first reads may still start while the form shows.
    const reads = { created: false, after: 0 };
    server.events.on("request:start", ({ request }) => {
      const path = new URL(request.url).pathname;
      if (request.method === "POST" && path === "/api/team") reads.created = true;
      else if (reads.created && request.method === "GET" && path === "/api/team") reads.after += 1;
    });
    const { user } = renderApp("/team", { signedInAs: OWNER });
    const create = await screen.findByRole("region", { name: "Create a team" });
    await user.type(within(create).getByLabelText("Team name"), "Northwind Sales");
    await user.click(within(create).getByRole("button", { name: "Create team" }));
    expect(await screen.findByRole("heading", { name: "Northwind Sales", level: 2 })).toBeInTheDocument();
    expect(await screen.findByText("Northwind Sales is created")).toBeInTheDocument();
    expect(reads.created).toBe(true);
    expect(reads.after).toBe(0);
  });

  it("shows the team someone joined meanwhile when creating one is refused (409 already_in_team)", async () => {
    db.createUser({ email: OWNER });
    const { user } = renderApp("/team", { signedInAs: OWNER });
    const create = await screen.findByRole("region", { name: "Create a team" });
    // Created in another tab meanwhile.
    db.seedTeam({ owner: OWNER, seats: 2, name: "Northwind Sales" });
    await user.type(within(create).getByLabelText("Team name"), "Northwind EMEA");
    await user.click(within(create).getByRole("button", { name: "Create team" }));
    expect(await screen.findByRole("heading", { name: "Northwind Sales", level: 2 })).toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Create a team" })).not.toBeInTheDocument();
  });

  it("shows the new seats from the answer itself, without reading the team again", async () => {
    seedNorthwind(3);
    const reads = countTeamReads();
    const { user } = renderApp("/team/billing", { signedInAs: OWNER });
    expect(await screen.findByText("1 seat is free.")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Change seats" }));
    const dialog = screen.getByRole("dialog", { name: "Change seats" });
    await user.clear(within(dialog).getByLabelText("Seats"));
    await user.type(within(dialog).getByLabelText("Seats"), "5");
    await user.click(within(dialog).getByRole("button", { name: "Preview" }));
    const before = reads.count;
    await user.click(await within(dialog).findByRole("button", { name: "Confirm 5 seats" }));
    expect(await screen.findByText("3 seats are free.")).toBeInTheDocument();
    expect(screen.getByText("2 of 5 used")).toBeInTheDocument();
    expect(reads.count).toBe(before);
  });

  it("takes reclaimed members out of Members and Usage as soon as the reclaim is confirmed", async () => {
    seedNorthwind(2);
    calls.set(OWNER, 2);
    const { user } = renderApp("/team", { signedInAs: OWNER });
    expect(await within(await findMembersTable()).findByText(CY)).toBeInTheDocument();
    await user.click(screen.getByRole("link", { name: "Usage" }));
    const usage = await screen.findByRole("region", { name: "Adoption" });
    expect(await within(usage).findByRole("row", { name: /cy@northwind\.example/ })).toBeInTheDocument();
    await user.click(within(usage).getByRole("button", { name: "Reclaim idle seats" }));
    const dialog = await screen.findByRole("dialog", { name: "Reclaim idle seats" });
    await user.click(within(dialog).getByRole("button", { name: "Confirm reclaim" }));
    await waitFor(() => expect(within(usage).queryByRole("row", { name: /cy@northwind\.example/ })).not.toBeInTheDocument());
    expect(within(usage).queryByRole("button", { name: "Reclaim idle seats" })).not.toBeInTheDocument();
    await user.click(screen.getByRole("link", { name: "Members" }));
    expect(within(await findMembersTable()).queryByText(CY)).not.toBeInTheDocument();
  }, 30_000);

  it("shows Join requests as soon as domain join is on, and hides them as soon as it is off", async () => {
    seedNorthwind();
    const { user } = renderApp("/team", { signedInAs: OWNER });
    await findMembersTable();
    expect(screen.queryByRole("region", { name: "Join requests" })).not.toBeInTheDocument();
    await user.click(screen.getByRole("link", { name: "Security" }));
    let section = await screen.findByRole("region", { name: "Domain join" });
    await user.click(within(section).getByRole("button", { name: "Allow domain join" }));
    await within(section).findByRole("button", { name: "Turn off domain join" });
    await user.click(screen.getByRole("link", { name: "Members" }));
    const requests = await screen.findByRole("region", { name: "Join requests" });
    expect(within(requests).getByText(/No one is waiting to join/)).toBeInTheDocument();
    await user.click(screen.getByRole("link", { name: "Security" }));
    section = await screen.findByRole("region", { name: "Domain join" });
    await user.click(within(section).getByRole("button", { name: "Turn off domain join" }));
    await within(section).findByRole("button", { name: "Allow domain join" });
    await user.click(screen.getByRole("link", { name: "Members" }));
    await findMembersTable();
    expect(screen.queryByRole("region", { name: "Join requests" })).not.toBeInTheDocument();
  }, 30_000);

  it("drops single sign-on's Test connection and Remove as soon as it is removed", async () => {
    const team = seedNorthwind();
    Object.assign(team, {
      ssoDomains: ["northwind.example"],
      sso: { issuer: "https://idp.example", client_id: "c", required: false },
    });
    const { user } = renderApp("/team/security", { signedInAs: OWNER });
    const section = await screen.findByRole("region", { name: "Single sign-on" });
    await user.click(await within(section).findByRole("button", { name: "Remove single sign-on" }));
    await waitFor(() => expect(within(section).queryByRole("button", { name: "Test connection" })).not.toBeInTheDocument());
    expect(within(section).queryByRole("button", { name: "Remove single sign-on" })).not.toBeInTheDocument();
    expect(within(section).getByLabelText("Client secret")).not.toHaveAttribute("placeholder", "Stored — leave empty to keep it");
  });

  it("offers to create a team as soon as the caller left, without reading the team again", async () => {
    db.createUser({ email: OWNER });
    db.seedTeam({ owner: OWNER, seats: 3, members: [{ email: CY, role: "member" }] });
    const reads = countTeamReads();
    const { user } = renderApp("/team", { signedInAs: CY });
    await user.click(await screen.findByRole("button", { name: "Leave team" }));
    const before = reads.count;
    await user.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Leave team" }));
    expect(await screen.findByRole("button", { name: /Create team/ })).toBeInTheDocument();
    expect(reads.count).toBe(before);
  });
});
