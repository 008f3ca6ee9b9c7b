//! The plan card's price line follows the subscription's interval, and the discount on the
//! subscription is said under it in the API's words.

import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Discount } from "../../lib/api/types";
import { db } from "../../testing/db";
import { renderApp } from "../../testing/render";

const YEARLY = { interval: "year" as const, price_id: "price_closewise_yearly" };
const LAUNCH: Discount = {
  name: "Launch",
  percent_off: 20,
  amount_off: null,
  currency: null,
  duration: "repeating",
  duration_in_months: 4,
  ends_at: Date.UTC(2027, 2, 29) / 1000,
  label: "20% off until March 2027",
};

async function planCard() {
  return screen.findByRole("region", { name: "Your Plan" });
}

describe("the dashboard's plan card", () => {
  it("prices a monthly subscription by the month", async () => {
    db.createUser({ email: "pro@example.com", plan: "monthly" });
    renderApp("/dashboard", { signedInAs: "pro@example.com" });
    const plan = await planCard();
    expect(await within(plan).findByText("Unlimited usage · $20/month")).toBeInTheDocument();
    expect(within(plan).queryByText(/off/)).not.toBeInTheDocument();
  });

  it("prices a yearly subscription by the year", async () => {
    db.createUser({ email: "pro@example.com", plan: "monthly", subscription: YEARLY });
    renderApp("/dashboard", { signedInAs: "pro@example.com" });
    const plan = await planCard();
    expect(await within(plan).findByText("Unlimited usage · $200/year")).toBeInTheDocument();
    expect(within(plan).queryByText(/\/month/)).not.toBeInTheDocument();
  });

  it("says the subscription's discount under the price", async () => {
    db.createUser({ email: "pro@example.com", plan: "monthly", subscription: { ...YEARLY, discount: LAUNCH } });
    renderApp("/dashboard", { signedInAs: "pro@example.com" });
    const plan = await planCard();
    expect(await within(plan).findByText("20% off until March 2027")).toBeInTheDocument();
    expect(within(plan).getByText("Unlimited usage · $200/year")).toBeInTheDocument();
  });

  it("says an amount off once as the API words it", async () => {
    const once: Discount = { ...LAUNCH, name: null, percent_off: null, amount_off: 500, currency: "usd", duration: "once" };
    db.createUser({
      email: "pro@example.com",
      plan: "monthly",
      subscription: { discount: { ...once, duration_in_months: null, ends_at: null, label: "$5 off once" } },
    });
    renderApp("/dashboard", { signedInAs: "pro@example.com" });
    expect(await within(await planCard()).findByText("$5 off once")).toBeInTheDocument();
  });
});
