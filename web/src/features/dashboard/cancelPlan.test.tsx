//! Cancelling the plan at the period's end from the dashboard, with a reason from the server's
//! list, and taking it back: the card then says "Your plan ends on …" with "Resume plan"; a
//! refusal is shown in the API's words.

import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { db } from "../../testing/db";
import { refuse } from "../../testing/handlers";
import { renderApp } from "../../testing/render";
import { server } from "../../testing/server";

const END = Date.UTC(2027, 2, 3, 12) / 1000;

async function management() {
  return screen.findByRole("region", { name: "Subscription Management" });
}

describe("cancelling the plan from the dashboard", () => {
  it("cancels at the period's end with the reason chosen, then resumes", async () => {
    const { id } = db.createUser({ email: "pro@example.com", plan: "monthly", subscription: { current_period_end: END } });
    const { user } = renderApp("/dashboard", { signedInAs: "pro@example.com" });
    const card = await management();
    await user.click(await within(card).findByRole("button", { name: "Cancel plan" }));

    const dialog = screen.getByRole("dialog", { name: "Cancel your plan?" });
    expect(dialog).toHaveTextContent("Your plan stays active until March 3, 2027");
    const reason = within(dialog).getByLabelText("Why are you cancelling? (optional)");
    await within(dialog).findByRole("option", { name: "It costs too much" });
    await user.selectOptions(reason, "It costs too much");
    await user.click(within(dialog).getByRole("button", { name: "Cancel plan" }));

    expect(await within(card).findByText("Your plan ends on March 3, 2027.")).toBeInTheDocument();
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(within(card).getByText("Expires")).toBeInTheDocument();
    expect(db.subscriptions.get(id)).toMatchObject({ cancel_at_period_end: true, cancellation_reason: "too_expensive" });

    await user.click(within(card).getByRole("button", { name: "Resume plan" }));
    expect(await within(card).findByRole("button", { name: "Cancel plan" })).toBeInTheDocument();
    expect(within(card).queryByText(/Your plan ends on/)).not.toBeInTheDocument();
    expect(db.subscriptions.get(id)).toMatchObject({ cancel_at_period_end: false, cancellation_reason: null });
  });

  it("cancels without a reason, and keeping the plan changes nothing", async () => {
    const { id } = db.createUser({ email: "pro@example.com", plan: "monthly" });
    const { user } = renderApp("/dashboard", { signedInAs: "pro@example.com" });
    const card = await management();
    await user.click(await within(card).findByRole("button", { name: "Cancel plan" }));
    await user.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Keep plan" }));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(db.subscriptions.get(id)?.cancel_at_period_end).toBe(false);

    await user.click(within(card).getByRole("button", { name: "Cancel plan" }));
    await user.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Cancel plan" }));
    expect(await within(card).findByText(/^Your plan ends on /)).toBeInTheDocument();
    expect(db.subscriptions.get(id)).toMatchObject({ cancel_at_period_end: true, cancellation_reason: null });
  });

  it("shows the API's refusal in the dialog", async () => {
    db.createUser({ email: "pro@example.com", plan: "monthly" });
    server.use(
      refuse(
        "post",
        "/api/billing/cancel",
        409,
        "period_over",
        "Your plan's period is over: it can no longer be cancelled or resumed.",
      ),
    );
    const { user } = renderApp("/dashboard", { signedInAs: "pro@example.com" });
    const card = await management();
    await user.click(await within(card).findByRole("button", { name: "Cancel plan" }));
    const dialog = screen.getByRole("dialog");
    await user.click(within(dialog).getByRole("button", { name: "Cancel plan" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent(
      "Your plan's period is over: it can no longer be cancelled or resumed.",
    );
  });

  it("offers nothing to cancel once the subscription has ended", async () => {
    db.createUser({ email: "pro@example.com", plan: "monthly", subscription: { subscription_status: "canceled" } });
    renderApp("/dashboard", { signedInAs: "pro@example.com" });
    await screen.findByRole("heading", { name: "Dashboard", level: 1 });
    expect(screen.queryByRole("button", { name: "Cancel plan" })).not.toBeInTheDocument();
  });
});
