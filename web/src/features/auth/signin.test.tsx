import { screen, waitFor, within } from "@testing-library/react";
import { http, HttpResponse } from "msw";
import { describe, expect, it, vi } from "vitest";
import * as analytics from "../../lib/analytics";
import { db } from "../../testing/db";
import { apiError, refuse } from "../../testing/handlers";
import { renderApp } from "../../testing/render";
import { server } from "../../testing/server";

async function fillSignIn(user: ReturnType<typeof renderApp>["user"], email: string, password: string) {
  await user.type(await screen.findByLabelText("Email"), email);
  await user.type(screen.getByLabelText("Password"), password);
  await user.click(screen.getByRole("button", { name: "Sign In" }));
}

describe("Sign in", () => {
  it("signs in, says so and opens the dashboard", async () => {
    db.createUser({ email: "ana@example.com", password: "secret123" });
    const track = vi.spyOn(analytics, "track");
    const { user, router } = renderApp("/signin");
    await fillSignIn(user, "ana@example.com", "secret123");
    expect(await screen.findByText("Signed in successfully!")).toBeInTheDocument();
    expect(track).toHaveBeenCalledWith("user_signed_in");
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard"));
    expect(await screen.findByRole("heading", { name: "Dashboard", level: 1 })).toBeInTheDocument();
  });

  it("goes to next after signing in, and keeps next on the Sign up link", async () => {
    db.createUser({ email: "ana@example.com", password: "secret123" });
    const { user, router } = renderApp(`/signin?next=${encodeURIComponent("/pricing?checkout=price_x")}`);
    expect(await screen.findByRole("link", { name: "Sign up" })).toHaveAttribute(
      "href",
      `/signup?next=${encodeURIComponent("/pricing?checkout=price_x")}`,
    );
    await fillSignIn(user, "ana@example.com", "secret123");
    await waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe("/pricing?checkout=price_x"));
  });

  it("asks for the e-mail and the password before calling the service", async () => {
    const { user } = renderApp("/signin");
    await user.click(await screen.findByRole("button", { name: "Sign In" }));
    expect(screen.getByText("Email is required")).toBeInTheDocument();
    expect(screen.getByText("Password is required")).toBeInTheDocument();
    expect(screen.getByLabelText("Email")).toHaveFocus();
  });

  it("shows the service message for wrong credentials", async () => {
    db.createUser({ email: "ana@example.com", password: "secret123" });
    const { user } = renderApp("/signin");
    await fillSignIn(user, "ana@example.com", "wrong-password");
    // Once, inline under the form it belongs to (announced there), not again in a toast.
    const form = screen.getByRole("form", { name: "Sign in" });
    expect(await within(form).findByRole("alert")).toHaveTextContent("Invalid login credentials");
    expect(form).toHaveAccessibleDescription("Invalid login credentials");
    expect(screen.getAllByText("Invalid login credentials")).toHaveLength(1);
    expect(screen.queryByText("Email Verification Required")).not.toBeInTheDocument();
    // Focus goes back to the password to type it again, not to the page.
    await waitFor(() => expect(screen.getByLabelText("Password")).toHaveFocus());
  });

  it("says once that Closewise cannot be reached when the service does not answer", async () => {
    server.use(http.post("*/api/auth/token", () => HttpResponse.error()));
    const { user } = renderApp("/signin");
    await fillSignIn(user, "ana@example.com", "secret123");
    const unreachable = "Can't reach Closewise — check your connection";
    expect(await within(screen.getByRole("form", { name: "Sign in" })).findByText(unreachable)).toBeInTheDocument();
    expect(screen.getAllByText(unreachable)).toHaveLength(1);
    expect(screen.queryByText("An unexpected error occurred")).not.toBeInTheDocument();
  });

  it("leaves a refused attempt's error behind on the way to the dashboard", async () => {
    db.createUser({ email: "ana@example.com", password: "secret123" });
    const { user, router } = renderApp("/signin");
    await fillSignIn(user, "ana@example.com", "wrong-password");
    expect(await screen.findByText("Invalid login credentials")).toBeInTheDocument();
    await user.clear(screen.getByLabelText("Password"));
    await user.type(screen.getByLabelText("Password"), "secret123");
    await user.click(screen.getByRole("button", { name: "Sign In" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard"));
    expect(await screen.findByRole("heading", { name: "Dashboard", level: 1 })).toBeInTheDocument();
    expect(screen.queryByText("Invalid login credentials")).not.toBeInTheDocument();
  });

  it("explains an unverified e-mail with a toast and the amber notice, and resends in place", async () => {
    db.createUser({ email: "new@example.com", password: "secret123", verified: false });
    const { user, router } = renderApp("/signin");
    await fillSignIn(user, "new@example.com", "secret123");
    expect(await screen.findByText("Please verify your email address before signing in")).toBeInTheDocument();
    const notice = screen.getByText("Email Verification Required").closest("div")!;
    await user.click(within(notice).getByRole("button", { name: "Resend verification email" }));
    expect(await screen.findByText("Verification email sent! Check your inbox.")).toBeInTheDocument();
    expect(db.lastMailTo("new@example.com")?.link).toMatch(/\/verify\?token=/);
    expect(router.state.location.pathname).toBe("/signin");
  });

  it("shows the service's reason when a resend is refused", async () => {
    db.createUser({ email: "new@example.com", password: "secret123", verified: false });
    const wait = "For security purposes, you can only request this after 37 seconds.";
    server.use(refuse("post", "/api/auth/resend", 429, "over_email_send_rate_limit", wait, { headers: { "Retry-After": "37" } }));
    const { user } = renderApp("/signin");
    await fillSignIn(user, "new@example.com", "secret123");
    await user.click(await screen.findByRole("button", { name: "Resend verification email" }));
    expect(await screen.findByText(/For security purposes, you can only request this after \d+ seconds\./)).toBeInTheDocument();
    // The same control and label as on Check Your Email, counting down the server's Retry-After.
    expect(screen.getByRole("button", { name: /^Resend verification email in (37|36)s$/ })).toBeDisabled();
  });

  it("says 'Failed to resend verification email' when the service gives no reason, and the generic text offline", async () => {
    db.createUser({ email: "new@example.com", password: "secret123", verified: false });
    const { user } = renderApp("/signin");
    await fillSignIn(user, "new@example.com", "secret123");
    server.use(http.post("*/api/auth/resend", () => apiError(500, "internal", "")));
    await user.click(await screen.findByRole("button", { name: "Resend verification email" }));
    expect(await screen.findByText("Failed to resend verification email")).toBeInTheDocument();
    server.use(http.post("*/api/auth/resend", () => HttpResponse.error()));
    await user.click(screen.getByRole("button", { name: "Resend verification email" }));
    expect(await screen.findByText("An error occurred while resending verification email")).toBeInTheDocument();
  });

  it("shows and hides the password", async () => {
    const { user } = renderApp("/signin");
    const field = await screen.findByLabelText("Password");
    expect(field).toHaveAttribute("type", "password");
    await user.click(screen.getByRole("button", { name: "Show password" }));
    expect(field).toHaveAttribute("type", "text");
    await user.click(screen.getByRole("button", { name: "Hide password" }));
    expect(field).toHaveAttribute("type", "password");
  });

  it("links to sign up, to the password reset and back home", async () => {
    const { user, router } = renderApp("/signin");
    expect(await screen.findByRole("link", { name: "Sign up" })).toHaveAttribute("href", "/signup");
    expect(screen.getByRole("link", { name: "Back to Home" })).toHaveAttribute("href", "/");
    await user.click(screen.getByRole("link", { name: "Forgot password?" }));
    expect(router.state.location.pathname).toBe("/forgot-password");
  });
});
