import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { db } from "../../testing/db";
import { renderApp } from "../../testing/render";

describe("Settings", () => {
  it("is guarded like the dashboard", async () => {
    const { router } = renderApp("/settings");
    await waitFor(() => expect(router.state.location.pathname).toBe("/signin"));
  });

  it("changes the password, and says when the current one is wrong", async () => {
    db.createUser({ email: "ana@example.com", password: "secret123" });
    const { user } = renderApp("/settings", { signedInAs: "ana@example.com" });
    await user.type(await screen.findByLabelText("Current password"), "wrong-one");
    await user.type(screen.getByLabelText("New password"), "brand-new-secret");
    await user.type(screen.getByLabelText("Confirm new password"), "brand-new-secret");
    await user.click(screen.getByRole("button", { name: "Update password" }));
    expect(await screen.findByText("Current password is incorrect")).toBeInTheDocument();

    await user.clear(screen.getByLabelText("Current password"));
    await user.type(screen.getByLabelText("Current password"), "secret123");
    await user.click(screen.getByRole("button", { name: "Update password" }));
    expect(await screen.findByText("Password updated")).toBeInTheDocument();
    expect(db.findUser("ana@example.com")?.password).toBe("brand-new-secret");
  });

  it("signs out everywhere", async () => {
    db.createUser({ email: "ana@example.com" });
    const other = db.startSession(db.findUser("ana@example.com")!.user.id);
    const { user, router } = renderApp("/settings", { signedInAs: "ana@example.com" });
    await user.click(await screen.findByRole("button", { name: "Sign out everywhere" }));
    expect(await screen.findByText("Signed out on all devices")).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
    expect(other.revoked).toBe(true);
  });

  it("deletes the account after confirmation with the password; Cancel and Escape keep it", async () => {
    db.createUser({ email: "pro@example.com", password: "secret123", plan: "monthly" });
    const { user, router } = renderApp("/settings", { signedInAs: "pro@example.com" });
    const open = await screen.findByRole("button", { name: "Delete account" });
    await user.click(open);
    let dialog = screen.getByRole("dialog", { name: "Delete your account?" });
    expect(dialog).toHaveTextContent("cancels your subscription");
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(open).toHaveFocus();

    await user.click(open);
    dialog = screen.getByRole("dialog", { name: "Delete your account?" });
    await user.type(within(dialog).getByLabelText("Password"), "wrong");
    await user.click(within(dialog).getByRole("button", { name: "Delete my account" }));
    expect(await within(dialog).findByText("Password is incorrect")).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText("Password"));
    await user.type(within(dialog).getByLabelText("Password"), "secret123");
    await user.click(within(dialog).getByRole("button", { name: "Delete my account" }));
    expect(await screen.findByText("Your account has been deleted")).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
    expect(db.findUser("pro@example.com")).toBeUndefined();
  });

  it("forgets the typed password and its error when the delete dialog is cancelled", async () => {
    db.createUser({ email: "ana@example.com", password: "secret123" });
    const { user } = renderApp("/settings", { signedInAs: "ana@example.com" });
    const open = await screen.findByRole("button", { name: "Delete account" });
    await user.click(open);
    let dialog = screen.getByRole("dialog", { name: "Delete your account?" });
    await user.type(within(dialog).getByLabelText("Password"), "wrong");
    await user.click(within(dialog).getByRole("button", { name: "Delete my account" }));
    expect(await within(dialog).findByText("Password is incorrect")).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();

    await user.click(open);
    dialog = screen.getByRole("dialog", { name: "Delete your account?" });
    expect(within(dialog).getByLabelText("Password")).toHaveValue("");
    expect(within(dialog).queryByText("Password is incorrect")).not.toBeInTheDocument();
    expect(db.findUser("ana@example.com")).toBeDefined();
  });
});
