import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { http, HttpResponse } from "msw";
import { describe, expect, it, vi } from "vitest";
import { redirect } from "../../lib/redirect";
import { db, VIA_TEAM } from "../../testing/db";
import { renderApp } from "../../testing/render";
import { server } from "../../testing/server";
import { ACCESS_LIMITED_TEXT } from "./components/Dashboard";

describe("Dashboard", () => {
  it("sends signed-out visitors to sign in and brings them back afterwards", async () => {
    db.createUser({ email: "ana@example.com", password: "secret123" });
    const { user, router } = renderApp("/dashboard");
    await waitFor(() => expect(router.state.location.pathname).toBe("/signin"));
    expect(router.state.location.search).toBe(`?next=${encodeURIComponent("/dashboard")}`);
    await user.type(await screen.findByLabelText("Email"), "ana@example.com");
    await user.type(screen.getByLabelText("Password"), "secret123");
    await user.click(screen.getByRole("button", { name: "Sign In" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard"));
  });

  it("restores a session signed in outside the page (no hint in storage) instead of sending the user away", async () => {
    db.createUser({ email: "ana@example.com" });
    db.signInBrowser("ana@example.com");
    const { router } = renderApp("/dashboard");
    expect(await screen.findByRole("heading", { name: "Dashboard", level: 1 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/dashboard");
  });

  it("says 'Loading your dashboard...' while the account and plan load", async () => {
    db.createUser({ email: "ana@example.com" });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.get("*/api/plan", async () => {
        await gate;
        return HttpResponse.json(db.plans.get(db.findUser("ana@example.com")!.user.id));
      }),
    );
    renderApp("/dashboard", { signedInAs: "ana@example.com" });
    expect(screen.getByText("Loading your dashboard...")).toBeInTheDocument();
    release();
    expect(await screen.findByRole("heading", { name: "Dashboard", level: 1 })).toBeInTheDocument();
    expect(screen.queryByText("Loading your dashboard...")).not.toBeInTheDocument();
  });

  it("keeps the skeleton while the entitlements load, then shows the plan", async () => {
    db.createUser({ email: "ana@example.com" });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let planRead = false;
    // Returning nothing falls through to the mock API's own handler.
    server.use(
      http.get("*/api/entitlements", async () => {
        await gate;
      }),
      http.get("*/api/plan", () => {
        planRead = true;
      }),
    );
    renderApp("/dashboard", { signedInAs: "ana@example.com" });
    expect(screen.getByText("Loading your dashboard...")).toBeInTheDocument();
    // The plan is in; the entitlements (a team's seat, the meter) are not yet.
    await waitFor(() => expect(planRead).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(screen.queryByRole("region", { name: "Your Plan" })).not.toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Upgrade to Unlimited Sales Copilot" })).not.toBeInTheDocument();
    expect(screen.getByText("Loading your dashboard...")).toBeInTheDocument();
    release();
    const plan = await screen.findByRole("region", { name: "Your Plan" });
    expect(within(plan).getByText("Free Trial")).toBeInTheDocument();
  });

  it("says the plan could not be loaded, with Try again, instead of the free-plan upsell when the entitlements fail", async () => {
    db.createUser({ email: "ana@northwind.example" });
    db.createUser({ email: "bo@northwind.example", entitlements: VIA_TEAM, checkout: "current_plan" });
    db.seedTeam({ owner: "ana@northwind.example", seats: 2, members: [{ email: "bo@northwind.example" }] });
    let fail = true;
    server.use(
      http.get("*/api/entitlements", () =>
        fail ? HttpResponse.json({ error: { code: "unavailable", message: "Service unavailable" } }, { status: 503 }) : undefined,
      ),
    );
    const { user } = renderApp("/dashboard", { signedInAs: "bo@northwind.example" });
    const plan = await screen.findByRole("region", { name: "Your Plan" });
    expect(within(plan).getByRole("alert")).toHaveTextContent("Could not load your plan.");
    expect(within(plan).queryByText("Free Trial")).not.toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Upgrade to Unlimited Sales Copilot" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Upgrade Now" })).not.toBeInTheDocument();
    fail = false;
    await user.click(within(plan).getByRole("button", { name: "Try again" }));
    expect(await screen.findByText("Unlimited Sales Copilot through Northwind Sales")).toBeInTheDocument();
    expect(within(screen.getByRole("region", { name: "Your Plan" })).queryByRole("alert")).not.toBeInTheDocument();
  });

  it("lets the header's buttons wrap on a narrow phone", async () => {
    db.createUser({ email: "ana@example.com" });
    renderApp("/dashboard", { signedInAs: "ana@example.com" });
    const settings = await screen.findByRole("link", { name: "Account settings" });
    await screen.findByRole("link", { name: "Create a team" });
    const row = settings.parentElement!;
    expect(row).toContainElement(screen.getByRole("button", { name: "Upgrade Now" }));
    expect(row).toHaveClass("flex", "flex-wrap");
    expect(row.parentElement).toHaveClass("flex-wrap");
  });

  it("shows a free user the Free Trial, Upgrade Now, the pricing block and the Download panel", async () => {
    db.createUser({ email: "ana@example.com" });
    const { user } = renderApp("/dashboard", { signedInAs: "ana@example.com" });
    const plan = await screen.findByRole("region", { name: "Your Plan" });
    expect(within(plan).getByText("Free Trial")).toBeInTheDocument();
    expect(within(plan).queryByText("Pro Plan")).not.toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Download Closewise" })).toBeInTheDocument();
    const download = screen.getByRole("region", { name: "Download Closewise" });
    expect(within(download).getByRole("link", { name: "Installation guide and system requirements" })).toHaveAttribute(
      "href",
      "/download",
    );
    expect(screen.getByRole("heading", { name: "Upgrade to Unlimited Sales Copilot" })).toBeInTheDocument();
    expect(await screen.findByRole("button", { name: "Start Subscription" })).toBeEnabled();
    // The embedded Free Trial card does not send the visitor to the page they are on.
    const upgrade = screen.getByRole("region", { name: "Upgrade to Unlimited Sales Copilot" });
    expect(within(upgrade).queryByRole("link", { name: "Go to Dashboard" })).not.toBeInTheDocument();
    expect(within(upgrade).getByRole("button", { name: "Current Plan" })).toBeDisabled();
    expect(screen.getByRole("link", { name: "Back to Home" })).toHaveAttribute("href", "/");
    expect(screen.queryByText(/Account Access Limited/)).not.toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Upgrade Now" }));
    expect(Element.prototype.scrollIntoView).toHaveBeenCalled();
  });

  it("shows an unverified user the dismissible banner and the red Account Access Limited notice", async () => {
    db.createUser({ email: "new@example.com", verified: false, checkout: "verify_email" });
    const { user } = renderApp("/dashboard", { signedInAs: "new@example.com" });
    const notice = (await screen.findByText(/Account Access Limited/)).closest("div")!;
    expect(notice).toHaveTextContent(`Account Access Limited: ${ACCESS_LIMITED_TEXT}`);
    expect(ACCESS_LIMITED_TEXT).toBe(
      "Some features are restricted until you verify your email address. Please check your inbox and click the verification link to unlock full access.",
    );
    const banner = screen.getByRole("region", { name: "Email verification" });
    await user.click(within(banner).getByRole("button", { name: "Resend verification email" }));
    expect(await screen.findByText("Verification email sent! Check your inbox.")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Dismiss verification banner" }));
    expect(screen.queryByRole("region", { name: "Email verification" })).not.toBeInTheDocument();
    expect(screen.getByText(/Account Access Limited/)).toBeInTheDocument();
    expect(await screen.findByRole("button", { name: "Verify Email First" })).toBeInTheDocument();
  });

  it("lifts the restriction when the user comes back after verifying elsewhere", async () => {
    db.createUser({ email: "new@example.com", verified: false });
    const { settled } = renderApp("/dashboard", { signedInAs: "new@example.com" });
    expect(await screen.findByText(/Account Access Limited/)).toBeInTheDocument();
    // A read still in flight would answer for the focus below (React Query does not read twice).
    await settled();
    db.findUser("new@example.com")!.user.email_confirmed_at = "2026-11-22T05:00:00Z";
    fireEvent.focus(window);
    await waitFor(() => expect(screen.queryByText(/Account Access Limited/)).not.toBeInTheDocument());
    expect(await screen.findByRole("button", { name: "Start Subscription" })).toBeInTheDocument();
  });

  it("shows a paid user the Pro Plan, You're All Set! and Subscription Management with Renews", async () => {
    const periodEnd = Date.UTC(2026, 11, 24, 12) / 1000;
    db.createUser({ email: "pro@example.com", plan: "monthly", subscription: { current_period_end: periodEnd } });
    renderApp("/dashboard", { signedInAs: "pro@example.com" });
    const plan = await screen.findByRole("region", { name: "Your Plan" });
    expect(within(plan).getByText("Unlimited Sales Copilot")).toBeInTheDocument();
    expect(within(plan).getByText("Pro Plan")).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "You're All Set!" })).toBeInTheDocument();
    const allSet = screen.getByRole("region", { name: "You're All Set!" });
    expect(within(allSet).getByRole("button", { name: "Download for Mac" })).toBeInTheDocument();
    expect(within(allSet).getByRole("link", { name: "Installation guide and system requirements" })).toHaveAttribute(
      "href",
      "/download",
    );
    expect(screen.queryByRole("button", { name: "Upgrade Now" })).not.toBeInTheDocument();
    const management = await screen.findByRole("region", { name: "Subscription Management" });
    expect(within(management).getByText("Active")).toBeInTheDocument();
    expect(await within(management).findByText("Renews")).toBeInTheDocument();
    expect(within(management).getByText("December 24, 2026")).toBeInTheDocument();
    expect(within(management).getByText(/Visa/)).toBeInTheDocument();
    expect(within(management).getByText(/4242/)).toBeInTheDocument();
  });

  it("says Renews yearly on for a yearly subscription, and switches a monthly one to yearly after its preview", async () => {
    const periodEnd = Date.UTC(2027, 10, 24, 12) / 1000;
    db.createUser({
      email: "pro@example.com",
      plan: "monthly",
      subscription: { current_period_end: periodEnd, interval: "year", price_id: "price_closewise_yearly" },
    });
    renderApp("/dashboard", { signedInAs: "pro@example.com" });
    const management = await screen.findByRole("region", { name: "Subscription Management" });
    expect(await within(management).findByText("Renews yearly on")).toBeInTheDocument();
    expect(within(management).getByText("November 24, 2027")).toBeInTheDocument();
    expect(within(management).getByRole("button", { name: "Switch to monthly billing" })).toBeInTheDocument();
  });

  it("previews the switch to yearly billing, then makes it", async () => {
    db.createUser({ email: "pro@example.com", plan: "monthly" });
    const { user } = renderApp("/dashboard", { signedInAs: "pro@example.com" });
    const management = await screen.findByRole("region", { name: "Subscription Management" });
    expect(await within(management).findByText("Renews")).toBeInTheDocument();
    await user.click(within(management).getByRole("button", { name: "Switch to yearly billing" }));
    expect(await within(management).findByText("$190.00")).toBeInTheDocument();
    expect(within(management).getByText("New yearly total")).toBeInTheDocument();
    expect(within(management).getByText("$200.00")).toBeInTheDocument();
    await user.click(within(management).getByRole("button", { name: "Switch to Yearly" }));
    expect(await within(management).findByText("Renews yearly on")).toBeInTheDocument();
    expect(within(management).getByRole("button", { name: "Switch to monthly billing" })).toBeInTheDocument();
  });

  it("labels the date Expires when the subscription is cancelled at period end", async () => {
    db.createUser({ email: "pro@example.com", plan: "monthly", subscription: { cancel_at_period_end: true } });
    renderApp("/dashboard", { signedInAs: "pro@example.com" });
    const management = await screen.findByRole("region", { name: "Subscription Management" });
    expect(await within(management).findByText("Expires")).toBeInTheDocument();
    expect(within(management).queryByText("Renews")).not.toBeInTheDocument();
  });

  it("renders the server's `paid` even when the plan row still says free", async () => {
    const user = db.createUser({ email: "pro@example.com", plan: "monthly" });
    db.plans.get(user.id)!.plan_type = "free";
    renderApp("/dashboard", { signedInAs: "pro@example.com" });
    expect(await screen.findByRole("heading", { name: "You're All Set!" })).toBeInTheDocument();
  });

  it("says the plan could not be loaded, with Try again, when the plan read fails, and never caches it as Free", async () => {
    const me = db.createUser({ email: "pro@example.com", plan: "monthly" });
    let fail = true;
    server.use(
      http.get("*/api/plan", () =>
        fail ? HttpResponse.json({ error: { code: "unavailable", message: "down" } }, { status: 503 }) : undefined,
      ),
    );
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const { user, queryClient } = renderApp("/dashboard", { signedInAs: "pro@example.com" });
    const plan = await screen.findByRole("region", { name: "Your Plan" });
    expect(within(plan).getByRole("alert")).toHaveTextContent("Could not load your plan.");
    expect(within(plan).queryByText("Free Trial")).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Upgrade Now" })).not.toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Upgrade to Unlimited Sales Copilot" })).not.toBeInTheDocument();
    expect(queryClient.getQueriesData({ queryKey: ["plan", me.id] }).every(([, data]) => data === undefined)).toBe(true);
    fail = false;
    await user.click(within(plan).getByRole("button", { name: "Try again" }));
    expect(await screen.findByText("Pro Plan")).toBeInTheDocument();
  });

  it("says 'Failed to fetch subscription data' when a refetch fails, keeping what it showed", async () => {
    db.createUser({ email: "pro@example.com", plan: "monthly" });
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const { queryClient } = renderApp("/dashboard", { signedInAs: "pro@example.com" });
    const management = await screen.findByRole("region", { name: "Subscription Management" });
    expect(await within(management).findByText("Renews")).toBeInTheDocument();
    server.use(
      http.get("*/api/subscription", () => HttpResponse.json({ error: { code: "internal", message: "x" } }, { status: 500 })),
    );
    await queryClient.refetchQueries({ queryKey: ["subscription"] });
    expect(await within(management).findByText("Failed to fetch subscription data")).toBeInTheDocument();
    expect(within(management).getByText("Renews")).toBeInTheDocument();
    server.use(http.get("*/api/subscription", () => HttpResponse.error()));
    await queryClient.refetchQueries({ queryKey: ["subscription"] });
    expect(await within(management).findByText("An unexpected error occurred")).toBeInTheDocument();
  });

  it("logs a failed first subscription fetch only", async () => {
    db.createUser({ email: "pro@example.com", plan: "monthly" });
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    server.use(
      http.get("*/api/subscription", () => HttpResponse.json({ error: { code: "internal", message: "x" } }, { status: 500 })),
    );
    renderApp("/dashboard", { signedInAs: "pro@example.com" });
    const management = await screen.findByRole("region", { name: "Subscription Management" });
    await waitFor(() => expect(warn).toHaveBeenCalled());
    expect(within(management).queryByText("Failed to fetch subscription data")).not.toBeInTheDocument();
  });

  it("opens the billing portal", async () => {
    db.createUser({ email: "pro@example.com", plan: "monthly" });
    const to = vi.spyOn(redirect, "to").mockImplementation(() => {});
    const { user } = renderApp("/dashboard", { signedInAs: "pro@example.com" });
    await user.click(await screen.findByRole("button", { name: "Manage Billing" }));
    await waitFor(() => expect(to).toHaveBeenCalledWith("http://localhost:3000/dashboard"));
  });
});
