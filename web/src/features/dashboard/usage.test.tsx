import { screen, waitFor, within } from "@testing-library/react";
import { http, HttpResponse } from "msw";
import { afterEach, describe, expect, it, vi } from "vitest";
import { redirect } from "../../lib/redirect";
import { db, UNLIMITED } from "../../testing/db";
import { renderApp } from "../../testing/render";
import { server } from "../../testing/server";
import { usedUpText } from "./components/UsageMeter";

afterEach(() => vi.restoreAllMocks());

const meter = () => screen.findByRole("region", { name: "Calls" });

describe("Dashboard: the call meter", () => {
  it("shows a free user the calls used of the Free Trial, with a labelled progress bar, beside the upgrade block", async () => {
    db.createUser({ email: "ana@example.com", entitlements: { calls: { limit: 5, used: 3, remaining: 2 } } });
    renderApp("/dashboard", { signedInAs: "ana@example.com" });
    const region = await meter();
    expect(await within(region).findByText("3 of 5 free calls used")).toBeInTheDocument();
    const bar = within(region).getByRole("progressbar", { name: "Free calls used" });
    expect(bar).toHaveAttribute("aria-valuenow", "3");
    expect(bar).toHaveAttribute("aria-valuemax", "5");
    expect(bar).toHaveAttribute("aria-valuetext", "3 of 5 free calls used");
    expect(screen.getByRole("region", { name: "Upgrade to Unlimited Sales Copilot" })).toBeInTheDocument();
    expect(screen.queryByText(usedUpText(5))).not.toBeInTheDocument();
  });

  it("says when the free calls are used up", async () => {
    db.createUser({ email: "ana@example.com", entitlements: { calls: { limit: 5, used: 5, remaining: 0 } } });
    renderApp("/dashboard", { signedInAs: "ana@example.com" });
    const region = await meter();
    expect(await within(region).findByText("5 of 5 free calls used")).toBeInTheDocument();
    expect(within(region).getByText("You have used your 5 free calls. Upgrade to keep getting live hints.")).toBeInTheDocument();
  });

  it("shows the server's limit, operator grants included", async () => {
    db.createUser({ email: "ana@example.com", entitlements: { calls: { limit: 7, used: 6, remaining: 1 } } });
    renderApp("/dashboard", { signedInAs: "ana@example.com" });
    expect(await within(await meter()).findByText("6 of 7 free calls used")).toBeInTheDocument();
  });

  it("shows a paid user this month's calls and no meter", async () => {
    db.createUser({ email: "pro@example.com", plan: "monthly", entitlements: { calls_this_month: 12 } });
    renderApp("/dashboard", { signedInAs: "pro@example.com" });
    const region = await meter();
    expect(await within(region).findByText("12 calls this month")).toBeInTheDocument();
    expect(within(region).queryByRole("progressbar")).not.toBeInTheDocument();
    expect(within(region).queryByRole("alert")).not.toBeInTheDocument();
  });

  it("warns a paid user whose payment failed, says Stripe's next try, and Update payment method opens the billing portal", async () => {
    const entitlements = { calls_this_month: 1, warning: "payment_failed" as const };
    // 2026-12-03T12:00:00Z
    const subscription = {
      subscription_status: "past_due" as const,
      past_due_since: 1_796_128_800,
      attempt_count: 1,
      next_payment_attempt: 1_796_299_200,
    };
    db.createUser({ email: "pro@example.com", plan: "monthly", subscription, entitlements });
    const to = vi.spyOn(redirect, "to").mockImplementation(() => {});
    const { user: clicker } = renderApp("/dashboard", { signedInAs: "pro@example.com" });
    const region = await meter();
    expect(await within(region).findByText("1 call this month")).toBeInTheDocument();
    const warning = within(region).getByRole("alert");
    expect(warning).toHaveTextContent("Your last payment failed.");
    expect(
      await within(warning).findByText("We'll try the card again on December 3, 2026. Pro stays on until then."),
    ).toBeInTheDocument();
    await clicker.click(within(warning).getByRole("button", { name: "Update payment method" }));
    await waitFor(() => expect(to).toHaveBeenCalledWith("http://localhost:3000/dashboard"));
  });

  it("opens the billing portal at once from a failed payment mail's link (/dashboard#update-card)", async () => {
    const entitlements = { calls_this_month: 1, warning: "payment_failed" as const };
    const subscription = { subscription_status: "past_due" as const, past_due_since: 1_796_128_800, attempt_count: 4 };
    db.createUser({ email: "pro@example.com", plan: "monthly", subscription, entitlements });
    const to = vi.spyOn(redirect, "to").mockImplementation(() => {});
    renderApp("/dashboard#update-card", { signedInAs: "pro@example.com" });
    const region = await meter();
    expect(await within(region).findByText("That was the last try: update the card now to keep Pro.")).toBeInTheDocument();
    await waitFor(() => expect(to).toHaveBeenCalledWith("http://localhost:3000/dashboard"));
    expect(to).toHaveBeenCalledTimes(1);
  });

  it("tells a team member whose team's payment failed that the owner updates it on the Team page, without the personal portal", async () => {
    db.createUser({ email: "ana@northwind.example" });
    const bo = db.createUser({ email: "bo@northwind.example" });
    const { team } = db.seedTeam({
      owner: "ana@northwind.example",
      seats: 2,
      status: "past_due",
      members: [{ email: bo.email }],
    });
    const viaTeam = {
      ...UNLIMITED,
      source: "team" as const,
      team: { id: team.id, name: team.name },
      warning: "payment_failed" as const,
    };
    db.entitlements.set(bo.id, viaTeam);
    const to = vi.spyOn(redirect, "to").mockImplementation(() => {});
    let portal = false;
    server.events.on("request:start", ({ request }) => {
      if (request.url.endsWith("/api/billing/portal")) portal = true;
    });
    const { user } = renderApp("/dashboard", { signedInAs: "bo@northwind.example" });
    const region = await meter();
    const warning = await within(region).findByRole("alert");
    expect(warning).toHaveTextContent("Your team's last payment failed.");
    expect(warning).toHaveTextContent("The team's owner can update the payment method on the Team page.");
    expect(within(warning).queryByRole("button")).not.toBeInTheDocument();
    const link = within(warning).getByRole("link", { name: "Team page" });
    expect(link).toHaveAttribute("href", "/team");
    await user.click(link);
    expect(await screen.findByRole("heading", { name: "Team", level: 1 })).toBeInTheDocument();
    expect(portal).toBe(false);
    expect(to).not.toHaveBeenCalled();
    server.events.removeAllListeners();
  });

  it("keeps a paying user's dashboard when the entitlements fail, and the meter says its usage cannot be shown", async () => {
    db.createUser({ email: "pro@example.com", plan: "monthly" });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.get("*/api/entitlements", async () => {
        await gate;
        return HttpResponse.json({ error: { code: "unavailable", message: "Service unavailable" } }, { status: 503 });
      }),
    );
    renderApp("/dashboard", { signedInAs: "pro@example.com" });
    expect(screen.getByText("Loading your dashboard...")).toBeInTheDocument();
    release();
    const region = await meter();
    expect(await within(region).findByText("Your call usage cannot be shown right now.")).toBeInTheDocument();
    expect(screen.getByRole("region", { name: "Your Plan" })).toHaveTextContent("Unlimited Sales Copilot");
    expect(screen.getByRole("region", { name: "Subscription Management" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Upgrade Now" })).not.toBeInTheDocument();
  });
});
