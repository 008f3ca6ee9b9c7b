//! Focus and announcements: on a route change or a view swap, focus moves to the new page's heading
//! (screen readers read it); never on the first load of a page the visitor has not touched yet.

import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { db } from "../testing/db";
import { renderApp } from "../testing/render";

function reducedMotion(reduce: boolean) {
  const original = window.matchMedia;
  window.matchMedia = (query: string) => ({ ...original(query), matches: reduce && query.includes("reduce") });
  return () => (window.matchMedia = original);
}

let restore: (() => void) | null = null;
afterEach(() => {
  restore?.();
  restore = null;
});

describe("Focus on route changes and view swaps", () => {
  it("leaves focus alone on the first load, then moves it to the new page's heading on a route change", async () => {
    db.createUser({ email: "ana@example.com" });
    const { user } = renderApp("/dashboard", { signedInAs: "ana@example.com" });
    const dashboard = await screen.findByRole("heading", { name: "Dashboard", level: 1 });
    expect(dashboard).not.toHaveFocus();
    await user.click(screen.getByRole("link", { name: "Account settings" }));
    await waitFor(() => expect(screen.getByRole("heading", { name: "Settings", level: 1 })).toHaveFocus());
  });

  it("moves focus to Check Your Email after signing up, and back to the form's heading on Try again", async () => {
    const { user } = renderApp("/signup");
    await user.type(await screen.findByLabelText("Email"), "ana@example.com");
    await user.type(screen.getByLabelText("Password"), "secret123");
    await user.type(screen.getByLabelText("Confirm password"), "secret123");
    await user.click(screen.getByRole("button", { name: "Create Account" }));
    await waitFor(() => expect(screen.getByRole("heading", { name: "Check Your Email", level: 1 })).toHaveFocus());
    await user.click(screen.getByRole("button", { name: "Try again" }));
    await waitFor(() => expect(screen.getByRole("heading", { name: "Create your account", level: 1 })).toHaveFocus());
  });

  it("moves focus to the heading at each /activate step", async () => {
    db.createUser({ email: "ana@example.com" });
    db.deviceCode({ code: "WDJBMJHT", deviceName: "Work laptop" });
    const { user } = renderApp("/activate", { signedInAs: "ana@example.com" });
    await user.type(await screen.findByLabelText("Code"), "WDJBMJHT");
    await user.click(screen.getByRole("button", { name: "Look up" }));
    expect(await screen.findByText("Work laptop")).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole("heading", { level: 1 })).toHaveFocus());
    await user.click(screen.getByRole("button", { name: "Approve" }));
    expect(await screen.findByRole("link", { name: "Go to Dashboard" })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole("heading", { level: 1 })).toHaveFocus());
  });

  it("moves focus to the new step's heading when the password dialog closes on a swapped view", async () => {
    db.createUser({ email: "ana@example.com" });
    const code = db.deviceCode({ deviceName: "Work laptop" });
    const { user } = renderApp(`/activate?user_code=${code}`, { signedInAs: "ana@example.com" });
    const approve = await screen.findByRole("button", { name: "Approve" });
    for (const s of db.sessions) s.passwordAt = db.now() - 16 * 60_000;
    await user.click(approve);
    const dialog = await screen.findByRole("dialog", { name: "Confirm your password" });
    await user.type(within(dialog).getByLabelText("Password"), "secret123");
    await user.click(within(dialog).getByRole("button", { name: "Confirm" }));
    expect(await screen.findByRole("link", { name: "Go to Dashboard" })).toBeInTheDocument();
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole("heading", { level: 1 })).toHaveFocus());
  });

  it("moves focus to Payment Successful when the activation ends", async () => {
    const me = db.createUser({ email: "ana@example.com" });
    db.checkoutSessions.set("cs_test_focus", { id: "cs_test_focus", userId: me.id, paid: true });
    renderApp("/success?session_id=cs_test_focus", { signedInAs: "ana@example.com" });
    await waitFor(() => expect(screen.getByRole("heading", { name: "Payment Successful" })).toHaveFocus());
  });
});

describe("Upgrade Now", () => {
  it.each([
    [false, "smooth"],
    [true, "auto"],
  ])("scrolls to the pricing block (reduced motion %s: %s) and moves focus there", async (reduce, behavior) => {
    restore = reducedMotion(reduce);
    db.createUser({ email: "ana@example.com" });
    const scroll = vi.mocked(Element.prototype.scrollIntoView);
    scroll.mockClear();
    const { user } = renderApp("/dashboard", { signedInAs: "ana@example.com" });
    await user.click(await screen.findByRole("button", { name: "Upgrade Now" }));
    expect(scroll).toHaveBeenCalledWith(expect.objectContaining({ behavior }));
    expect(screen.getByRole("region", { name: "Upgrade to Unlimited Sales Copilot" })).toHaveFocus();
  });
});

describe("Account Access Limited", () => {
  it("is a static notice, not an alert", async () => {
    db.createUser({ email: "new@example.com", verified: false, checkout: "verify_email" });
    renderApp("/dashboard", { signedInAs: "new@example.com" });
    const notice = (await screen.findByText(/Account Access Limited/)).closest("div")!;
    expect(notice).not.toHaveAttribute("role", "alert");
    expect(within(screen.getByRole("main")).queryAllByRole("alert")).toEqual([]);
  });
});
