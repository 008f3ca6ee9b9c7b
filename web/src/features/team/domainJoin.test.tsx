//! Domain join on /team: the owner turns it on for the company's domain (or off), the owner and
//! admins approve or deny requests, and someone in no team asks to join their company's team.

import { screen, waitFor, within } from "@testing-library/react";
import { http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import { db } from "../../testing/db";
import { renderApp } from "../../testing/render";
import { server } from "../../testing/server";

const OWNER = "ana@northwind.example";
const ADMIN = "bo@northwind.example";
const MEMBER = "cy@northwind.example";

/** Ana owns Northwind Sales with Bo (admin) and Cy (member): 3 of `seats` used. */
function seedNorthwind({ seats = 4, joinDomain }: { seats?: number; joinDomain?: string } = {}) {
  db.createUser({ email: OWNER });
  return db.seedTeam({
    owner: OWNER,
    seats,
    joinDomain,
    // The server offers the team's verified domain.
    answers: { owner: { domain_join_offer: "northwind.example" } },
    members: [
      { email: ADMIN, role: "admin" },
      { email: MEMBER, role: "member" },
    ],
  }).team;
}

/** `email` (created, verified) asks to join `teamId`. */
function asks(teamId: string, email: string) {
  return db.team.requestJoin(teamId, db.createUser({ email }).id);
}

const fail = () => HttpResponse.json({ error: { code: "internal", message: "Boom" } }, { status: 500 });

describe("/team domain join (owner)", () => {
  it("turns it on for the owner's company domain; a public mail domain is refused with the server's message", async () => {
    const team = seedNorthwind();
    const { user } = renderApp("/team/security", { signedInAs: OWNER });
    const section = await screen.findByRole("region", { name: "Domain join" });
    expect(
      within(section).getByText(/an admin approves each request, and each new member needs a free seat/),
    ).toBeInTheDocument();
    const field = within(section).getByLabelText("Company domain");
    expect(field).toHaveValue("northwind.example");

    await user.clear(field);
    await user.type(field, "gmail.com");
    await user.click(within(section).getByRole("button", { name: "Allow domain join" }));
    expect(await within(section).findByRole("alert")).toHaveTextContent(
      "Domain join works only for your own verified company domain.",
    );
    expect(team.joinDomain).toBeNull();

    await user.clear(field);
    await user.type(field, "Northwind.example");
    await user.click(within(section).getByRole("button", { name: "Allow domain join" }));
    expect(await within(section).findByText("Domain join is on for northwind.example.")).toBeInTheDocument();
    expect(team.joinDomain).toBe("northwind.example");
    // Join requests are Members'.
    await user.click(screen.getByRole("link", { name: "Members" }));
    const requests = await screen.findByRole("region", { name: "Join requests" });
    expect(await within(requests).findByText(/No one is waiting to join/)).toBeInTheDocument();
  }, 30_000);

  it("offers an owner at a public mail provider no form, as the server says (domain_join_offer null)", async () => {
    db.createUser({ email: "ana@orange.fr" });
    db.seedTeam({ owner: "ana@orange.fr", seats: 2 });
    renderApp("/team/security", { signedInAs: "ana@orange.fr" });
    const section = await screen.findByRole("region", { name: "Domain join" });
    expect(within(section).getByText(/Domain join needs a verified domain of your team/)).toBeInTheDocument();
    expect(within(section).queryByRole("textbox")).not.toBeInTheDocument();
    expect(within(section).queryByRole("button")).not.toBeInTheDocument();
  });

  it("follows the server's offer, not what the address looks like to the browser", async () => {
    const team = seedNorthwind();
    const ownerId = db.findUser(OWNER)!.user.id;
    server.use(
      http.get("*/api/team", () => HttpResponse.json({ team: { ...db.team.view(team, ownerId), domain_join_offer: null } })),
    );
    renderApp("/team/security", { signedInAs: OWNER });
    const section = await screen.findByRole("region", { name: "Domain join" });
    expect(await within(section).findByText(/Domain join needs a verified domain of your team/)).toBeInTheDocument();
    expect(within(section).queryByLabelText("Company domain")).not.toBeInTheDocument();
  });

  it("asks for a domain before sending", async () => {
    seedNorthwind();
    const { user } = renderApp("/team/security", { signedInAs: OWNER });
    const section = await screen.findByRole("region", { name: "Domain join" });
    await user.clear(within(section).getByLabelText("Company domain"));
    await user.click(within(section).getByRole("button", { name: "Allow domain join" }));
    expect(await within(section).findByText("Please enter your company's domain.")).toBeInTheDocument();
  });

  it("turns it off", async () => {
    const team = seedNorthwind({ joinDomain: "northwind.example" });
    const { user } = renderApp("/team/security", { signedInAs: OWNER });
    const section = await screen.findByRole("region", { name: "Domain join" });
    await user.click(within(section).getByRole("button", { name: "Turn off domain join" }));
    expect(await within(section).findByLabelText("Company domain")).toBeInTheDocument();
    expect(team.joinDomain).toBeNull();
    await user.click(screen.getByRole("link", { name: "Members" }));
    await screen.findByRole("region", { name: "Members" });
    expect(screen.queryByRole("region", { name: "Join requests" })).not.toBeInTheDocument();
  });

  it("shows admins whether it is on, read-only", async () => {
    seedNorthwind({ joinDomain: "northwind.example" });
    renderApp("/team/security", { signedInAs: ADMIN });
    const section = await screen.findByRole("region", { name: "Domain join" });
    expect(within(section).getByText("Domain join is on for northwind.example.")).toBeInTheDocument();
    expect(within(section).queryByRole("textbox")).not.toBeInTheDocument();
    expect(within(section).queryByRole("button")).not.toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Join requests" })).not.toBeInTheDocument();
  });

  it("says so when it is off, to an admin", async () => {
    seedNorthwind();
    renderApp("/team/security", { signedInAs: ADMIN });
    const section = await screen.findByRole("region", { name: "Domain join" });
    expect(within(section).getByText("Domain join is off. The owner can turn it on.")).toBeInTheDocument();
    expect(within(section).queryByRole("button")).not.toBeInTheDocument();
  });
});

describe("/team join requests (owner and admins)", () => {
  it("lets an admin approve one (a member now, a seat taken) and deny another", async () => {
    const team = seedNorthwind({ seats: 5, joinDomain: "northwind.example" });
    const dee = asks(team.id, "dee@northwind.example");
    const eve = asks(team.id, "eve@northwind.example");
    const { user } = renderApp("/team", { signedInAs: ADMIN });
    const list = await screen.findByRole("list", { name: "Pending join requests" });
    expect(within(list).getAllByRole("listitem")).toHaveLength(2);
    expect(within(list).getByText("dee@northwind.example")).toBeInTheDocument();
    expect(screen.getByText("3 of 5 used")).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Approve dee@northwind.example" }));
    expect(await screen.findByText("dee@northwind.example joined Northwind Sales")).toBeInTheDocument();
    expect(await screen.findByRole("rowheader", { name: /dee@northwind\.example/ })).toBeInTheDocument();
    expect(screen.getByText("4 of 5 used")).toBeInTheDocument();
    expect(dee.decision).toBe("approved");

    await user.click(screen.getByRole("button", { name: "Deny eve@northwind.example" }));
    expect(await screen.findByText("Request from eve@northwind.example denied")).toBeInTheDocument();
    const section = screen.getByRole("region", { name: "Join requests" });
    expect(await within(section).findByText(/No one is waiting to join/)).toBeInTheDocument();
    expect(eve.decision).toBe("denied");
    expect(db.team.membershipOf(eve.userId)).toBeUndefined();
  });

  it("shows the server's seats_taken message when no seat is free, and keeps the request", async () => {
    const team = seedNorthwind({ seats: 3, joinDomain: "northwind.example" });
    const dee = asks(team.id, "dee@northwind.example");
    const { user } = renderApp("/team", { signedInAs: OWNER });
    await user.click(await screen.findByRole("button", { name: "Approve dee@northwind.example" }));
    const list = screen.getByRole("list", { name: "Pending join requests" });
    expect(await within(list).findByRole("alert")).toHaveTextContent("All 3 seats are taken. Add seats to invite more people.");
    expect(dee.decidedAt).toBeNull();
    expect(within(list).getByText("dee@northwind.example")).toBeInTheDocument();
  });

  it("lists requests while domain join is off too, and says a request decided elsewhere is gone", async () => {
    const team = seedNorthwind();
    const dee = asks(team.id, "dee@northwind.example");
    const { user, settled } = renderApp("/team", { signedInAs: OWNER });
    await screen.findByRole("button", { name: "Approve dee@northwind.example" });
    await settled();
    dee.decidedAt = db.now();
    dee.decision = "denied";
    await user.click(screen.getByRole("button", { name: "Approve dee@northwind.example" }));
    expect(await screen.findByText("There is no such team.")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("region", { name: "Join requests" })).not.toBeInTheDocument());
  });

  it("says it is loading, then shows an error with Try again when the requests cannot be read", async () => {
    seedNorthwind({ joinDomain: "northwind.example" });
    let broken = true;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.get("*/api/team/join-requests", async () => {
        await gate;
        return broken ? fail() : HttpResponse.json({ requests: [] });
      }),
    );
    const { user } = renderApp("/team", { signedInAs: OWNER });
    const section = await screen.findByRole("region", { name: "Join requests" });
    expect(within(section).getByText("Loading join requests...")).toBeInTheDocument();
    release();
    expect(await within(section).findByRole("alert")).toHaveTextContent("Could not load the requests to join.");
    broken = false;
    await user.click(within(section).getByRole("button", { name: "Try again" }));
    expect(await within(section).findByText(/No one is waiting to join/)).toBeInTheDocument();
  });
});

describe("/team for someone in no team: joinable teams", () => {
  it("lists the company's team next to Create a team and asks to join it", async () => {
    const team = seedNorthwind({ joinDomain: "northwind.example" });
    const dee = db.createUser({ email: "dee@northwind.example" });
    const { user } = renderApp("/team", { signedInAs: "dee@northwind.example" });
    const section = await screen.findByRole("region", { name: "Join your company's team" });
    expect(screen.getByRole("region", { name: "Create a team" })).toBeInTheDocument();
    await user.click(within(section).getByRole("button", { name: "Ask to join Northwind Sales" }));
    expect(await within(section).findByRole("status")).toHaveTextContent(
      "Request sent. An admin of Northwind Sales will approve it.",
    );
    expect(within(section).queryByRole("button", { name: /Ask to join/ })).not.toBeInTheDocument();
    expect(db.team.openJoinRequests(team.id).map((r) => r.userId)).toEqual([dee.id]);
  });

  it("lists nothing for an address at another or a public domain", async () => {
    seedNorthwind({ joinDomain: "northwind.example" });
    db.createUser({ email: "dee@gmail.com" });
    renderApp("/team", { signedInAs: "dee@gmail.com" });
    expect(await screen.findByRole("region", { name: "Create a team" })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText(/Looking for your company/)).not.toBeInTheDocument());
    expect(screen.queryByRole("region", { name: "Join your company's team" })).not.toBeInTheDocument();
  });

  it("says the team is gone when domain join was turned off meanwhile (404), and drops it", async () => {
    const team = seedNorthwind({ joinDomain: "northwind.example" });
    db.createUser({ email: "dee@northwind.example" });
    const { user, settled } = renderApp("/team", { signedInAs: "dee@northwind.example" });
    const section = await screen.findByRole("region", { name: "Join your company's team" });
    await settled();
    team.joinDomain = null;
    await user.click(within(section).getByRole("button", { name: "Ask to join Northwind Sales" }));
    expect(await screen.findByText("There is no such team.")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("region", { name: "Join your company's team" })).not.toBeInTheDocument());
  });

  it("shows the team when the user joined one meanwhile (409 already_in_team)", async () => {
    const team = seedNorthwind({ joinDomain: "northwind.example" });
    const dee = db.createUser({ email: "dee@northwind.example" });
    const { user, settled } = renderApp("/team", { signedInAs: "dee@northwind.example" });
    const section = await screen.findByRole("region", { name: "Join your company's team" });
    await settled();
    db.team.members.push({ teamId: team.id, userId: dee.id, role: "member", joinedAt: db.now() });
    await user.click(within(section).getByRole("button", { name: "Ask to join Northwind Sales" }));
    expect(
      await screen.findByText("You are already in a team. Leave it before joining or creating another."),
    ).toBeInTheDocument();
    expect(await screen.findByText("Your role: Member")).toBeInTheDocument();
  });

  it("shows the server's email_not_verified message (403)", async () => {
    seedNorthwind({ joinDomain: "northwind.example" });
    db.createUser({ email: "dee@northwind.example" });
    server.use(
      http.post("*/api/team/join-requests", () =>
        HttpResponse.json(
          { error: { code: "email_not_verified", message: "Please verify your e-mail address first." } },
          { status: 403 },
        ),
      ),
    );
    const { user } = renderApp("/team", { signedInAs: "dee@northwind.example" });
    const section = await screen.findByRole("region", { name: "Join your company's team" });
    await user.click(within(section).getByRole("button", { name: "Ask to join Northwind Sales" }));
    expect(await within(section).findByRole("alert")).toHaveTextContent("Please verify your e-mail address first.");
    expect(within(section).getByRole("button", { name: "Ask to join Northwind Sales" })).toBeEnabled();
  });

  it("says it is looking, then shows an error with Try again when the joinable teams cannot be read", async () => {
    seedNorthwind({ joinDomain: "northwind.example" });
    db.createUser({ email: "dee@northwind.example" });
    let broken = true;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.get("*/api/team/joinable", async () => {
        await gate;
        return broken ? fail() : HttpResponse.json({ teams: [{ id: "t1", name: "Northwind Sales" }] });
      }),
    );
    const { user } = renderApp("/team", { signedInAs: "dee@northwind.example" });
    expect(await screen.findByText("Looking for your company's team...")).toBeInTheDocument();
    release();
    const section = await screen.findByRole("region", { name: "Join your company's team" });
    expect(await within(section).findByRole("alert")).toHaveTextContent("Could not look for teams you can join.");
    broken = false;
    await user.click(within(section).getByRole("button", { name: "Try again" }));
    expect(await within(section).findByRole("button", { name: "Ask to join Northwind Sales" })).toBeInTheDocument();
  });
});
