//! The plan, the catalogue, the subscription, checkout and the billing portal (docs/api.md "Plans and billing").

import { HttpResponse } from "msw";
import type { Plan } from "../../lib/api/types";
import { db, PRODUCTS } from "../db";
import { checkoutOffer } from "../planDecisions";
import { type MockRoute, apiError, readBody, authenticate, origin } from "./common";

/** The caller's plan row with the offer for their state now (`Plan.checkout`, planDecisions.ts). */
function planOf(userId: string): Plan {
  if (!db.plans.has(userId)) db.plans.set(userId, db.newPlan(userId, "free"));
  const plan = db.plans.get(userId)!;
  const team = db.team.teamOf(userId);
  const verified = Boolean(db.userById(userId)?.user.email_confirmed_at);
  return { ...plan, checkout: checkoutOffer({ verified, paid: plan.paid, teamPaid: Boolean(team && db.team.paid(team)) }) };
}

export const billingRoutes: MockRoute[] = [
  {
    method: "get",
    path: "/api/plan",
    resolver: ({ request }) => {
      const auth = authenticate(request);
      if ("error" in auth) return auth.error;
      return HttpResponse.json(planOf(auth.row.user.id));
    },
  },
  {
    method: "get",
    path: "/api/products",
    resolver: () => HttpResponse.json({ products: PRODUCTS }),
  },
  {
    method: "get",
    path: "/api/subscription",
    resolver: ({ request }) => {
      const auth = authenticate(request);
      if ("error" in auth) return auth.error;
      return HttpResponse.json({ subscription: db.subscriptions.get(auth.row.user.id) ?? null });
    },
  },
  {
    method: "post",
    path: "/api/checkout",
    resolver: async ({ request }) => {
      const auth = authenticate(request);
      if ("error" in auth) return auth.error;
      const { price_id: priceId, success_url: successUrl, cancel_url: cancelUrl } = await readBody<"CheckoutBody">(request);
      const { user } = auth.row;
      if (!user.email_confirmed_at)
        return apiError(403, "email_not_verified", "Please verify your email address before subscribing");
      // The plan's own decision refuses: paid already, personally or through a seat in a paid team.
      if (planOf(user.id).checkout === "current_plan" && priceId === PRODUCTS[0]!.priceId)
        return apiError(409, "already_subscribed", "You already have this subscription");
      const own = origin(request);
      if (![successUrl, cancelUrl].every((url) => url.startsWith(`${own}/`)))
        return apiError(400, "invalid_redirect_url", "success_url and cancel_url must be on this site");
      if (!PRODUCTS.some((p) => p.priceId === priceId)) return apiError(400, "unknown_price", "Unknown price");
      // No hosted checkout here: the mock session counts as paid and the browser goes straight to success.
      const sessionId = db.id("cs_test");
      db.checkoutSessions.set(sessionId, { id: sessionId, userId: user.id, paid: true });
      return HttpResponse.json({ url: successUrl.replace("{CHECKOUT_SESSION_ID}", sessionId) });
    },
  },
  {
    method: "post",
    path: "/api/checkout/confirm",
    resolver: async ({ request }) => {
      const auth = authenticate(request);
      if ("error" in auth) return auth.error;
      const { session_id: sessionId } = await readBody<"ConfirmBody">(request);
      const failed = "Plan activation failed, but you can contact support.";
      const row = db.checkoutSessions.get(sessionId);
      if (!row) return apiError(404, "session_not_found", failed);
      if (row.userId !== auth.row.user.id) return apiError(403, "session_not_yours", failed);
      if (!row.paid) return apiError(409, "session_not_paid", failed);
      const userId = auth.row.user.id;
      const plan = db.plans.get(userId) ?? db.newPlan(userId, "free");
      const at = db.iso(db.now());
      Object.assign(plan, {
        plan_type: "monthly",
        paid: true,
        checkout: "current_plan",
        plan_updated_at: at,
        updated_at: at,
        stripe_customer_id: "cus_mock",
        stripe_subscription_id: "sub_mock",
        subscription_id: "sub_mock",
      });
      db.plans.set(userId, plan);
      const subscription = {
        price_id: PRODUCTS[0]!.priceId,
        subscription_status: "active" as const,
        cancel_at_period_end: false,
        current_period_end: Math.floor(db.now() / 1000) + 30 * 24 * 3600,
        payment_method_brand: "visa",
        payment_method_last4: "4242",
      };
      db.subscriptions.set(userId, subscription);
      return HttpResponse.json({ plan, subscription });
    },
  },
  {
    method: "post",
    path: "/api/billing/portal",
    resolver: async ({ request }) => {
      const auth = authenticate(request);
      if ("error" in auth) return auth.error;
      const body = await readBody<"PortalBody">(request);
      const plan = db.plans.get(auth.row.user.id);
      if (!plan?.stripe_customer_id) return apiError(404, "no_customer", "No billing account yet. Start a subscription first.");
      return HttpResponse.json({ url: body.return_url ?? `${origin(request)}/dashboard` });
    },
  },
];
