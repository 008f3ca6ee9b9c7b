//! The team's billing on /team: buying seats (Stripe Checkout and the way back), changing seats with
//! a preview, and the notice for someone who also pays personally.

import { screen, waitFor, within } from "@testing-library/react";
import { http, HttpResponse } from "msw";
import { describe, expect, it, vi } from "vitest";
import { redirect } from "../../lib/redirect";
import { db } from "../../testing/db";
import { renderApp } from "../../testing/render";
import { server } from "../../testing/server";
import { UNPAID_TEAM } from "../../testing/teamStore";

const OWNER = "ana@northwind.example";

describe("/team billing", () => {
  it("buys seats through Stripe Checkout with the team's success and cancel URLs", async () => {
    db.createUser({ email: OWNER });
    // The server's range: everyone in the team needs a seat.
    const answers = { owner: { seat_range: { min: 2, max: 10000 } } };
    db.seedTeam({ owner: OWNER, members: [{ email: "bo@northwind.example" }], answers });
    const go = vi.spyOn(redirect, "to").mockImplementation(() => {});
    let sent: Record<string, unknown> | undefined;
    server.events.on("request:start", ({ request }) => {
      if (request.url.endsWith("/api/team/checkout"))
        void request
          .clone()
          .json()
          .then((body) => (sent = body as Record<string, unknown>));
    });
    const { user } = renderApp("/team/billing", { signedInAs: OWNER });
    const seats = await screen.findByLabelText("Seats");
    expect(seats).toHaveValue(2);
    await user.clear(seats);
    await user.type(seats, "1");
    await user.click(screen.getByRole("button", { name: "Buy seats" }));
    expect(await screen.findByText("2 seats are in use. Remove members or revoke invites first.")).toBeInTheDocument();
    await user.clear(seats);
    await user.type(seats, "3");
    expect(screen.getByText("3 seats: $60 per month")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Buy seats" }));
    await waitFor(() => expect(go).toHaveBeenCalled());
    const origin = window.location.origin;
    expect(sent).toEqual({
      seats: 3,
      interval: "month",
      success_url: `${origin}/team?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${origin}/team`,
    });
    expect(go.mock.calls[0]![0]).toMatch(/\/team\?checkout=success&session_id=cs_test_/);
    server.events.removeAllListeners();
  });

  it("confirms the checkout on return, shows the team as paid and drops the query", async () => {
    db.createUser({ email: OWNER });
    const { team } = db.seedTeam({ owner: OWNER });
    db.team.checkouts.set("cs_test_team", { id: "cs_test_team", teamId: team.id, seats: 3, paid: true });
    const { router, user } = renderApp("/team?checkout=success&session_id=cs_test_team", { signedInAs: OWNER });
    expect(await screen.findByText(/Payment successful/)).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toBe(""));
    expect(router.state.location.pathname).toBe("/team");
    expect(await screen.findByText("1 of 3 used")).toBeInTheDocument();
    expect(screen.getByText("Active")).toBeInTheDocument();
    await user.click(screen.getByRole("link", { name: "Seats & billing" }));
    expect(await screen.findByRole("button", { name: "Change seats" })).toBeInTheDocument();
  });

  it("says why a returned checkout could not be confirmed, with Try again", async () => {
    db.createUser({ email: OWNER });
    const { team } = db.seedTeam({ owner: OWNER });
    db.team.checkouts.set("cs_test_unpaid", { id: "cs_test_unpaid", teamId: team.id, seats: 2, paid: false });
    const { user, settled } = renderApp("/team?checkout=success&session_id=cs_test_unpaid", { signedInAs: OWNER });
    expect(await screen.findByText("Plan activation failed, but you can contact support.")).toBeInTheDocument();
    await settled();
    db.team.checkouts.get("cs_test_unpaid")!.paid = true;
    await user.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByText(/Payment successful/)).toBeInTheDocument();
  });

  it("previews a seat change (a credit when fewer) and applies it with the preview's proration date", async () => {
    db.createUser({ email: OWNER });
    const answers = { owner: { seat_range: { min: 2, max: 10000 } } };
    db.seedTeam({ owner: OWNER, seats: 3, members: [{ email: "bo@northwind.example" }], answers });
    let put: Record<string, unknown> | undefined;
    server.events.on("request:start", ({ request }) => {
      if (request.method === "PUT" && request.url.endsWith("/api/team/seats"))
        void request
          .clone()
          .json()
          .then((body) => (put = body as Record<string, unknown>));
    });
    const { user } = renderApp("/team/billing", { signedInAs: OWNER });
    expect(await screen.findByText("1 seat is free.")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Change seats" }));
    const dialog = screen.getByRole("dialog", { name: "Change seats" });
    const field = within(dialog).getByLabelText("Seats");
    await user.clear(field);
    await user.type(field, "1");
    await user.click(within(dialog).getByRole("button", { name: "Preview" }));
    expect(await within(dialog).findByText(/2 seats are in use/)).toBeInTheDocument();
    await user.clear(field);
    await user.type(field, "2");
    await user.click(within(dialog).getByRole("button", { name: "Preview" }));
    expect(await within(dialog).findByText("-$20.00 (a credit on your next invoice)")).toBeInTheDocument();
    expect(within(dialog).getByText("$40.00")).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Confirm 2 seats" }));
    expect(await screen.findByText("The team has 2 seats now")).toBeInTheDocument();
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(screen.getByText("2 of 2 used")).toBeInTheDocument();
    expect(put).toEqual({ seats: 2, proration_date: expect.any(Number) as number });
    server.events.removeAllListeners();
  });

  it("shows what is due now when adding seats, and the server's refusal", async () => {
    db.createUser({ email: OWNER });
    db.seedTeam({ owner: OWNER, seats: 2 });
    const { user } = renderApp("/team/billing", { signedInAs: OWNER });
    await user.click(await screen.findByRole("button", { name: "Change seats" }));
    const dialog = screen.getByRole("dialog", { name: "Change seats" });
    await user.clear(within(dialog).getByLabelText("Seats"));
    await user.type(within(dialog).getByLabelText("Seats"), "5");
    await user.click(within(dialog).getByRole("button", { name: "Preview" }));
    expect(await within(dialog).findByText("$60.00")).toBeInTheDocument();
    expect(within(dialog).getByText("$100.00")).toBeInTheDocument();
    server.use(
      http.put("*/api/team/seats", () =>
        HttpResponse.json({ error: { code: "stripe_unavailable", message: "Stripe is unavailable." } }, { status: 502 }),
      ),
    );
    await user.click(within(dialog).getByRole("button", { name: "Confirm 5 seats" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent("Stripe is unavailable.");
    // The preview is stale now: nothing to confirm until a new one.
    expect(within(dialog).queryByRole("button", { name: /^Confirm/ })).not.toBeInTheDocument();
    expect(within(dialog).queryByText("$100.00")).not.toBeInTheDocument();
  });

  it("drops an earlier preview when a new one fails", async () => {
    db.createUser({ email: OWNER });
    db.seedTeam({ owner: OWNER, seats: 2 });
    const { user } = renderApp("/team/billing", { signedInAs: OWNER });
    await user.click(await screen.findByRole("button", { name: "Change seats" }));
    const dialog = screen.getByRole("dialog", { name: "Change seats" });
    await user.clear(within(dialog).getByLabelText("Seats"));
    await user.type(within(dialog).getByLabelText("Seats"), "5");
    await user.click(within(dialog).getByRole("button", { name: "Preview" }));
    expect(await within(dialog).findByRole("button", { name: "Confirm 5 seats" })).toBeInTheDocument();
    server.use(
      http.get("*/api/team/seats/preview", () =>
        HttpResponse.json({ error: { code: "stripe_unavailable", message: "Stripe is unavailable." } }, { status: 502 }),
      ),
    );
    await user.click(within(dialog).getByRole("button", { name: "Preview" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent("Stripe is unavailable.");
    expect(within(dialog).queryByRole("button", { name: /^Confirm/ })).not.toBeInTheDocument();
  });

  it("disables the seats field while a preview or a confirmation is on its way", async () => {
    db.createUser({ email: OWNER });
    db.seedTeam({ owner: OWNER, seats: 2 });
    let release!: () => void;
    let gate = new Promise<void>((resolve) => (release = resolve));
    // Held until released, then answered by the mock API's own handlers.
    server.use(
      http.get("*/api/team/seats/preview", async () => {
        await gate;
      }),
      http.put("*/api/team/seats", async () => {
        await gate;
      }),
    );
    const { user } = renderApp("/team/billing", { signedInAs: OWNER });
    await user.click(await screen.findByRole("button", { name: "Change seats" }));
    const dialog = screen.getByRole("dialog", { name: "Change seats" });
    const field = within(dialog).getByLabelText("Seats");
    await user.clear(field);
    await user.type(field, "3");
    await user.click(within(dialog).getByRole("button", { name: "Preview" }));
    expect(field).toBeDisabled();
    release();
    const confirm = await within(dialog).findByRole("button", { name: "Confirm 3 seats" });
    expect(field).toBeEnabled();
    gate = new Promise<void>((resolve) => (release = resolve));
    await user.click(confirm);
    expect(field).toBeDisabled();
    release();
    expect(await screen.findByText("The team has 3 seats now")).toBeInTheDocument();
  });

  it.each(["past_due", "unpaid", "paused"] as const)(
    "offers Change seats (not Buy seats) to a team whose payment failed (%s), and the owner Manage Billing",
    async (status) => {
      db.createUser({ email: OWNER });
      db.seedTeam({ owner: OWNER, seats: 2, status, answers: { owner: { paid: false, payment_failed: true } } });
      const { user } = renderApp("/team/billing", { signedInAs: OWNER });
      expect(await screen.findByText("The team's last payment failed.")).toBeInTheDocument();
      expect(screen.queryByRole("button", { name: "Buy seats" })).not.toBeInTheDocument();
      expect(screen.getByRole("button", { name: "Manage Billing" })).toBeEnabled();
      expect(screen.queryByText(/Ask the team's owner/)).not.toBeInTheDocument();
      await user.click(screen.getByRole("button", { name: "Change seats" }));
      const dialog = screen.getByRole("dialog", { name: "Change seats" });
      await user.clear(within(dialog).getByLabelText("Seats"));
      await user.type(within(dialog).getByLabelText("Seats"), "3");
      await user.click(within(dialog).getByRole("button", { name: "Preview" }));
      expect(await within(dialog).findByRole("button", { name: "Confirm 3 seats" })).toBeInTheDocument();
    },
  );

  it("tells the owner of a past-due team Stripe's next try, and Update card opens the team's billing portal; never a plain member", async () => {
    db.createUser({ email: OWNER });
    db.createUser({ email: "rep@northwind.example" });
    const { team } = db.seedTeam({
      owner: OWNER,
      seats: 2,
      status: "past_due",
      members: [{ email: "rep@northwind.example" }],
      answers: { owner: { paid: false, payment_failed: true }, member: { paid: false, payment_failed: true } },
    });
    // 2026-12-03T12:00:00Z
    Object.assign(team.subscription!, { past_due_since: 1_796_128_800, attempt_count: 2, next_payment_attempt: 1_796_299_200 });
    const to = vi.spyOn(redirect, "to").mockImplementation(() => {});
    const { user, unmount } = renderApp("/team/billing", { signedInAs: OWNER });
    expect(await screen.findByText("We'll try the card again on December 3, 2026. Pro stays on until then.")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Update card" }));
    await waitFor(() => expect(to).toHaveBeenCalledWith("http://localhost:3000/team"));
    unmount();

    renderApp("/team", { signedInAs: "rep@northwind.example" });
    expect(await screen.findByRole("heading", { name: team.name })).toBeInTheDocument();
    expect(screen.queryByText("The team's last payment failed.")).not.toBeInTheDocument();
    expect(screen.queryByText(/try the card again/)).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Update card" })).not.toBeInTheDocument();
  });

  it("tells an admin of a team whose payment failed to ask the owner, without Manage Billing", async () => {
    db.createUser({ email: OWNER });
    const answers = { admin: { paid: false, payment_failed: true } };
    db.seedTeam({
      owner: OWNER,
      seats: 2,
      status: "past_due",
      members: [{ email: "bo@northwind.example", role: "admin" }],
      answers,
    });
    renderApp("/team/billing", { signedInAs: "bo@northwind.example" });
    expect(await screen.findByText("The team's last payment failed.")).toBeInTheDocument();
    expect(screen.getByText("Ask the team's owner to update the payment method.")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Change seats" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Buy seats" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Manage Billing" })).not.toBeInTheDocument();
  });

  it.each(["canceled", "incomplete", "incomplete_expired"] as const)(
    "offers Buy seats again when the subscription is %s",
    async (status) => {
      db.createUser({ email: OWNER });
      db.seedTeam({ owner: OWNER, seats: 2, status, roles: UNPAID_TEAM, answers: { owner: { paid: false } } });
      renderApp("/team/billing", { signedInAs: OWNER });
      expect(await screen.findByRole("button", { name: "Buy seats" })).toBeInTheDocument();
      expect(screen.queryByRole("button", { name: "Change seats" })).not.toBeInTheDocument();
      expect(screen.queryByText("The team's last payment failed.")).not.toBeInTheDocument();
    },
  );

  it("gives the owner of a subscribed team Manage Billing, which opens the team's portal back to /team", async () => {
    db.createUser({ email: OWNER });
    db.seedTeam({ owner: OWNER, seats: 2 });
    const go = vi.spyOn(redirect, "to").mockImplementation(() => {});
    let sent: unknown;
    server.events.on("request:start", ({ request }) => {
      if (request.url.endsWith("/api/team/billing/portal"))
        void request
          .clone()
          .json()
          .then((body: unknown) => (sent = body));
    });
    const { user } = renderApp("/team/billing", { signedInAs: OWNER });
    await user.click(await screen.findByRole("button", { name: "Manage Billing" }));
    await waitFor(() => expect(go).toHaveBeenCalledWith(`${window.location.origin}/team`));
    expect(sent).toEqual({ return_url: `${window.location.origin}/team` });
    expect(screen.queryByText("The team's last payment failed.")).not.toBeInTheDocument();
    server.events.removeAllListeners();
  });

  it("disables Manage Billing while the portal opens, and says why it could not", async () => {
    db.createUser({ email: OWNER });
    db.seedTeam({ owner: OWNER, seats: 2, status: "past_due" });
    const go = vi.spyOn(redirect, "to").mockImplementation(() => {});
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.post("*/api/team/billing/portal", async () => {
        await gate;
        return HttpResponse.json(
          { error: { code: "portal_failed", message: "Could not open the billing portal. Please try again." } },
          { status: 502 },
        );
      }),
    );
    const { user } = renderApp("/team/billing", { signedInAs: OWNER });
    await user.click(await screen.findByRole("button", { name: "Manage Billing" }));
    expect(screen.getByRole("button", { name: "Opening..." })).toBeDisabled();
    release();
    expect(await screen.findByText("Could not open the billing portal. Please try again.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Manage Billing" })).toBeEnabled();
    expect(go).not.toHaveBeenCalled();
  });

  it("offers no Manage Billing before the team's first subscription", async () => {
    db.createUser({ email: OWNER });
    db.seedTeam({ owner: OWNER });
    renderApp("/team/billing", { signedInAs: OWNER });
    expect(await screen.findByRole("button", { name: "Buy seats" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Manage Billing" })).not.toBeInTheDocument();
  });

  it("tells someone paying personally inside a paid team, and opens the billing portal back to /team", async () => {
    db.createUser({ email: OWNER });
    db.createUser({ email: "pro@northwind.example", plan: "monthly" });
    const answers = { "pro@northwind.example": { personal_subscription_overlap: true } };
    db.seedTeam({ owner: OWNER, seats: 2, members: [{ email: "pro@northwind.example" }], answers });
    const go = vi.spyOn(redirect, "to").mockImplementation(() => {});
    const { user } = renderApp("/team", { signedInAs: "pro@northwind.example" });
    const notice = await screen.findByRole("region", { name: "You are paying twice" });
    await user.click(within(notice).getByRole("button", { name: "Cancel personal subscription" }));
    await waitFor(() => expect(go).toHaveBeenCalledWith(`${window.location.origin}/team`));
  });

  it("warns an owner who pays personally on the seats form, before the team's checkout", async () => {
    db.createUser({ email: OWNER, plan: "monthly" });
    db.seedTeam({ owner: OWNER, answers: { owner: { personal_subscription: true } } });
    renderApp("/team/billing", { signedInAs: OWNER });
    const buy = (await screen.findByRole("button", { name: "Buy seats" })).closest("form")!;
    expect(within(buy).getByRole("note")).toHaveTextContent(
      "You pay for a personal subscription. A seat in the team gives you the paid plan too: once the seats are bought, cancel the personal one in the billing portal, or you will be paying twice.",
    );
    expect(screen.queryByRole("region", { name: "You are paying twice" })).not.toBeInTheDocument();
  });

  it("shows no overlap notice to someone who pays only through the team", async () => {
    db.createUser({ email: OWNER });
    db.seedTeam({ owner: OWNER, seats: 2, members: [{ email: "bo@northwind.example" }] });
    renderApp("/team", { signedInAs: "bo@northwind.example" });
    expect(await screen.findByText("Your role: Member")).toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "You are paying twice" })).not.toBeInTheDocument();
  });
});
