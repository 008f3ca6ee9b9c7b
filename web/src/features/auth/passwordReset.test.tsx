import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { db } from "../../testing/db";
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
