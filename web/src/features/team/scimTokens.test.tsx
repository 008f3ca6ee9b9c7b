//! SCIM tokens on /team → Security: the endpoint URL to give the identity provider (with copy); the
//! owner names and creates a token, sees it once with a copy button, finds it listed by its name
//! without its secret and revokes it; admins and members see no section.

import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { db } from "../../testing/db";
import { renderApp } from "../../testing/render";

const OWNER = "ana@northwind.example";
const ADMIN = "bo@northwind.example";

function seedNorthwind() {
  db.createUser({ email: OWNER });
  return db.seedTeam({ owner: OWNER, seats: 3, members: [{ email: ADMIN, role: "admin" }] }).team;
}

describe("/team SCIM tokens", () => {
  it("shows the SCIM endpoint URL with a copy button", async () => {
    seedNorthwind();
    const { user } = renderApp("/team/security", { signedInAs: OWNER });
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    const section = await screen.findByRole("region", { name: "Security: SCIM tokens" });
    const endpoint = `${window.location.origin}/scim/v2`;
    expect(within(section).getByText(endpoint)).toBeInTheDocument();
    await user.click(within(section).getByRole("button", { name: "Copy endpoint URL" }));
    expect(writeText).toHaveBeenCalledWith(endpoint);
  });

  it("creates a named token shown once with copy, lists it by name without the secret, and revokes it", async () => {
    seedNorthwind();
    const { user } = renderApp("/team/security", { signedInAs: OWNER });
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    const section = await screen.findByRole("region", { name: "Security: SCIM tokens" });
    await user.type(within(section).getByLabelText("Token name"), "Okta production");
    await user.click(within(section).getByRole("button", { name: "Create SCIM token" }));
    const shown = await within(section).findByText(/^cws_scim_/);
    const secret = shown.textContent ?? "";
    expect(within(section).getByText("Copy this token now: it is not shown again.")).toBeInTheDocument();
    await user.click(within(section).getByRole("button", { name: "Copy token" }));
    expect(writeText).toHaveBeenCalledWith(secret);
    const list = await within(section).findByRole("list", { name: "SCIM tokens" });
    expect(within(list).getAllByRole("listitem")).toHaveLength(1);
    expect(within(list).getByText("Okta production")).toBeInTheDocument();
    expect(list.textContent).not.toContain(secret);
    expect(within(list).getByText(/never used/)).toBeInTheDocument();
    await user.click(within(list).getByRole("button", { name: "Revoke" }));
    await waitFor(() => expect(within(list).getByText(/revoked/)).toBeInTheDocument());
    expect(within(list).queryByRole("button", { name: "Revoke" })).not.toBeInTheDocument();
  });

  it("asks for the password before creating a token once the window is over", async () => {
    const team = seedNorthwind();
    const { user } = renderApp("/team/security", { signedInAs: OWNER });
    const section = await screen.findByRole("region", { name: "Security: SCIM tokens" });
    for (const s of db.sessions) s.passwordAt = db.now() - 16 * 60_000;
    await user.type(within(section).getByLabelText("Token name"), "Okta");
    await user.click(within(section).getByRole("button", { name: "Create SCIM token" }));
    const dialog = await screen.findByRole("dialog", { name: "Confirm your password" });
    expect((team as { scim?: unknown[] }).scim ?? []).toHaveLength(0);
    await user.type(within(dialog).getByLabelText("Password"), "secret123");
    await user.click(within(dialog).getByRole("button", { name: "Confirm" }));
    expect(await within(section).findByText(/^cws_scim_/)).toBeInTheDocument();
  });

  it("is the owner's only", async () => {
    seedNorthwind();
    renderApp("/team/security", { signedInAs: ADMIN });
    await screen.findByRole("region", { name: "Second factor" });
    expect(screen.queryByRole("region", { name: "Security: SCIM tokens" })).not.toBeInTheDocument();
  });
});
