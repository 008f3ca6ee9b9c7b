//! The decisions the API's `Plan` answer carries (`paid`, `checkout`), as the mock API's data: a
//! fixture of what the server answers (crates/api/tests/api/plans.rs and team_billing/flow.rs
//! assert the same cases), not rules. A plan row keeps its `paid` as data; the offer follows the
//! mock's state (the address verified, the row paid, a seat in a paid team) through this table.

import type { CheckoutOffer } from "../lib/api/types";

type Caller = "unverified" | "paid" | "free";

const OFFERS: Record<Caller, CheckoutOffer> = {
  unverified: "verify_email",
  paid: "current_plan",
  free: "available",
};

export function checkoutOffer(state: { verified: boolean; paid: boolean; teamPaid: boolean }): CheckoutOffer {
  return OFFERS[!state.verified ? "unverified" : state.paid || state.teamPaid ? "paid" : "free"];
}
