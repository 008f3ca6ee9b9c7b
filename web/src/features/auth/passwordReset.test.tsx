import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { db } from "../../testing/db";
import { mfaOf } from "../../testing/handlers/mfa";
import { renderApp } from "../../testing/render";

describe("Password reset", () => {
  it("sends a reset link and answers alike for unknown addresses", async () => {
    db.createUser({ email: "ana@example.com" });
    const { user } = renderApp("/forgot-password");
    await user.type(await screen.findByLabelText("Email"), "ana@example.com");
    await user.click(screen.getByRole("button", { name: "Send reset link" }));
    expect(await screen.findByRole("heading", { name: "Check Your Email" })).toBeInTheDocument();
    expect(db.lastMailTo("ana@example.com")?.link).toMatch(/\/reset-password\?token=/);
  });

  it("sets a new password from the mail's link, then signs in with it", async () => {
    db.createUser({ email: "ana@example.com", password: "old-secret" });
    const token = db.oneTimeToken("ana@example.com", "reset", 3600_000);
    const { user, router } = renderApp(`/reset-password?token=${token}`);
    await user.type(await screen.findByLabelText("New password"), "new-secret");
    await user.type(screen.getByLabelText("Confirm new password"), "new-secret");
    await user.click(screen.getByRole("button", { name: "Reset password" }));
    expect(await screen.findByText("Password updated! Please sign in with your new password.")).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe("/signin"));
    expect(db.findUser("ana@example.com")?.password).toBe("new-secret");
  });

  it("lists the passkeys that still sign in and the desktop apps signed out, with the step that removes a passkey", async () => {
    const userId = db.createUser({ email: "ana@example.com", password: "old-secret" }).id;
    mfaOf(userId).passkeys.push({
      id: "01a22671-0000-7000-8000-000000000001",
      credentialId: "cred-1",
      name: "Not mine",
      created_at: db.iso(db.now()),
      last_used_at: null,
    });
    db.startDeviceSession(userId, "Office PC", "windows");
    const token = db.oneTimeToken("ana@example.com", "reset", 3600_000);
    const { user, router } = renderApp(`/reset-password?token=${token}`);
    await user.type(await screen.findByLabelText("New password"), "new-secret");
    await user.type(screen.getByLabelText("Confirm new password"), "new-secret");
    await user.click(screen.getByRole("button", { name: "Reset password" }));
    expect(await screen.findByRole("heading", { name: "Password updated" })).toBeInTheDocument();
    const passkeys = screen.getByRole("list", { name: "Passkeys that still sign in" });
    expect(within(passkeys).getByText(/Not mine/)).toBeInTheDocument();
    const devices = screen.getByRole("list", { name: "Desktop apps signed out" });
    expect(within(devices).getByText("Office PC (windows)")).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/reset-password");
    await user.click(screen.getByRole("link", { name: "Sign in to remove passkeys" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/signin"));
    expect(new URLSearchParams(router.state.location.search).get("next")).toBe("/settings#security");
  });

  it("validates the new password like sign-up", async () => {
    const token = db.oneTimeToken("ana@example.com", "reset");
    const { user } = renderApp(`/reset-password?token=${token}`);
    await user.type(await screen.findByLabelText("New password"), "abc");
    await user.type(screen.getByLabelText("Confirm new password"), "abd");
    await user.click(screen.getByRole("button", { name: "Reset password" }));
    expect(screen.getByText("Passwords do not match")).toBeInTheDocument();
  });

  it("explains a used link and offers a new one", async () => {
    db.createUser({ email: "ana@example.com" });
    const token = db.oneTimeToken("ana@example.com", "reset");
    db.tokens.get(token)!.used = true;
    const { user } = renderApp(`/reset-password?token=${token}`);
    await user.type(await screen.findByLabelText("New password"), "new-secret");
    await user.type(screen.getByLabelText("Confirm new password"), "new-secret");
    await user.click(screen.getByRole("button", { name: "Reset password" }));
    expect(await screen.findByText("This reset link has already been used.")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Request a new link" })).toHaveAttribute("href", "/forgot-password");
  });
});
