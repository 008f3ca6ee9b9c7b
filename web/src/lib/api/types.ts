//! Types of the API contract (docs/api.md, docs/openapi.json).

export interface User {
  id: string;
  email: string;
  email_confirmed_at: string | null;
  created_at: string;
}

export interface Session {
  access_token: string;
  token_type: string;
  expires_in: number;
  /** Unix seconds. */
  expires_at: number;
  /**
   * Only native clients (the desktop app) get it in the body; for this site it lives in the
   * httpOnly `cw_refresh` cookie and the app never holds it.
   */
  refresh_token?: never;
  user: User;
}

export type PlanType = "free" | "monthly";

export interface Plan {
  id: string;
  user_id: string;
  plan_type: PlanType;
  status: "active";
  plan_started_at: string;
  plan_updated_at: string;
  created_at: string;
  updated_at: string;
  stripe_subscription_id: string | null;
  stripe_customer_id: string | null;
  subscription_id: string | null;
}

export type SubscriptionStatus =
  "active" | "trialing" | "canceled" | "incomplete" | "incomplete_expired" | "past_due" | "unpaid" | "paused" | "not_started";

export interface Subscription {
  price_id: string | null;
  subscription_status: SubscriptionStatus;
  cancel_at_period_end: boolean;
  /** Unix seconds. */
  current_period_end: number | null;
  payment_method_brand: string | null;
  payment_method_last4: string | null;
}

export type CheckoutMode = "subscription" | "payment";

export interface Product {
  id: string;
  priceId: string;
  name: string;
  description: string;
  mode: CheckoutMode;
  price: number;
  currency: string;
  interval: string;
}

export interface ApiErrorBody {
  error: { code: string; message: string };
}
