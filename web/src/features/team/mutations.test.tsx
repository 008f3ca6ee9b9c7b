//! `/team`'s changes (features/team/api/mutations.ts): what each one puts into the cache or reads
//! again, seen as the lists on the page updating at once.

import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { db } from "../../testing/db";
import { renderApp } from "../../testing/render";
import { server } from "../../testing/server";

const OWNER = "ana@northwind.example";

function seedNorthwind() {
  db.createUser({ email: OWNER });
  db.seedTeam({ owner: OWNER, seats: 4, members: [{ email: "cy@northwind.example", role: "member" }] });
}

/** Counts the reads of the team (`GET /api/team`). */
function countTeamReads() {
  const reads = { count: 0 };
  server.events.on("request:start", ({ request }) => {
    if (request.method === "GET" && new URL(request.url).pathname === "/api/team") reads.count += 1;
  });
  return reads;
}

describe("/team's changes", () => {
  it("lists an invitation as soon as it is sent, and takes it off as soon as it is revoked", async () => {
    seedNorthwind();
    const { user } = renderApp("/team", { signedInAs: OWNER });
    expect(await screen.findByText("No pending invitations.")).toBeInTheDocument();
    await user.type(screen.getByLabelText("Email"), "rep@northwind.example");
    await user.click(screen.getByRole("button", { name: "Send invitation" }));
    const pending = await screen.findByRole("list", { name: "Pending invitations" });
    expect(within(pending).getByText("rep@northwind.example")).toBeInTheDocument();
    // The form empties once the list has it.
    expect(screen.getByLabelText("Email")).toHaveValue("");

    await user.click(within(pending).getByRole("button", { name: "Revoke invitation to rep@northwind.example" }));
    expect(await screen.findByText("No pending invitations.")).toBeInTheDocument();
  });

  it("shows a new role from the answer itself, without reading the team again", async () => {
    seedNorthwind();
    const reads = countTeamReads();
    const { user } = renderApp("/team", { signedInAs: OWNER });
    const role = await screen.findByRole("combobox", { name: "Role of cy@northwind.example" });
    const before = reads.count;
    await user.selectOptions(role, "admin");
    expect(await screen.findByText("cy@northwind.example is an admin now")).toBeInTheDocument();
    expect(screen.getByRole("combobox", { name: "Role of cy@northwind.example" })).toHaveValue("admin");
    expect(reads.count).toBe(before);
  });

  it("reads the team again when a role change is refused because the member is gone", async () => {
    seedNorthwind();
    const reads = countTeamReads();
    const { user, settled } = renderApp("/team", { signedInAs: OWNER });
    const role = await screen.findByRole("combobox", { name: "Role of cy@northwind.example" });
    await settled();
    const before = reads.count;
    // Someone else removed the member meanwhile: the server answers 404.
    const gone = db.findUser("cy@northwind.example")!.user.id;
    db.team.members = db.team.members.filter((m) => m.userId !== gone);
    await user.selectOptions(role, "admin");
    expect(await screen.findByText("There is no such team.")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("combobox", { name: "Role of cy@northwind.example" })).not.toBeInTheDocument());
    expect(reads.count).toBeGreaterThan(before);
  });
});
