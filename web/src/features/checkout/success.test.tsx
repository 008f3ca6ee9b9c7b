import { screen, waitFor, within } from "@testing-library/react";
import { http, HttpResponse } from "msw";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { activationRetry } from "./components/Success";
import { apiError } from "../../testing/handlers";
import { db } from "../../testing/db";
import { renderApp } from "../../testing/render";
import { server } from "../../testing/server";

function paidCheckout(email: string) {
  const user = db.createUser({ email });
  db.checkoutSessions.set("cs_test_a1b2c3d4e5f6g7h8", { id: "cs_test_a1b2c3d4e5f6g7h8", userId: user.id, paid: true });
  return user;
}

describe("Success page", () => {
  let saved: number[];
  beforeEach(() => {
    saved = activationRetry.delaysMs;
    activationRetry.delaysMs = [20, 20, 20];
  });
  afterEach(() => {
    activationRetry.delaysMs = saved;
  });

  it("retries while Stripe is unavailable or the payment is not in yet, saying so, then activates", async () => {
    paidCheckout("ana@example.com");
    const answers = [
      () => apiError(502, "stripe_unavailable", "Plan activation failed, but you can contact support."),
      () => apiError(409, "session_not_paid", "Plan activation failed, but you can contact support."),
    ];
    let calls = 0;
    server.use(
      http.post("*/api/checkout/confirm", () => {
        calls += 1;
        return answers.shift()?.();
      }),
    );
    renderApp("/success?session_id=cs_test_a1b2c3d4e5f6g7h8", { signedInAs: "ana@example.com" });
    expect(await screen.findByText(/Your payment is still being confirmed/)).toBeInTheDocument();
    expect(await screen.findByRole("heading", { name: "Payment Successful" })).toBeInTheDocument();
    expect(calls).toBe(3);
    expect(screen.queryByText("Plan activation failed, but you can contact support.")).not.toBeInTheDocument();
  });

  it("gives up after the retries with the spec's message, never claiming nothing was activated", async () => {
    paidCheckout("ana@example.com");
    let calls = 0;
    server.use(
      http.post("*/api/checkout/confirm", () => {
        calls += 1;
        return apiError(502, "stripe_unavailable", "Plan activation failed, but you can contact support.");
      }),
    );
    renderApp("/success?session_id=cs_test_a1b2c3d4e5f6g7h8", { signedInAs: "ana@example.com" });
    expect(await screen.findByText("Plan activation failed, but you can contact support.")).toBeInTheDocument();
    expect(calls).toBe(4);
    expect(screen.queryByText(/Nothing was activated/i)).not.toBeInTheDocument();
  });

  it("activates with the last 8 characters of the session, then shows Payment Successful", async () => {
    paidCheckout("ana@example.com");
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    server.use(http.post("*/api/checkout/confirm", async () => void (await gate)));
    renderApp("/success?session_id=cs_test_a1b2c3d4e5f6g7h8", { signedInAs: "ana@example.com" });
    expect(await screen.findByRole("heading", { name: "Activating your subscription" })).toBeInTheDocument();
    expect(screen.getByText("…e5f6g7h8")).toBeInTheDocument();
    server.resetHandlers();
    release();
    expect(await screen.findByRole("heading", { name: "Payment Successful" })).toBeInTheDocument();
  });

  it("shows the plan, the buttons and the support contact, and refetches the subscription 1 s later", async () => {
    paidCheckout("ana@example.com");
    const subscriptionCalls: number[] = [];
    let confirmedAt = 0;
    server.use(
      http.post("*/api/checkout/confirm", () => {
        confirmedAt = Date.now(); // then falls through to the stateful handler
      }),
      http.get("*/api/subscription", () => {
        subscriptionCalls.push(Date.now());
        return HttpResponse.json({ subscription: null });
      }),
    );
    renderApp("/success?session_id=cs_test_a1b2c3d4e5f6g7h8", { signedInAs: "ana@example.com" });
    expect(await screen.findByRole("heading", { name: "Payment Successful" })).toBeInTheDocument();
    // The toast follows the heading (an effect of the page once it is activated).
    expect(await screen.findByText("Subscription activated successfully!")).toBeInTheDocument();
    expect(screen.getByText("Unlimited Sales Copilot")).toBeInTheDocument();
    expect(screen.getByText("Monthly Plan")).toBeInTheDocument();
    expect(screen.getByText("Unlimited Usage")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Go to Dashboard" })).toHaveAttribute("href", "/dashboard");
    expect(screen.getByRole("link", { name: "Back to Home" })).toHaveAttribute("href", "/");
    expect(within(screen.getByRole("main")).getByRole("link", { name: "support@closewise.app" })).toHaveAttribute(
      "href",
      "mailto:support@closewise.app",
    );
    expect(db.plans.get(db.findUser("ana@example.com")!.user.id)?.plan_type).toBe("monthly");
    expect(subscriptionCalls).toEqual([]);
    await waitFor(() => expect(subscriptionCalls).toHaveLength(1), { timeout: 2500 });
    expect(subscriptionCalls[0]! - confirmedAt).toBeGreaterThanOrEqual(900);
  });

  it.each([
    ["a made-up session", "cs_made_up"],
    ["someone else's session", "cs_test_a1b2c3d4e5f6g7h8"],
  ])("activates nothing for %s and says so", async (_name, sessionId) => {
    paidCheckout("owner@example.com");
    db.createUser({ email: "ana@example.com" });
    renderApp(`/success?session_id=${sessionId}`, { signedInAs: "ana@example.com" });
    expect(await screen.findByText("Plan activation failed, but you can contact support.")).toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: "Payment Successful" })).not.toBeInTheDocument();
    expect(db.plans.get(db.findUser("ana@example.com")!.user.id)?.plan_type).toBe("free");
  });
});
