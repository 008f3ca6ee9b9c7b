//! The web's billing wording in one place (spec §4, §5, §6, §8, §9): what the checkout button says
//! for the API's decisions (`Plan.paid`, `Plan.checkout`), how plans and subscriptions are named.
//! Nothing here decides whether someone is subscribed or paid: the API answers that (`Plan.paid`,
//! `Team.paid`, the entitlements' `source`).
//! Pure functions and constants: query hooks and components call them and repeat none of them.

import { ApiError } from "../api/client";
import type { CheckoutMode, CheckoutOffer, PlanType, Product, Subscription } from "../api/types";

// --- Checkout ------------------------------------------------------------------------------------

export type CheckoutLabel =
  "Loading..." | "Sign In Required" | "Verify Email First" | "Current Plan" | "Start Subscription" | "Buy Now";

/** The label while the session, the plan or a checkout is loading. */
export const LOADING_LABEL: CheckoutLabel = "Loading...";
/** The label for a signed-out visitor (no plan answer: the prerendered page too). */
export const SIGNED_OUT_LABEL: CheckoutLabel = "Sign In Required";

/** The wording of the API's `Plan.checkout` offer for a product of `mode`. */
export function checkoutLabel(offer: CheckoutOffer, mode: CheckoutMode): CheckoutLabel {
  if (offer === "verify_email") return "Verify Email First";
  if (offer === "current_plan") return "Current Plan";
  return mode === "subscription" ? "Start Subscription" : "Buy Now";
}

/** The id of the "Please sign in to continue" toast, so the click's and the sign-up page's are one. */
export const CHECKOUT_SIGN_IN_TOAST = "checkout-sign-in";

export const CHECKOUT_MESSAGES = {
  signIn: "Please sign in to continue",
  verify: "Please verify your email address before subscribing",
  noUrl: "No checkout URL received",
  failed: "Failed to start checkout process",
} as const;

/** Where Stripe sends the browser back: /success with its session id, or /pricing on cancel. */
export function checkoutUrls(origin: string): { success_url: string; cancel_url: string } {
  return { success_url: `${origin}/success?session_id={CHECKOUT_SESSION_ID}`, cancel_url: `${origin}/pricing` };
}

// --- Plans as shown ------------------------------------------------------------------------------

/** The spec's one product, shown (e.g. on prerendered pages) until the API's catalogue arrives. */
export const DEFAULT_PRODUCT: Product = {
  id: "prod_closewise_unlimited",
  priceId: "price_closewise_monthly",
  name: "Unlimited Sales Copilot",
  description: "Unlimited live hints on every call, with advanced AI insights.",
  mode: "subscription",
  price: 20,
  currency: "usd",
  interval: "month",
};

/** The paid card shows the subscription product, else the first product, else the spec's one. */
export function featuredProduct(products: Product[] | undefined): Product {
  return products?.find((p) => p.mode === "subscription") ?? products?.[0] ?? DEFAULT_PRODUCT;
}

export const PLAN_NAMES: Record<PlanType, string> = { free: "Free Trial", monthly: "Unlimited Sales Copilot" };

/** The badge next to the paid plan's name. */
export const PAID_PLAN_BADGE = "Pro Plan";

export const PLAN_FEATURES: Record<PlanType, string[]> = {
  free: ["5 calls of 5 minutes each", "Basic insights", "Community support"],
  monthly: ["Unlimited usage", "Advanced AI insights", "Priority support", "CRM integrations"],
};

export function planName(paid: boolean): string {
  return PLAN_NAMES[paid ? "monthly" : "free"];
}

export function planSummary(paid: boolean): string {
  return paid ? "Unlimited usage · $20/month" : "5 calls of 5 minutes each · Basic insights";
}

// --- Subscriptions as shown ----------------------------------------------------------------------

/** "Renews" or, when the subscription ends at the period end, "Expires", with `current_period_end` (Unix seconds). */
export function periodEnd(
  subscription: Pick<Subscription, "current_period_end" | "cancel_at_period_end">,
): { label: "Renews" | "Expires"; date: string } | null {
  if (subscription.current_period_end == null) return null;
  const date = new Date(subscription.current_period_end * 1000).toLocaleDateString("en-US", {
    year: "numeric",
    month: "long",
    day: "numeric",
  });
  return { label: subscription.cancel_at_period_end ? "Expires" : "Renews", date };
}

export const SUBSCRIPTION_STATUS_TEXT: Record<Subscription["subscription_status"], string> = {
  active: "Active",
  trialing: "Trialing",
  canceled: "Canceled",
  incomplete: "Incomplete",
  incomplete_expired: "Incomplete (expired)",
  past_due: "Past due",
  unpaid: "Unpaid",
  paused: "Paused",
  not_started: "Not started",
};

const CARD_BRANDS: Record<string, string> = {
  visa: "Visa",
  mastercard: "Mastercard",
  amex: "American Express",
  discover: "Discover",
};

export function cardBrandName(brand: string): string {
  return CARD_BRANDS[brand.toLowerCase()] ?? brand.charAt(0).toUpperCase() + brand.slice(1);
}

/** The spec's messages for a failed refetch; a failed first fetch is only logged. */
export function subscriptionRefetchError(query: { error: unknown; data: unknown }): string | null {
  if (!query.error || query.data === undefined) return null;
  return query.error instanceof ApiError ? "Failed to fetch subscription data" : "An unexpected error occurred";
}
