// @vitest-environment node
import { describe, expect, it } from "vitest";
import { ApiError } from "../api/client";
import type { CheckoutMode, CheckoutOffer, Product, Subscription } from "../api/types";
import {
  cardBrandName,
  CHECKOUT_MESSAGES,
  checkoutLabel,
  checkoutUrls,
  CATALOGUE_SNAPSHOT,
  DEFAULT_PRODUCT,
  discountText,
  featuredProduct,
  freeTrial,
  intervalAdjective,
  newTotalLabel,
  periodEnd,
  planName,
  planSummary,
  SUBSCRIPTION_STATUS_TEXT,
  SIGNED_OUT_LABEL,
  subscriptionRefetchError,
} from "./rules";

function subscription(overrides: Partial<Subscription> = {}): Subscription {
  return {
    price_id: "price_1",
    subscription_status: "active",
    cancel_at_period_end: false,
    current_period_end: 1_767_268_800, // 2026-01-01T12:00:00Z: noon, so the date holds in the usual time zones
    payment_method_brand: "visa",
    payment_method_last4: "4242",
    ...overrides,
  };
}

describe("the checkout button", () => {
  const cases: [CheckoutOffer, CheckoutMode, string][] = [
    ["verify_email", "subscription", "Verify Email First"],
    ["current_plan", "subscription", "Current Plan"],
    ["available", "subscription", "Start Subscription"],
    ["available", "payment", "Buy Now"],
  ];
  it.each(cases)("words the server's %s offer for a %s product as %j", (offer, mode, label) => {
    expect(checkoutLabel(offer, mode)).toBe(label);
  });

  it("has the spec's signed-out label and messages", () => {
    expect(SIGNED_OUT_LABEL).toBe("Sign In Required");
    expect(CHECKOUT_MESSAGES.signIn).toBe("Please sign in to continue");
    expect(CHECKOUT_MESSAGES.verify).toBe("Please verify your email address before subscribing");
    expect(CHECKOUT_MESSAGES.noUrl).toBe("No checkout URL received");
    expect(CHECKOUT_MESSAGES.failed).toBe("Failed to start checkout process");
  });

  it("returns to /success with Stripe's session id placeholder, or to /pricing on cancel", () => {
    expect(checkoutUrls("https://closewise.app")).toEqual({
      success_url: "https://closewise.app/success?session_id={CHECKOUT_SESSION_ID}",
      cancel_url: "https://closewise.app/pricing",
    });
  });
});

describe("plans as shown", () => {
  it("names the free plan Free Trial and the paid one Unlimited Sales Copilot", () => {
    expect(planName(false)).toBe("Free Trial");
    expect(planName(true)).toBe("Unlimited Sales Copilot");
    expect(planSummary(false)).toBe("5 calls of 5 minutes each · Basic insights");
    expect(planSummary(true)).toBe("Unlimited usage · $20/month");
  });

  it("prices the paid plan by the subscription's interval", () => {
    expect(planSummary(true, undefined, "month")).toBe("Unlimited usage · $20/month");
    expect(planSummary(true, undefined, "year")).toBe("Unlimited usage · $200/year");
    expect(planSummary(true, CATALOGUE_SNAPSHOT, null)).toBe("Unlimited usage · $20/month");
    expect(planSummary(false, undefined, "year")).toBe("5 calls of 5 minutes each · Basic insights");
  });

  it("names a seats preview's recurring total by the interval", () => {
    expect(newTotalLabel("month")).toBe("New monthly total");
    expect(newTotalLabel("year")).toBe("New yearly total");
    expect(newTotalLabel(null)).toBe("New monthly total");
    expect(intervalAdjective("year")).toBe("yearly");
    expect(intervalAdjective(undefined)).toBe("monthly");
  });

  it("says a subscription's discount in the API's words, nothing without one", () => {
    const discount = {
      name: "Launch",
      percent_off: 20,
      amount_off: null,
      currency: null,
      duration: "repeating" as const,
      duration_in_months: 4,
      ends_at: 1_806_278_400,
      label: "20% off until March 2027",
    };
    expect(discountText(subscription({ discount }))).toBe("20% off until March 2027");
    expect(discountText(subscription({ discount: null }))).toBeNull();
    expect(discountText(subscription())).toBeNull();
    expect(discountText(null)).toBeNull();
  });

  it("takes each plan's features from the catalogue, the snapshot until the API answers", () => {
    const answered = { ...CATALOGUE_SNAPSHOT, free_trial: { name: "Trial", features: ["3 calls"] } };
    expect(freeTrial(answered)).toEqual({ name: "Trial", features: ["3 calls"] });
    expect(freeTrial(undefined).features).toEqual(["5 calls of 5 minutes each", "Basic insights", "Community support"]);
    expect(DEFAULT_PRODUCT.features).toEqual(["Unlimited usage", "Advanced AI insights", "Priority support", "CRM integrations"]);
  });

  it("features the subscription product, else the first, else the snapshot's product", () => {
    const oneOff: Product = { ...DEFAULT_PRODUCT, id: "p1", mode: "payment" };
    const monthly: Product = { ...DEFAULT_PRODUCT, id: "p2" };
    const catalogue = (products: Product[]) => ({ ...CATALOGUE_SNAPSHOT, products });
    expect(featuredProduct(catalogue([oneOff, monthly]))).toBe(monthly);
    expect(featuredProduct(catalogue([oneOff]))).toBe(oneOff);
    expect(featuredProduct(catalogue([]))).toBe(DEFAULT_PRODUCT);
    expect(featuredProduct(undefined)).toBe(DEFAULT_PRODUCT);
    expect(DEFAULT_PRODUCT).toMatchObject({
      name: "Unlimited Sales Copilot",
      mode: "subscription",
      price: 20,
      currency: "usd",
      interval: "month",
    });
  });
});

describe("subscriptions as shown", () => {
  it("says Renews, or Expires when the subscription ends at the period end, with the date of the Unix seconds", () => {
    expect(periodEnd(subscription())).toEqual({ label: "Renews", date: "January 1, 2026" });
    expect(periodEnd(subscription({ cancel_at_period_end: true }))).toEqual({ label: "Expires", date: "January 1, 2026" });
    expect(periodEnd(subscription({ current_period_end: null }))).toBeNull();
  });

  it("names every status and the usual card brands", () => {
    expect(SUBSCRIPTION_STATUS_TEXT.active).toBe("Active");
    expect(SUBSCRIPTION_STATUS_TEXT.incomplete_expired).toBe("Incomplete (expired)");
    expect(cardBrandName("visa")).toBe("Visa");
    expect(cardBrandName("AMEX")).toBe("American Express");
    expect(cardBrandName("jcb")).toBe("Jcb");
  });

  it("reports a failed refetch (never a failed first fetch) with the spec's messages", () => {
    const apiError = new ApiError(500, "internal", "boom");
    expect(subscriptionRefetchError({ error: apiError, data: undefined })).toBeNull();
    expect(subscriptionRefetchError({ error: null, data: null })).toBeNull();
    expect(subscriptionRefetchError({ error: apiError, data: null })).toBe("Failed to fetch subscription data");
    expect(subscriptionRefetchError({ error: new TypeError("offline"), data: null })).toBe("An unexpected error occurred");
  });
});
