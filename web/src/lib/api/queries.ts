//! TanStack Query hooks for server state. Keys carry the user id so that another user's data is never shown.

import { useQuery } from "@tanstack/react-query";
import { useAuth } from "../auth/AuthProvider";
import { getPlan, getProducts, getSubscription } from "./billing";
import { ApiError } from "./client";
import type { Plan, Product, Subscription } from "./types";

export const queryKeys = {
  plan: (userId: string) => ["plan", userId] as const,
  subscription: (userId: string) => ["subscription", userId] as const,
  products: ["products"] as const,
};

/** The spec's fallback: a plan that cannot be read counts as free and active (warning logged only). */
export function freePlanFor(userId: string): Plan {
  const now = new Date().toISOString();
  return {
    id: "",
    user_id: userId,
    plan_type: "free",
    status: "active",
    plan_started_at: now,
    plan_updated_at: now,
    created_at: now,
    updated_at: now,
    stripe_subscription_id: null,
    stripe_customer_id: null,
    subscription_id: null,
  };
}

export function usePlan() {
  const { user } = useAuth();
  const userId = user?.id ?? "";
  return useQuery({
    queryKey: queryKeys.plan(userId),
    enabled: Boolean(user),
    queryFn: async (): Promise<Plan> => {
      try {
        return await getPlan();
      } catch (error) {
        console.warn("Could not read the plan; showing the free plan", error);
        return freePlanFor(userId);
      }
    },
  });
}

export function subscriptionQuery(userId: string) {
  return {
    queryKey: queryKeys.subscription(userId),
    queryFn: async (): Promise<Subscription | null> => {
      try {
        return (await getSubscription()).subscription;
      } catch (error) {
        // The spec: fetch errors are logged only; a failed refetch keeps the last data and says so.
        console.warn("Could not read the subscription", error);
        throw error;
      }
    },
  };
}

/** The spec's messages for a failed refetch (a failed first fetch is only logged). */
export function subscriptionRefetchError(query: { error: unknown; data: unknown }): string | null {
  if (!query.error || query.data === undefined) return null;
  return query.error instanceof ApiError ? "Failed to fetch subscription data" : "An unexpected error occurred";
}

export function useSubscription() {
  const { user } = useAuth();
  return useQuery({ ...subscriptionQuery(user?.id ?? ""), enabled: Boolean(user) });
}

export function useProducts() {
  return useQuery({
    queryKey: queryKeys.products,
    queryFn: async (): Promise<Product[]> => (await getProducts()).products,
    staleTime: 60 * 60 * 1000,
  });
}

export function isSubscribed(subscription: Subscription | null | undefined): boolean {
  return subscription?.subscription_status === "active" || subscription?.subscription_status === "trialing";
}

/** Paid when the plan says monthly, or the active-subscription check passes. */
export function isPaid(plan: Plan | undefined, subscription: Subscription | null | undefined): boolean {
  return plan?.plan_type === "monthly" || isSubscribed(subscription);
}
