//! TanStack Query hooks for server state. Keys carry the user id so that another user's data is never shown.

import { useQuery } from "@tanstack/react-query";
import { useAuth } from "../auth/AuthProvider";
import { getPlan, getProducts, getSubscription } from "./billing";
import { listDevices } from "./desktop";
import { getEntitlements } from "./entitlements";
import { getMfaStatus, listPasskeys } from "./mfa";
import { getJoinableTeams, getJoinRequests, getTeam } from "./team";
import type { Device, JoinableTeam, JoinRequest, Passkey, Plan, Product, Subscription, Team } from "./types";

export const queryKeys = {
  /** The plan's decisions (`checkout`) follow the address's verification: a new one is a new answer. */
  plan: (userId: string, verified: boolean) => ["plan", userId, verified] as const,
  subscription: (userId: string) => ["subscription", userId] as const,
  products: ["products"] as const,
  devices: (userId: string) => ["devices", userId] as const,
  entitlements: (userId: string) => ["entitlements", userId] as const,
  team: (userId: string) => ["team", userId] as const,
  /** Under "team": whatever refreshes the team refreshes these too. */
  joinRequests: (userId: string) => ["team", userId, "join-requests"] as const,
  joinableTeams: (userId: string) => ["team", userId, "joinable"] as const,
  mfa: (userId: string) => ["mfa", userId] as const,
  passkeys: (userId: string) => ["mfa", userId, "passkeys"] as const,
};

/** Per-user data to forget when the user signs out. */
export const accountQueryRoots = ["plan", "subscription", "devices", "entitlements", "team", "mfa"] as const;

export function usePlan() {
  const { user } = useAuth();
  const userId = user?.id ?? "";
  return useQuery({
    queryKey: queryKeys.plan(userId, Boolean(user?.email_confirmed_at)),
    enabled: Boolean(user),
    queryFn: async (): Promise<Plan> => {
      try {
        return await getPlan();
      } catch (error) {
        // An error, never a cached Free plan: the dashboard says so and offers Try again (issue 27).
        console.warn("Could not read the plan", error);
        throw error;
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

export function useDevices() {
  const { user } = useAuth();
  return useQuery({
    queryKey: queryKeys.devices(user?.id ?? ""),
    enabled: Boolean(user),
    queryFn: async (): Promise<Device[]> => (await listDevices()).devices,
  });
}

export function useEntitlements() {
  const { user } = useAuth();
  return useQuery({
    queryKey: queryKeys.entitlements(user?.id ?? ""),
    enabled: Boolean(user),
    queryFn: getEntitlements,
  });
}

/** The caller's team, or null when they are in none. */
export function useTeam() {
  const { user } = useAuth();
  return useQuery({
    queryKey: queryKeys.team(user?.id ?? ""),
    enabled: Boolean(user),
    queryFn: async (): Promise<Team | null> => (await getTeam()).team,
  });
}

/** The undecided requests to join the caller's team (owner and admins only: `enabled`). */
export function useJoinRequests(enabled: boolean) {
  const { user } = useAuth();
  return useQuery({
    queryKey: queryKeys.joinRequests(user?.id ?? ""),
    enabled: Boolean(user) && enabled,
    queryFn: async (): Promise<JoinRequest[]> => (await getJoinRequests()).requests,
  });
}

/** The teams the caller (in no team) may ask to join: domain join on for their verified domain. */
export function useJoinableTeams() {
  const { user } = useAuth();
  return useQuery({
    queryKey: queryKeys.joinableTeams(user?.id ?? ""),
    enabled: Boolean(user),
    queryFn: async (): Promise<JoinableTeam[]> => (await getJoinableTeams()).teams,
  });
}

/** What second factors the caller has (`GET /api/auth/mfa`). */
export function useMfaStatus() {
  const { user } = useAuth();
  return useQuery({ queryKey: queryKeys.mfa(user?.id ?? ""), enabled: Boolean(user), queryFn: getMfaStatus });
}

export function usePasskeys() {
  const { user } = useAuth();
  return useQuery({
    queryKey: queryKeys.passkeys(user?.id ?? ""),
    enabled: Boolean(user),
    queryFn: async (): Promise<Passkey[]> => (await listPasskeys()).passkeys,
  });
}
