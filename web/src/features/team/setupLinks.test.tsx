//! The owner's "Setup link for IT" on /team → Security: ticks the steps and creates a link (its URL
//! shown once with copy and its expiry, after the password once the step-up window is over); the
//! list says each link's state and the steps IT did through it; revoking asks first; admins see none.

import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { db } from "../../testing/db";
import type { LinkRow } from "../../testing/handlers/setupLinks";
import { renderApp } from "../../testing/render";

const OWNER = "ana@northwind.example";
const ADMIN = "bo@northwind.example";
const TITLE = "Setup link for IT";

function seedNorthwind() {
  db.createUser({ email: OWNER });
  return db.seedTeam({ owner: OWNER, seats: 3, members: [{ email: ADMIN, role: "admin" }] }).team;
}

const linksOf = (team: object) => (team as { setupLinks?: LinkRow[] }).setupLinks ?? [];

describe("/team setup links for IT", () => {
  it("creates a link for the ticked steps, shown once with copy and its expiry", async () => {
    const team = seedNorthwind();
    const { user } = renderApp("/team/security", { signedInAs: OWNER });
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    const section = await screen.findByRole("region", { name: TITLE });
    for (const label of ["Verify the company domain", "Connect single sign-on", "Create a SCIM token"])
      expect(within(section).getByRole("checkbox", { name: label })).toBeChecked();
    await user.click(within(section).getByRole("checkbox", { name: "Create a SCIM token" }));
    await user.click(within(section).getByRole("button", { name: "Create setup link" }));
    const url = await within(section).findByText(/\/setup\/[0-9a-f]{32}$/);
    expect(within(section).getByText("Copy this link now: it is not shown again.")).toBeInTheDocument();
    expect(within(section).getByText(/^It works until .* and until your IT admin finishes\.$/)).toBeInTheDocument();
    await user.click(within(section).getByRole("button", { name: "Copy link" }));
    expect(writeText).toHaveBeenCalledWith(url.textContent);
    expect(linksOf(team).map((l) => l.steps)).toEqual([["domain", "sso"]]);
    const list = await within(section).findByRole("list", { name: "Setup links" });
    expect(list.textContent).not.toContain(url.textContent);
    expect(within(list).getByText(/^Open until /)).toBeInTheDocument();
    expect(
      within(list).getByText(
        `Created ${new Date().toLocaleDateString("en-US", { year: "numeric", month: "short", day: "numeric" })} by ${OWNER}`,
      ),
    ).toBeInTheDocument();
    expect(within(list).getByText("Domain: not done")).toBeInTheDocument();
    expect(within(list).getByText("Single sign-on: not done")).toBeInTheDocument();
    expect(within(list).queryByText(/SCIM token:/)).not.toBeInTheDocument();
  });

  it("refuses a link with no step before asking the server", async () => {
    const team = seedNorthwind();
    const { user } = renderApp("/team/security", { signedInAs: OWNER });
    const section = await screen.findByRole("region", { name: TITLE });
    for (const label of ["Verify the company domain", "Connect single sign-on", "Create a SCIM token"])
      await user.click(within(section).getByRole("checkbox", { name: label }));
    await user.click(within(section).getByRole("button", { name: "Create setup link" }));
    expect(await within(section).findByRole("alert")).toHaveTextContent("Choose at least one step for the link.");
    expect(linksOf(team)).toHaveLength(0);
  });

  it("asks for the password before creating a link once the window is over", async () => {
    const team = seedNorthwind();
    const { user } = renderApp("/team/security", { signedInAs: OWNER });
    const section = await screen.findByRole("region", { name: TITLE });
    for (const s of db.sessions) s.passwordAt = db.now() - 16 * 60_000;
    await user.click(within(section).getByRole("button", { name: "Create setup link" }));
    const dialog = await screen.findByRole("dialog", { name: "Confirm your password" });
    expect(linksOf(team)).toHaveLength(0);
    await user.type(within(dialog).getByLabelText("Password"), "secret123");
    await user.click(within(dialog).getByRole("button", { name: "Confirm" }));
    expect(await within(section).findByText(/\/setup\/[0-9a-f]{32}$/)).toBeInTheDocument();
    expect(linksOf(team)).toHaveLength(1);
  });

  it("lists each link's state and the steps done through it, and revokes an open one after confirming", async () => {
    const team = seedNorthwind();
    const day = 86_400_000;
    const row = (id: string, patch: Partial<LinkRow>): LinkRow => ({
      ...{ id, token: id, steps: ["domain", "sso", "scim"], createdBy: OWNER, createdAt: db.now() - day / 2 },
      ...{ expiresAt: db.now() + day / 2, finishedAt: null, revokedAt: null, done: [], draft: null, test: null, scim: [] },
      ...patch,
    });
    (team as { setupLinks?: LinkRow[] }).setupLinks = [
      row("00000000-0000-4000-8000-000000000001", { createdAt: db.now() - 3 * day, expiresAt: db.now() - 2 * day }),
      row("00000000-0000-4000-8000-000000000002", { finishedAt: db.now(), done: ["domain", "sso", "scim"] }),
      row("00000000-0000-4000-8000-000000000003", { done: ["domain"] }),
    ];
    const { user } = renderApp("/team/security", { signedInAs: OWNER });
    const section = await screen.findByRole("region", { name: TITLE });
    const list = await within(section).findByRole("list", { name: "Setup links" });
    const [open, finished, expired] = within(list).getAllByRole("listitem", { name: /^Setup link created/ });
    expect(within(open!).getByText(/^Open until/)).toBeInTheDocument();
    expect(within(open!).getByText("Domain: done")).toBeInTheDocument();
    expect(within(open!).getByText("Single sign-on: not done")).toBeInTheDocument();
    expect(within(finished!).getByText(/^Finished /)).toBeInTheDocument();
    for (const step of ["Domain", "Single sign-on", "SCIM token"])
      expect(within(finished!).getByText(`${step}: done`)).toBeInTheDocument();
    expect(within(finished!).queryByRole("button", { name: "Revoke" })).not.toBeInTheDocument();
    expect(within(expired!).getByText(/^Expired /)).toBeInTheDocument();
    expect(within(expired!).queryByRole("button", { name: "Revoke" })).not.toBeInTheDocument();

    await user.click(within(open!).getByRole("button", { name: "Revoke" }));
    const dialog = await screen.findByRole("dialog", { name: "Revoke this setup link?" });
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(linksOf(team)[2]!.revokedAt).toBeNull();
    await user.click(within(open!).getByRole("button", { name: "Revoke" }));
    await user.click(within(await screen.findByRole("dialog")).getByRole("button", { name: "Revoke link" }));
    await waitFor(() => expect(within(list).getByText(/^Revoked /)).toBeInTheDocument());
    expect(linksOf(team)[2]!.revokedAt).not.toBeNull();
    expect(within(list).queryByRole("button", { name: "Revoke" })).not.toBeInTheDocument();
  });

  it("is the owner's only", async () => {
    seedNorthwind();
    renderApp("/team/security", { signedInAs: ADMIN });
    await screen.findByRole("region", { name: "Second factor" });
    expect(screen.queryByRole("region", { name: TITLE })).not.toBeInTheDocument();
  });
});
