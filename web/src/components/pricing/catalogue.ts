import type { Product } from "../../lib/api/types";

/** The spec's one product, used for the prerendered page until the API's catalogue (with its real price id) arrives. */
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

export const FREE_FEATURES = ["5 calls of 5 minutes each", "Basic insights", "Community support"];
export const PAID_FEATURES = ["Unlimited usage", "Advanced AI insights", "Priority support", "CRM integrations"];
