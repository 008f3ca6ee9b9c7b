import { screen, waitFor, within } from "@testing-library/react";
import { http, HttpResponse } from "msw";
import { describe, expect, it, vi } from "vitest";
import * as analytics from "../../lib/analytics";
import { CATALOGUE_SNAPSHOT } from "../../lib/billing/rules";
import { redirect } from "../../lib/redirect";
import { db, VIA_TEAM } from "../../testing/db";
import { apiError } from "../../testing/handlers";
import { renderApp } from "../../testing/render";
import { server } from "../../testing/server";

const paidCard = () => screen.getByRole("article", { name: "Unlimited Sales Copilot" });

describe("Pricing and the checkout button", () => {
  it("shows the Free Trial card and the paid card with the spec's features", async () => {
    renderApp("/pricing");
    const free = await screen.findByRole("article", { name: "Free Trial" });
    for (const text of ["5 calls of 5 minutes each", "Basic insights", "Community support"]) {
      expect(within(free).getByText(text)).toBeInTheDocument();
    }
    for (const text of ["Unlimited usage", "Advanced AI insights", "Priority support", "CRM integrations"]) {
      expect(within(paidCard()).getByText(text)).toBeInTheDocument();
    }
    expect(within(paidCard()).getByText("$20")).toBeInTheDocument();
    expect(within(paidCard()).getByText("/month")).toBeInTheDocument();
  });

  it("renders the prices and features the API's catalogue answers", async () => {
    const paid = { ...CATALOGUE_SNAPSHOT.products[0]!, price: 35, features: ["Everything, faster"] };
    const free_trial = { name: "Free Trial", features: ["3 calls to try"] };
    server.use(http.get("*/api/products", () => HttpResponse.json({ products: [paid], free_trial })));
    renderApp("/pricing");
    expect(await within(paidCard()).findByText("$35")).toBeInTheDocument();
    expect(within(paidCard()).getByText("Everything, faster")).toBeInTheDocument();
    expect(within(paidCard()).queryByText("Priority support")).not.toBeInTheDocument();
    expect(within(screen.getByRole("article", { name: "Free Trial" })).getByText("3 calls to try")).toBeInTheDocument();
  });

  const intent = `/signup?next=${encodeURIComponent("/pricing?checkout=price_closewise_monthly")}`;

  it("offers a signed-out visitor sign-up with the checkout intent from the start, before the session check ends", async () => {
    renderApp("/pricing");
    const link = within(paidCard()).getByRole("link", { name: "Sign In Required" });
    expect(link).toHaveAttribute("href", intent);
    expect(within(paidCard()).queryByRole("button", { name: "Loading..." })).not.toBeInTheDocument();
    await waitFor(() =>
      expect(within(paidCard()).getByRole("link", { name: "Sign In Required" })).toHaveAttribute("href", intent),
    );
  });

  it("takes a signed-out visitor to sign-up, keeping the plan to check out", async () => {
    const { user, router } = renderApp("/pricing");
    await user.click(await within(paidCard()).findByRole("link", { name: "Sign In Required" }));
    expect(await screen.findByText("Please sign in to continue")).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe("/signup"));
    expect(router.state.location.search).toBe(`?next=${encodeURIComponent("/pricing?checkout=price_closewise_monthly")}`);
  });

  it("starts the checkout the visitor asked for once they are back signed in", async () => {
    db.createUser({ email: "ana@example.com" });
    const to = vi.spyOn(redirect, "to").mockImplementation(() => {});
    renderApp("/pricing?checkout=price_closewise_monthly", { signedInAs: "ana@example.com" });
    await waitFor(() => expect(to).toHaveBeenCalledTimes(1));
    expect(to.mock.calls[0]![0]).toMatch(/\/success\?session_id=/);
  });

  it("carries a link's promotion code through sign-up into the checkout", async () => {
    const { user, router } = renderApp("/pricing?promo=LAUNCH20");
    await user.click(await within(paidCard()).findByRole("link", { name: "Sign In Required" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/signup"));
    const next = new URLSearchParams(router.state.location.search).get("next");
    expect(next).toBe("/pricing?checkout=price_closewise_monthly&promo=LAUNCH20");

    db.createUser({ email: "ana@example.com" });
    let sent: Record<string, unknown> | undefined;
    server.use(
      http.post("*/api/checkout", async ({ request }) => {
        sent = (await request.json()) as Record<string, unknown>;
        return HttpResponse.json({ url: "https://checkout.example/pay/cs_1" });
      }),
    );
    const to = vi.spyOn(redirect, "to").mockImplementation(() => {});
    renderApp(next!, { signedInAs: "ana@example.com" });
    await waitFor(() => expect(to).toHaveBeenCalledWith("https://checkout.example/pay/cs_1"));
    expect(sent).toMatchObject({ price_id: "price_closewise_monthly", promotion_code: "LAUNCH20" });
  });

  it("says plainly why a link's promotion code cannot be used, and subscribes without it on the next click", async () => {
    db.createUser({ email: "ana@example.com" });
    const to = vi.spyOn(redirect, "to").mockImplementation(() => {});
    const { user } = renderApp("/pricing?checkout=price_closewise_monthly&promo=EXPIRED1", {
      signedInAs: "ana@example.com",
    });
    expect(await within(paidCard()).findByRole("alert")).toHaveTextContent(
      "This promotion code does not exist. You can subscribe without it.",
    );
    expect(to).not.toHaveBeenCalled();
    await user.click(within(paidCard()).getByRole("button", { name: "Start Subscription" }));
    await waitFor(() => expect(to).toHaveBeenCalledTimes(1));
  });

  it("does not start a checkout for an intent that is not this product's, or for a paid user", async () => {
    db.createUser({ email: "ana@example.com" });
    db.createUser({ email: "pro@example.com", plan: "monthly" });
    const to = vi.spyOn(redirect, "to").mockImplementation(() => {});
    renderApp("/pricing?checkout=price_other", { signedInAs: "ana@example.com" });
    expect(await within(paidCard()).findByRole("button", { name: "Start Subscription" })).toBeEnabled();
    expect(to).not.toHaveBeenCalled();
  });

  it("shows Loading... while a signed-in user's plan loads", async () => {
    db.createUser({ email: "ana@example.com" });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    server.use(http.get("*/api/plan", async () => void (await gate)));
    renderApp("/pricing", { signedInAs: "ana@example.com" });
    expect(await within(paidCard()).findByRole("button", { name: "Loading..." })).toBeDisabled();
    server.resetHandlers();
    release();
    expect(await within(paidCard()).findByRole("button", { name: "Start Subscription" })).toBeEnabled();
  });

  it("says the plan could not be loaded, with Try again, instead of loading forever when the plan read fails", async () => {
    db.createUser({ email: "ana@example.com" });
    let fail = true;
    server.use(http.get("*/api/plan", () => (fail ? apiError(503, "unavailable", "down") : undefined)));
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const { user } = renderApp("/pricing", { signedInAs: "ana@example.com" });
    expect(await within(paidCard()).findByRole("alert")).toHaveTextContent("Could not load your plan.");
    fail = false;
    await user.click(within(paidCard()).getByRole("button", { name: "Try again" }));
    expect(await within(paidCard()).findByRole("button", { name: "Start Subscription" })).toBeEnabled();
  });

  it("says Verify Email First to an unverified user, and why on click", async () => {
    db.createUser({ email: "new@example.com", verified: false, checkout: "verify_email" });
    const { user } = renderApp("/pricing", { signedInAs: "new@example.com" });
    await user.click(await within(paidCard()).findByRole("button", { name: "Verify Email First" }));
    expect(await screen.findByText("Please verify your email address before subscribing")).toBeInTheDocument();
  });

  it("says Current Plan, disabled, to a paid user", async () => {
    db.createUser({ email: "pro@example.com", plan: "monthly" });
    renderApp("/pricing", { signedInAs: "pro@example.com" });
    expect(await within(paidCard()).findByRole("button", { name: "Current Plan" })).toBeDisabled();
  });

  it("tells a member with a seat in a paid team they have the paid plan through it, and offers no second subscription", async () => {
    db.createUser({ email: "ana@northwind.example" });
    db.createUser({ email: "bo@northwind.example", entitlements: VIA_TEAM, checkout: "current_plan" });
    db.seedTeam({ owner: "ana@northwind.example", seats: 2, members: [{ email: "bo@northwind.example" }] });
    const to = vi.spyOn(redirect, "to").mockImplementation(() => {});
    renderApp("/pricing?checkout=price_closewise_monthly", { signedInAs: "bo@northwind.example" });
    expect(await within(paidCard()).findByRole("button", { name: "Current Plan" })).toBeDisabled();
    expect(within(paidCard()).getByText("You have Unlimited Sales Copilot through Northwind Sales.")).toBeInTheDocument();
    expect(to).not.toHaveBeenCalled();
  });

  it("offers the subscription to a member of a team without a paid subscription", async () => {
    db.createUser({ email: "ana@northwind.example" });
    db.seedTeam({ owner: "ana@northwind.example", members: [{ email: "bo@northwind.example" }] });
    renderApp("/pricing", { signedInAs: "bo@northwind.example" });
    expect(await within(paidCard()).findByRole("button", { name: "Start Subscription" })).toBeEnabled();
    expect(within(paidCard()).queryByText(/Unlimited Sales Copilot through/)).not.toBeInTheDocument();
  });

  it("starts the subscription: disabled while busy, then off to the checkout URL", async () => {
    db.createUser({ email: "ana@example.com" });
    const to = vi.spyOn(redirect, "to").mockImplementation(() => {});
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let sent: Record<string, unknown> | undefined;
    server.use(
      http.post("*/api/checkout", async ({ request }) => {
        sent = (await request.json()) as Record<string, unknown>;
        await gate;
        return HttpResponse.json({ url: "https://checkout.example/pay/cs_1" });
      }),
    );
    const { user } = renderApp("/pricing", { signedInAs: "ana@example.com" });
    await user.click(await within(paidCard()).findByRole("button", { name: "Start Subscription" }));
    expect(within(paidCard()).getByRole("button", { name: "Loading..." })).toBeDisabled();
    release();
    await waitFor(() => expect(to).toHaveBeenCalledWith("https://checkout.example/pay/cs_1"));
    expect(sent).toEqual({
      price_id: "price_closewise_monthly",
      mode: "subscription",
      success_url: "http://localhost:3000/success?session_id={CHECKOUT_SESSION_ID}",
      cancel_url: "http://localhost:3000/pricing",
    });
  });

  it("says Buy Now for a one-time product", async () => {
    db.createUser({ email: "ana@example.com" });
    server.use(
      http.get("*/api/products", () =>
        HttpResponse.json({
          products: [
            {
              id: "p",
              priceId: "price_once",
              name: "Lifetime Copilot",
              description: "d",
              mode: "payment",
              price: 99,
              currency: "usd",
              interval: "month",
              features: ["Everything, once"],
            },
          ],
          free_trial: CATALOGUE_SNAPSHOT.free_trial,
        }),
      ),
    );
    renderApp("/pricing", { signedInAs: "ana@example.com" });
    expect(await screen.findByRole("button", { name: "Buy Now" })).toBeEnabled();
  });

  it.each([
    [
      "the service's message",
      () => apiError(409, "already_subscribed", "You already have this subscription"),
      "You already have this subscription",
    ],
    [
      "Failed to create checkout session",
      () => apiError(502, "checkout_failed", "Failed to create checkout session"),
      "Failed to create checkout session",
    ],
    ["No checkout URL received", () => HttpResponse.json({ url: null }), "No checkout URL received"],
    ["Failed to start checkout process", () => HttpResponse.error(), "Failed to start checkout process"],
  ])("shows %s as a toast and enables the button again", async (_name, answer, message) => {
    db.createUser({ email: "ana@example.com" });
    server.use(http.post("*/api/checkout", answer));
    const track = vi.spyOn(analytics, "track");
    const { user } = renderApp("/pricing", { signedInAs: "ana@example.com" });
    await user.click(await within(paidCard()).findByRole("button", { name: "Start Subscription" }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(track).toHaveBeenCalledWith("pricing_interaction", expect.objectContaining({ action: "checkout_click" }));
    expect(track).toHaveBeenCalledWith("checkout_error", expect.any(Object));
    expect(within(paidCard()).getByRole("button", { name: "Start Subscription" })).toBeEnabled();
  });

  it("relays 'Authentication required. Please sign in again.' when the session ended on the server", async () => {
    db.createUser({ email: "ana@example.com" });
    server.use(
      http.post("*/api/checkout", () => apiError(401, "invalid_token", "Authentication required. Please sign in again.")),
    );
    const { user } = renderApp("/pricing", { signedInAs: "ana@example.com" });
    await user.click(await within(paidCard()).findByRole("button", { name: "Start Subscription" }));
    expect(await screen.findByText("Authentication required. Please sign in again.")).toBeInTheDocument();
  });
  describe("the Monthly / Yearly switch", () => {
    const yearlyIntent = `/signup?next=${encodeURIComponent("/pricing?checkout=price_closewise_yearly")}`;

    it("opens on Monthly and changes the price line and the price checkout uses to the yearly one", async () => {
      const { user } = renderApp("/pricing");
      const card = paidCard();
      const monthly = within(card).getByRole("radio", { name: "Monthly" });
      expect(monthly).toHaveAttribute("aria-checked", "true");
      await user.click(within(card).getByRole("radio", { name: "Yearly" }));
      expect(within(card).getByRole("radio", { name: "Yearly" })).toHaveAttribute("aria-checked", "true");
      expect(within(card).getByText("$200")).toBeInTheDocument();
      expect(within(card).getByText("/year — 2 months free")).toBeInTheDocument();
      expect(within(card).queryByText("$20")).not.toBeInTheDocument();
      expect(within(card).getByRole("link", { name: "Sign In Required" })).toHaveAttribute("href", yearlyIntent);
      await user.click(within(card).getByRole("radio", { name: "Monthly" }));
      expect(within(card).getByText("/month")).toBeInTheDocument();
    });

    it("changes the card in place, live, and says the choice in the address, the other parameters kept", async () => {
      const { user, router } = renderApp("/pricing?promo=LAUNCH20");
      const card = await screen.findByRole("article", { name: "Unlimited Sales Copilot" });
      await user.click(within(card).getByRole("radio", { name: "Yearly" }));
      expect(within(card).getByRole("radio", { name: "Yearly" })).toHaveAttribute("aria-checked", "true");
      await waitFor(() => expect(router.state.location.search).toBe("?promo=LAUNCH20&interval=year"));
      expect(router.state.location.pathname).toBe("/pricing");
      expect(within(card).getByRole("link", { name: "Sign In Required" })).toHaveAttribute(
        "href",
        `/signup?next=${encodeURIComponent("/pricing?checkout=price_closewise_yearly&promo=LAUNCH20")}`,
      );
      expect(within(card).getByRole("radio", { name: "Monthly" })).toHaveAttribute(
        "href",
        "?promo=LAUNCH20&interval=month#pricing",
      );
    });

    it("opens on Yearly for /pricing?interval=year", async () => {
      renderApp("/pricing?interval=year");
      const card = paidCard();
      expect(within(card).getByRole("radio", { name: "Yearly" })).toHaveAttribute("aria-checked", "true");
      expect(within(card).getByText("$200")).toBeInTheDocument();
    });

    it("keeps the yearly choice through sign-up: its checkout intent opens on Yearly and starts the yearly checkout", async () => {
      db.createUser({ email: "ana@example.com" });
      const to = vi.spyOn(redirect, "to").mockImplementation(() => {});
      let asked: unknown;
      server.use(
        http.post("*/api/checkout", async ({ request }) => {
          asked = await request.clone().json();
        }),
      );
      renderApp("/pricing?checkout=price_closewise_yearly", { signedInAs: "ana@example.com" });
      await waitFor(() => expect(to).toHaveBeenCalledTimes(1));
      expect(asked).toMatchObject({ price_id: "price_closewise_yearly", mode: "subscription" });
      expect(within(paidCard()).getByRole("radio", { name: "Yearly" })).toHaveAttribute("aria-checked", "true");
    });
  });
});
