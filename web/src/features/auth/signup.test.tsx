import { screen, waitFor, within } from "@testing-library/react";
import { http, HttpResponse } from "msw";
import { describe, expect, it, vi } from "vitest";
import * as analytics from "../../lib/analytics";
import { db } from "../../testing/db";
import { apiError, refuse } from "../../testing/handlers";
import { renderApp } from "../../testing/render";
import { server } from "../../testing/server";

async function fill(user: ReturnType<typeof renderApp>["user"], email: string, password: string, confirm: string) {
  await user.type(await screen.findByLabelText("Email"), email);
  await user.type(screen.getByLabelText("Password"), password);
  await user.type(screen.getByLabelText("Confirm password"), confirm);
  await user.click(screen.getByRole("button", { name: "Create Account" }));
}

describe("Sign up", () => {
  it("says why when a signed-out checkout brought the visitor here (a full page load from the pricing island)", async () => {
    renderApp(`/signup?next=${encodeURIComponent("/pricing?checkout=price_closewise_monthly")}`);
    expect(await screen.findByText("Please sign in to continue")).toBeInTheDocument();
  });

  it("says nothing of checkout on a plain visit", async () => {
    renderApp("/signup");
    await screen.findByRole("heading", { level: 1 });
    expect(screen.queryByText("Please sign in to continue")).not.toBeInTheDocument();
  });

  it("says 'Passwords do not match' first, then 'Password must be at least 6 characters'", async () => {
    const { user } = renderApp("/signup");
    await fill(user, "ana@example.com", "abc", "abd");
    expect(screen.getByText("Passwords do not match")).toBeInTheDocument();
    expect(screen.queryByText("Password must be at least 6 characters")).not.toBeInTheDocument();

    await user.clear(screen.getByLabelText("Confirm password"));
    await user.type(screen.getByLabelText("Confirm password"), "abc");
    await user.click(screen.getByRole("button", { name: "Create Account" }));
    expect(screen.getByText("Password must be at least 6 characters")).toBeInTheDocument();
    expect(screen.queryByText("Passwords do not match")).not.toBeInTheDocument();
    expect(db.users.size).toBe(0);
  });

  it("says that creating an account agrees to the terms and the privacy policy, with links", async () => {
    renderApp("/signup");
    const notice = await screen.findByText(/By creating an account you agree to/);
    expect(within(notice).getByRole("link", { name: "Terms of Service" })).toHaveAttribute("href", "/terms");
    expect(within(notice).getByRole("link", { name: "Privacy Policy" })).toHaveAttribute("href", "/privacy");
  });

  it("requires a valid e-mail", async () => {
    const { user } = renderApp("/signup");
    await user.click(await screen.findByRole("button", { name: "Create Account" }));
    expect(screen.getByText("Email is required")).toBeInTheDocument();
    await fill(user, "not-an-email", "secret123", "secret123");
    expect(screen.getByText("Please enter a valid email address")).toBeInTheDocument();
  });

  it("creates the account, shows the toast and the Check Your Email screen, and Try again returns to the form", async () => {
    const track = vi.spyOn(analytics, "track");
    const { user } = renderApp("/signup");
    await fill(user, "Ana@Example.com", "secret123", "secret123");
    expect(await screen.findByText("Account created! Please check your email to verify your account.")).toBeInTheDocument();
    expect(track).toHaveBeenCalledWith("user_signed_up");
    expect(screen.getByRole("heading", { name: "Check Your Email" })).toBeInTheDocument();
    expect(screen.getByText("ana@example.com")).toBeInTheDocument();
    expect(screen.getByText("Check your inbox (and your spam folder)")).toBeInTheDocument();
    expect(screen.getByText("Click the verification link in the email")).toBeInTheDocument();
    expect(screen.getByText("Return here and sign in")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Go to Sign In" })).toHaveAttribute("href", "/signin");
    expect(screen.getAllByRole("link", { name: "Back to Home" }).at(-1)).toHaveAttribute("href", "/");
    expect(db.lastMailTo("ana@example.com")?.link).toMatch(/\/verify\?token=/);

    await user.click(screen.getByRole("button", { name: "Try again" }));
    expect(screen.getByRole("heading", { name: "Create your account" })).toBeInTheDocument();
  });

  it("shows the service message, and the spec's text when the service is not configured", async () => {
    const common = "This password is too common. Please choose another one";
    server.use(refuse("post", "/api/auth/signup", 422, "weak_password", common, { once: true }));
    const { user } = renderApp("/signup");
    await fill(user, "ana@example.com", "password", "password");
    // Once, under the password it is about (no toast besides).
    await waitFor(() => expect(screen.getByLabelText("Password")).toHaveAccessibleDescription(common));
    expect(screen.getAllByText(common)).toHaveLength(1);

    server.use(http.post("*/api/auth/signup", () => apiError(500, "internal", "Mailer not configured")));
    await user.click(screen.getByRole("button", { name: "Create Account" }));
    const notConfigured = "Authentication service is not properly configured. Please contact support.";
    const form = screen.getByRole("form", { name: "Create your account" });
    expect(await within(form).findByText(notConfigured)).toBeInTheDocument();
    expect(form).toHaveAccessibleDescription(notConfigured);
    expect(screen.getAllByText(notConfigured)).toHaveLength(1);
  });

  it("shows both passwords on request", async () => {
    const { user } = renderApp("/signup");
    await user.click(await screen.findByRole("button", { name: "Show confirm password" }));
    expect(screen.getByLabelText("Confirm password")).toHaveAttribute("type", "text");
    expect(screen.getByLabelText("Password")).toHaveAttribute("type", "password");
  });

  it("answers alike for an existing e-mail (no account enumeration)", async () => {
    db.createUser({ email: "ana@example.com" });
    const { user } = renderApp("/signup");
    await fill(user, "ana@example.com", "secret123", "secret123");
    await waitFor(() => expect(screen.getByRole("heading", { name: "Check Your Email" })).toBeInTheDocument());
  });

  it("sends a signed-in user to the dashboard", async () => {
    db.createUser({ email: "ana@example.com" });
    const { router } = renderApp("/signup", { signedInAs: "ana@example.com" });
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard"));
  });

  it("carries next to the API, into the verification link and to Go to Sign In", async () => {
    let sent: Record<string, unknown> | undefined;
    server.use(
      http.post("*/api/auth/signup", async ({ request }) => {
        sent = (await request.clone().json()) as Record<string, unknown>;
      }),
    );
    const { user } = renderApp(`/signup?next=${encodeURIComponent("/pricing?checkout=price_closewise_monthly")}`);
    await fill(user, "ana@example.com", "secret123", "secret123");
    await screen.findByRole("heading", { name: "Check Your Email" });
    expect(sent?.next).toBe("/pricing?checkout=price_closewise_monthly");
    expect(db.lastMailTo("ana@example.com")?.link).toMatch(
      /\/verify\?token=[^&]+&next=%2Fpricing%3Fcheckout%3Dprice_closewise_monthly$/,
    );
    expect(screen.getByRole("link", { name: "Go to Sign In" })).toHaveAttribute(
      "href",
      "/signin?next=%2Fpricing%3Fcheckout%3Dprice_closewise_monthly",
    );
  });

  it("drops a next that is not a path of this site", async () => {
    let sent: Record<string, unknown> | undefined;
    server.use(
      http.post("*/api/auth/signup", async ({ request }) => {
        sent = (await request.clone().json()) as Record<string, unknown>;
      }),
    );
    const { user } = renderApp(`/signup?next=${encodeURIComponent("//evil.example/x")}`);
    await fill(user, "ana@example.com", "secret123", "secret123");
    await screen.findByRole("heading", { name: "Check Your Email" });
    expect(sent).not.toHaveProperty("next");
    expect(screen.getByRole("link", { name: "Go to Sign In" })).toHaveAttribute("href", "/signin");
  });

  it("Check Your Email resends beside Try again, then counts down the once-a-minute limit", async () => {
    const { user } = renderApp("/signup");
    await fill(user, "ana@example.com", "secret123", "secret123");
    await screen.findByRole("heading", { name: "Check Your Email" });
    expect(screen.getByRole("button", { name: "Try again" })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Resend verification email" }));
    expect(await screen.findByText("Verification email sent! Check your inbox.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: /^Resend verification email in (60|59)s$/ })).toBeDisabled();
  });

  it("shows the service's wait when resend is limited, as a countdown", async () => {
    server.use(
      http.post("*/api/auth/resend", () =>
        HttpResponse.json(
          {
            error: {
              code: "over_email_send_rate_limit",
              message: "For security purposes, you can only request this after 42 seconds.",
            },
          },
          { status: 429, headers: { "Retry-After": "42" } },
        ),
      ),
    );
    const { user } = renderApp("/signup");
    await fill(user, "ana@example.com", "secret123", "secret123");
    await user.click(await screen.findByRole("button", { name: "Resend verification email" }));
    expect(await screen.findByText("For security purposes, you can only request this after 42 seconds.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: /^Resend verification email in (42|41)s$/ })).toBeDisabled();
  });

  it("says the spec's 'Failed to resend verification email' when the service gives no message", async () => {
    server.use(http.post("*/api/auth/resend", () => new HttpResponse("oops", { status: 500 })));
    const { user } = renderApp("/signup");
    await fill(user, "ana@example.com", "secret123", "secret123");
    await user.click(await screen.findByRole("button", { name: "Resend verification email" }));
    expect(await screen.findByText("Failed to resend verification email")).toBeInTheDocument();
    expect(screen.queryByText(/Request failed/)).not.toBeInTheDocument();
  });
});
