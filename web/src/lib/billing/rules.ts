//! The web's billing wording in one place (spec §4, §5, §6, §8, §9): what the checkout button says
//! for the API's decisions (`Plan.paid`, `Plan.checkout`), how plans and subscriptions are named.
//! Nothing here decides whether someone is subscribed or paid: the API answers that (`Plan.paid`,
//! `Team.paid`, the entitlements' `source`).
//! Prices, plan names and features are the API's catalogue (`GET /api/products`); before it answers,
//! and on the prerendered pages, its snapshot (`catalogue.json`, written by `closewise-api catalogue`,
//! which an API test keeps equal to the answer).
//! Pure functions and constants: query hooks and components call them and repeat none of them.

import { ApiError } from "../api/client";
import type {
  BillingInterval,
  Catalogue,
  CheckoutMode,
  CheckoutOffer,
  Discount,
  PlanType,
  Product,
  Subscription,
} from "../api/types";
import snapshot from "./catalogue.json";

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

/**
 * Where a signed-out visitor comes back to after sign-up, verification and sign-in: the pricing page,
 * ready to check out `priceId`, with the promotion code of a `/pricing?promo=CODE` link.
 * (components/pricing/pricingUrl.ts writes the same on the prerendered page.)
 */
export function checkoutIntent(priceId: string, promo: string | null): string {
  return `/pricing?checkout=${encodeURIComponent(priceId)}` + (promo ? `&promo=${encodeURIComponent(promo)}` : "");
}

/** The sign-up link that carries `intent`. */
export function signUpHref(intent: string): string {
  return `/signup?next=${encodeURIComponent(intent)}`;
}

/** Where Stripe sends the browser back: /success with its session id, or /pricing on cancel. */
export function checkoutUrls(origin: string): { success_url: string; cancel_url: string } {
  return { success_url: `${origin}/success?session_id={CHECKOUT_SESSION_ID}`, cancel_url: `${origin}/pricing` };
}

// --- Plans as shown ------------------------------------------------------------------------------

/** The API's catalogue as the build saw it: shown (e.g. on prerendered pages) until the API answers. */
export const CATALOGUE_SNAPSHOT = snapshot as Catalogue;
export const DEFAULT_PRODUCT: Product = CATALOGUE_SNAPSHOT.products[0]!;

/** The paid card shows the subscription product, else the first product, else the snapshot's. */
export function featuredProduct(catalogue: Catalogue | undefined): Product {
  const products = catalogue?.products;
  return products?.find((p) => p.mode === "subscription") ?? products?.[0] ?? DEFAULT_PRODUCT;
}

/** The paid plan billed by `interval` (the catalogue's, else its snapshot's); the featured one when not sold so. */
export function productFor(catalogue: Catalogue | undefined, interval: BillingInterval): Product {
  const products = (catalogue ?? CATALOGUE_SNAPSHOT).products;
  return products.find((p) => p.mode === "subscription" && p.interval === interval) ?? featuredProduct(catalogue);
}

/** The Monthly / Yearly switch's choices. */
export const INTERVAL_NAMES: Record<BillingInterval, string> = { month: "Monthly", year: "Yearly" };

/**
 * The interval the pricing page opens on: `?interval=year`, or the interval of the price a
 * checkout intent names (`?checkout=price_…`, kept through sign-up), else monthly.
 */
export function initialInterval(params: URLSearchParams, catalogue: Catalogue | undefined): BillingInterval {
  const asked = params.get("interval");
  if (asked === "year" || asked === "month") return asked;
  const intent = params.get("checkout");
  const product = intent ? (catalogue ?? CATALOGUE_SNAPSHOT).products.find((p) => p.priceId === intent) : undefined;
  return product?.interval === "year" ? "year" : "month";
}

/** The switch's option for `interval`: this address with `interval` set, the other parameters kept. */
export function intervalSearch(params: URLSearchParams, interval: BillingInterval): string {
  const query = new URLSearchParams(params);
  query.set("interval", interval);
  return `?${query.toString()}`;
}

/** The paid card's price line after the amount: `/month`, or `/year — 2 months free`. */
export function priceSuffix(product: Product): string {
  const free = product.months_free > 0 ? ` — ${product.months_free} months free` : "";
  return `/${product.interval}${free}`;
}

/** The Free Trial's name and features, as the catalogue (or its snapshot) says. */
export function freeTrial(catalogue: Catalogue | undefined): Catalogue["free_trial"] {
  return (catalogue ?? CATALOGUE_SNAPSHOT).free_trial;
}

export const PLAN_NAMES: Record<PlanType, string> = { free: CATALOGUE_SNAPSHOT.free_trial.name, monthly: DEFAULT_PRODUCT.name };

/** The badge next to the paid plan's name. */
export const PAID_PLAN_BADGE = "Pro Plan";

export function planName(paid: boolean): string {
  return PLAN_NAMES[paid ? "monthly" : "free"];
}

/** A price as the cards write it: `$20`. */
export function formatPrice(amount: number, currency: string): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency: currency.toUpperCase(), maximumFractionDigits: 0 }).format(
    amount,
  );
}

/**
 * One line under the plan's name: its first feature and price, billed by the subscription's
 * `interval` ("$200/year"; the featured product's when none is known), or the Free Trial's first two
 * features.
 */
export function planSummary(paid: boolean, catalogue?: Catalogue, interval?: BillingInterval | null): string {
  const p = interval ? productFor(catalogue, interval) : featuredProduct(catalogue);
  if (paid) return `${p.features[0]} · ${formatPrice(p.price, p.currency)}/${p.interval}`;
  return freeTrial(catalogue).features.slice(0, 2).join(" · ");
}

/** "monthly" or "yearly": how price lines name a subscription's interval (monthly when not known). */
export function intervalAdjective(interval: BillingInterval | null | undefined): "monthly" | "yearly" {
  return interval === "year" ? "yearly" : "monthly";
}

/** The recurring total of a seats preview: "New monthly total" or "New yearly total". */
export function newTotalLabel(interval: BillingInterval | null | undefined): string {
  return `New ${intervalAdjective(interval)} total`;
}

// --- Subscriptions as shown ----------------------------------------------------------------------

/**
 * "Renews" (a yearly subscription: "Renews yearly on") or, when the subscription ends at the period
 * end, "Expires", with `current_period_end` (Unix seconds).
 */
export function periodEnd(
  subscription: Pick<Subscription, "current_period_end" | "cancel_at_period_end"> & {
    interval?: Subscription["interval"];
  },
): { label: "Renews" | "Renews yearly on" | "Expires"; date: string } | null {
  if (subscription.current_period_end == null) return null;
  const date = new Date(subscription.current_period_end * 1000).toLocaleDateString("en-US", {
    year: "numeric",
    month: "long",
    day: "numeric",
  });
  if (subscription.cancel_at_period_end) return { label: "Expires", date };
  return { label: subscription.interval === "year" ? "Renews yearly on" : "Renews", date };
}

/**
 * The discount on a subscription in words ("20% off until March 2027", "$5 off once", "20% off
 * forever"): the API's `label`, which the domain's rule writes (`closewise_domain::promotion`), so the
 * dashboard, the team's page and the API say it alike. Null when there is none.
 */
export function discountText(subscription: { discount?: Discount | null } | null | undefined): string | null {
  return subscription?.discount?.label ?? null;
}

/** Where the mails about a failed payment send the payer: the page opens the billing portal. */
export const UPDATE_CARD_HASH = "#update-card";

/**
 * Stripe's next try of a failed payment in words (`next_payment_attempt`, Unix seconds): "We'll try
 * the card again on December 3, 2026.", or, with no try left, that the plan ends unless the card is
 * updated. Null when no payment failed (`past_due_since` null).
 */
export function paymentRetryText(
  subscription: { past_due_since?: number | null; next_payment_attempt?: number | null } | null | undefined,
): string | null {
  if (subscription?.past_due_since == null) return null;
  if (subscription.next_payment_attempt == null) return "That was the last try: update the card now to keep Pro.";
  const date = new Date(subscription.next_payment_attempt * 1000).toLocaleDateString("en-US", {
    year: "numeric",
    month: "long",
    day: "numeric",
  });
  return `We'll try the card again on ${date}. Pro stays on until then.`;
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

/**
 * Whether a subscription in `status` still runs to its period's end, so it may be cancelled there or
 * resumed (`closewise_domain::cancellation`: subscribed, or past due while Stripe retries).
 */
export function runsToPeriodEnd(status: string): boolean {
  return status === "active" || status === "trialing" || status === "past_due";
}

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

/** When a subscription's free trial ends (Unix seconds), while it is trialing; else null. */
export function trialEndOf(subscription: { status: string; trial_end?: number | null } | null | undefined): number | null {
  return subscription?.status === "trialing" ? (subscription.trial_end ?? null) : null;
}
