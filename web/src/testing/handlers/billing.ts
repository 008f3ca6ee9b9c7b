//! The plan, the catalogue, the subscription, checkout and the billing portal (docs/api.md "Plans and
//! billing"). The plan's decisions (`paid`, `checkout`) are the caller's fixture (db.createUser); a
//! checkout is refused as that offer says, and a confirmed one makes the caller a subscriber.

import type { CancellationReasons } from "../../lib/api/types";
import { CATALOGUE_SNAPSHOT } from "../../lib/billing/rules";
import { db, UNLIMITED } from "../db";
import { type MockRoute, apiError, json, origin, readBody, signedIn } from "./common";

/** The domain's list (`closewise_domain::cancellation`), as the API answers it. */
export const CANCELLATION_REASONS: CancellationReasons["reasons"] = [
  { reason: "too_expensive", label: "It costs too much" },
  { reason: "unused", label: "I don't use it enough" },
  { reason: "missing_features", label: "It lacks a feature I need" },
  { reason: "switched_service", label: "I'm moving to another tool" },
  { reason: "other", label: "Something else" },
];

const FAILED = "Plan activation failed, but you can contact support.";
const planOf = (userId: string) => db.plans.get(userId) ?? db.newPlan(userId);

export const billingRoutes: MockRoute[] = [
  signedIn("get", "/api/plan", ({ user }) => json(planOf(user.id))),
  { method: "get", path: "/api/products", resolver: () => json(CATALOGUE_SNAPSHOT) },
  signedIn("get", "/api/subscription", ({ user }) => json({ subscription: db.subscriptions.get(user.id) ?? null })),
  signedIn("post", "/api/checkout", async ({ user }, { request }) => {
    const { success_url: successUrl, promotion_code: code } = await readBody<"CheckoutBody">(request);
    if (code && !db.promotionCodes.includes(code.toUpperCase()))
      return apiError(400, "invalid_promotion_code", "This promotion code does not exist.");
    const offer = planOf(user.id).checkout;
    if (offer === "verify_email")
      return apiError(403, "email_not_verified", "Please verify your email address before subscribing");
    if (offer === "current_plan") return apiError(409, "already_subscribed", "You already have this subscription");
    // No hosted checkout here: the mock session counts as paid and the browser goes straight to success.
    const id = db.id("cs_test");
    db.checkoutSessions.set(id, { id, userId: user.id, paid: true });
    return json({ url: successUrl.replace("{CHECKOUT_SESSION_ID}", id) });
  }),
  signedIn("post", "/api/checkout/confirm", async ({ user }, { request }) => {
    const row = db.checkoutSessions.get((await readBody<"ConfirmBody">(request)).session_id);
    if (!row) return apiError(404, "session_not_found", FAILED);
    if (row.userId !== user.id) return apiError(403, "session_not_yours", FAILED);
    if (!row.paid) return apiError(409, "session_not_paid", FAILED);
    const plan = { ...db.newPlan(user.id, true), id: planOf(user.id).id };
    db.plans.set(user.id, plan);
    db.subscribe(user.id);
    db.entitlements.set(user.id, UNLIMITED);
    return json({ plan, subscription: db.subscriptions.get(user.id) });
  }),
  signedIn("get", "/api/billing/interval/preview", ({ user }, { request }) => {
    const p = CATALOGUE_SNAPSHOT.products.find((p) => p.interval === new URL(request.url).searchParams.get("interval"));
    if (!p) return apiError(400, "invalid_interval", "The billing interval must be month or year.");
    if (!db.subscriptions.has(user.id)) return apiError(409, "no_subscription", "You have no subscription to switch.");
    return json({
      interval: p.interval!,
      amount_due_now: p.price * 100 - 1000,
      next_total: p.price * 100,
      currency: "usd",
      proration_date: 1,
    });
  }),
  signedIn("put", "/api/billing/interval", async ({ user }, { request }) => {
    const { interval } = await readBody<"IntervalBody">(request);
    const p = CATALOGUE_SNAPSHOT.products.find((p) => p.interval === interval)!;
    db.subscribe(user.id, { ...db.subscriptions.get(user.id), price_id: p.priceId, interval: p.interval as "year" });
    return json({ subscription: db.subscriptions.get(user.id)! });
  }),
  { method: "get", path: "/api/billing/cancellation-reasons", resolver: () => json({ reasons: CANCELLATION_REASONS }) },
  signedIn("post", "/api/billing/cancel", async ({ user }, { request }) => {
    const { reason } = await readBody<"CancelBody">(request);
    if (reason && !CANCELLATION_REASONS.some((r) => r.reason === reason))
      return apiError(400, "invalid_reason", "Choose a reason from the list, or none.");
    const sub = db.subscriptions.get(user.id);
    if (!sub || sub.subscription_status === "canceled") return apiError(409, "nothing_to_cancel", "You have no plan to cancel.");
    if (sub.cancel_at_period_end)
      return apiError(409, "already_cancelling", "Your plan is already set to end. Resume it to keep it.");
    db.subscribe(user.id, { ...sub, cancel_at_period_end: true, cancellation_reason: reason ?? null });
    return json({ subscription: db.subscriptions.get(user.id)! });
  }),
  signedIn("post", "/api/billing/resume", ({ user }) => {
    const sub = db.subscriptions.get(user.id);
    if (!sub?.cancel_at_period_end)
      return apiError(409, "nothing_to_resume", "Your plan is not set to end: there is nothing to resume.");
    db.subscribe(user.id, { ...sub, cancel_at_period_end: false, cancellation_reason: null });
    return json({ subscription: db.subscriptions.get(user.id)! });
  }),
  signedIn("post", "/api/billing/portal", async ({ user }, { request }) => {
    const { return_url } = await readBody<"PortalBody">(request);
    if (!planOf(user.id).stripe_customer_id)
      return apiError(404, "no_customer", "No billing account yet. Start a subscription first.");
    return json({ url: return_url ?? `${origin(request)}/dashboard` });
  }),
];
