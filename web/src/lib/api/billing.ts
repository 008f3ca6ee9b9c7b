//! Plans and billing endpoints (docs/api.md "Plans and billing").

import { apiRequest } from "./client";
import type {
  BillingInterval,
  CancellationReason,
  CancellationReasons,
  Catalogue,
  CheckoutMode,
  IntervalPreview,
  Plan,
  Subscription,
} from "./types";

export function getPlan() {
  return apiRequest<Plan>("/api/plan", { auth: true });
}

export function getSubscription() {
  return apiRequest<{ subscription: Subscription | null }>("/api/subscription", { auth: true });
}

export function getProducts() {
  return apiRequest<Catalogue>("/api/products");
}

export function createCheckout(body: {
  price_id: string;
  mode: CheckoutMode;
  success_url: string;
  cancel_url: string;
  promotion_code?: string;
}) {
  return apiRequest<{ url?: string | null }>("/api/checkout", { method: "POST", body, auth: true });
}

export function confirmCheckout(sessionId: string) {
  return apiRequest<{ plan: Plan; subscription: Subscription | null }>("/api/checkout/confirm", {
    method: "POST",
    body: { session_id: sessionId },
    auth: true,
  });
}

export function openBillingPortal(returnUrl: string) {
  return apiRequest<{ url: string }>("/api/billing/portal", { method: "POST", body: { return_url: returnUrl }, auth: true });
}

export function previewInterval(interval: BillingInterval) {
  return apiRequest<IntervalPreview>(`/api/billing/interval/preview?interval=${interval}`, { auth: true });
}

export function changeInterval(interval: BillingInterval, prorationDate: number) {
  return apiRequest<{ subscription: Subscription | null }>("/api/billing/interval", {
    method: "PUT",
    body: { interval, proration_date: prorationDate },
    auth: true,
  });
}

export function getCancellationReasons() {
  return apiRequest<CancellationReasons>("/api/billing/cancellation-reasons");
}

export function cancelPlan(reason: CancellationReason | null) {
  return apiRequest<{ subscription: Subscription | null }>("/api/billing/cancel", {
    method: "POST",
    body: { reason },
    auth: true,
  });
}

export function resumePlan() {
  return apiRequest<{ subscription: Subscription | null }>("/api/billing/resume", { method: "POST", auth: true });
}
