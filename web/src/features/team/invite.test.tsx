//! `/invite?token=…`: the invitation looked up without a session, signing in or up with the invited
//! address (carried through the verification mail as `next`), accepting, declining and every refusal.

import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { db } from "../../testing/db";
import { refuse } from "../../testing/handlers";
import { renderApp } from "../../testing/render";
import { server } from "../../testing/server";

const OWNER = "ana@northwind.example";
const INVITED = "rep@northwind.example";

function seedInvite(role: "admin" | "member" = "member") {
  db.createUser({ email: OWNER });
  const { team, tokens } = db.seedTeam({ owner: OWNER, seats: 3, invites: [{ email: INVITED, role }] });
  return { team, token: tokens[0]! };
}

describe("/invite", () => {
  it("shows a signed-out visitor the team, role and address, with Sign in and Create account carrying both", async () => {
    const { token } = seedInvite("admin");
    renderApp(`/invite?token=${token}`);
    expect(await screen.findByRole("heading", { name: "Join Northwind Sales on Closewise", level: 1 })).toBeInTheDocument();
    expect(screen.getByText(/as an admin/)).toBeInTheDocument();
    expect(screen.getByText(INVITED)).toBeInTheDocument();
    const next = encodeURIComponent(`/invite?token=${token}`);
    const email = encodeURIComponent(INVITED);
    expect(within(screen.getByRole("main")).getByRole("link", { name: "Sign In" })).toHaveAttribute(
      "href",
      `/signin?email=${email}&next=${next}`,
    );
    expect(screen.getByRole("link", { name: "Create account" })).toHaveAttribute("href", `/signup?email=${email}&next=${next}`);
  });

  it("signs up with the address pre-filled, through the mail and sign-in, back to the invitation, and joins", async () => {
    const { token } = seedInvite();
    const { user, router } = renderApp(`/invite?token=${token}`);
    await user.click(await screen.findByRole("link", { name: "Create account" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/signup"));
    expect(screen.getByLabelText("Email", { exact: true })).toHaveValue(INVITED);
    await user.type(screen.getByLabelText("Password", { exact: true }), "secret123");
    await user.type(screen.getByLabelText("Confirm password", { exact: true }), "secret123");
    await user.click(screen.getByRole("button", { name: "Create Account" }));
    await screen.findByRole("heading", { name: "Check Your Email" });
    const link = new URL(db.lastMailTo(INVITED)!.link!);
    expect(link.searchParams.get("next")).toBe(`/invite?token=${token}`);
    await router.navigate(`${link.pathname}${link.search}`);
    await screen.findByRole("heading", { name: "Email verified", level: 1 });
    await user.click(screen.getByRole("link", { name: "Go to Sign In" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/signin"));
    await user.type(await screen.findByLabelText("Email", { exact: true }), INVITED);
    await user.type(screen.getByLabelText("Password", { exact: true }), "secret123");
    await user.click(screen.getByRole("button", { name: "Sign In" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/invite"));
    await user.click(await screen.findByRole("button", { name: "Accept" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/team"));
    expect(await screen.findByText("Your role: Member")).toBeInTheDocument();
  });

  it("pre-fills sign-in's address and keeps it on the way to sign-up", async () => {
    const { token } = seedInvite();
    const next = encodeURIComponent(`/invite?token=${token}`);
    renderApp(`/signin?email=${encodeURIComponent(INVITED)}&next=${next}`);
    expect(await screen.findByLabelText("Email", { exact: true })).toHaveValue(INVITED);
    expect(screen.getByRole("link", { name: "Sign up" })).toHaveAttribute(
      "href",
      `/signup?email=${encodeURIComponent(INVITED)}&next=${next}`,
    );
  });

  it("declines for the invited address and says so", async () => {
    const { token } = seedInvite();
    db.createUser({ email: INVITED });
    const { user } = renderApp(`/invite?token=${token}`, { signedInAs: INVITED });
    await user.click(await screen.findByRole("button", { name: "Decline" }));
    expect(await screen.findByRole("heading", { name: "Invitation declined" })).toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent("You declined the invitation to join Northwind Sales.");
    expect(db.team.inviteByToken(token)?.declinedAt).not.toBeNull();
  });

  it("refuses another account with the server's message and offers to sign out and use another", async () => {
    const { token } = seedInvite();
    db.createUser({ email: "someone@else.example" });
    const other = "This invitation is for another e-mail address. Sign in with the address it was sent to.";
    server.use(refuse("post", "/api/team/invites/accept", 409, "invite_other_address", other));
    const { user, router } = renderApp(`/invite?token=${token}`, { signedInAs: "someone@else.example" });
    await user.click(await screen.findByRole("button", { name: "Accept" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "This invitation is for another e-mail address. Sign in with the address it was sent to.",
    );
    await user.click(screen.getByRole("button", { name: "Sign out and use another account" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/signin"));
    const params = new URLSearchParams(router.state.location.search);
    expect(params.get("email")).toBe(INVITED);
    expect(params.get("next")).toBe(`/invite?token=${token}`);
    expect(await screen.findByLabelText("Email", { exact: true })).toHaveValue(INVITED);
  });

  it("says the invitation is not found or has expired", async () => {
    const { token } = seedInvite();
    renderApp("/invite?token=inv_unknown");
    expect(await screen.findByRole("heading", { name: "Invitation not available" })).toBeInTheDocument();
    expect(screen.getByRole("alert")).toHaveTextContent("This invitation does not exist or was withdrawn.");

    db.team.inviteByToken(token)!.expiresAt = Date.now() - 1;
    renderApp(`/invite?token=${token}`);
    expect(await screen.findByText("This invitation has expired. Ask the team for a new one.")).toBeInTheDocument();
  });

  it.each([
    ["used", "Accept", "This invitation has already been used."],
    ["revoked", "Decline", "This invitation does not exist or was withdrawn."],
    ["expired", "Accept", "This invitation has expired. Ask the team for a new one."],
  ] as const)("hides Accept and Decline once the invitation turns out %s, keeping the message", async (what, button, message) => {
    const { token } = seedInvite();
    db.createUser({ email: INVITED });
    const { user, settled } = renderApp(`/invite?token=${token}`, { signedInAs: INVITED });
    const pressed = await screen.findByRole("button", { name: button });
    await settled();
    // Meanwhile, in another tab or by the team.
    const invite = db.team.inviteByToken(token)!;
    if (what === "used") invite.acceptedAt = Date.now();
    if (what === "revoked") invite.revokedAt = Date.now();
    if (what === "expired") invite.expiresAt = Date.now() - 1;
    await user.click(pressed);
    expect(await screen.findByRole("alert")).toHaveTextContent(message);
    expect(screen.queryByRole("button", { name: "Accept" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Decline" })).not.toBeInTheDocument();
  });

  it("keeps Accept after a refusal that may pass (all seats taken)", async () => {
    const { token, team } = seedInvite();
    db.createUser({ email: INVITED });
    team.seats = 1;
    const { user } = renderApp(`/invite?token=${token}`, { signedInAs: INVITED });
    await user.click(await screen.findByRole("button", { name: "Accept" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("All 1 seats are taken.");
    expect(screen.getByRole("button", { name: "Accept" })).toBeEnabled();
    expect(screen.getByRole("button", { name: "Decline" })).toBeEnabled();
  });

  it("says a link without a token is incomplete", async () => {
    renderApp("/invite");
    expect(await screen.findByRole("alert")).toHaveTextContent("This invitation link is incomplete.");
  });

  it("says someone already in a team cannot join another, with a way to their team", async () => {
    const { token } = seedInvite();
    db.createUser({ email: INVITED });
    db.createUser({ email: "boss@other.example" });
    db.seedTeam({ name: "Other Co", owner: "boss@other.example", seats: 2, members: [{ email: INVITED }] });
    const { user } = renderApp(`/invite?token=${token}`, { signedInAs: INVITED });
    await user.click(await screen.findByRole("button", { name: "Accept" }));
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("You are already in a team.");
    expect(screen.getByRole("link", { name: "Go to your team" })).toHaveAttribute("href", "/team");
  });

  it("says the invitation was used when accepted twice, and when all seats are taken", async () => {
    const { token, team } = seedInvite();
    db.createUser({ email: INVITED });
    const { user, settled } = renderApp(`/invite?token=${token}`, { signedInAs: INVITED });
    const accept = await screen.findByRole("button", { name: "Accept" });
    await settled();
    // Accepted meanwhile in another tab.
    db.team.inviteByToken(token)!.acceptedAt = Date.now();
    await user.click(accept);
    expect(await screen.findByRole("alert")).toHaveTextContent("This invitation has already been used.");

    const second = db.team.invite(team.id, "late@northwind.example", "member");
    db.createUser({ email: "late@northwind.example" });
    team.seats = 1;
    const view = renderApp(`/invite?token=${second}`, { signedInAs: "late@northwind.example" });
    await view.user.click(await within(view.container).findByRole("button", { name: "Accept" }));
    expect(await within(view.container).findByRole("alert")).toHaveTextContent("All 1 seats are taken.");
  });
});
