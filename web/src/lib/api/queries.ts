//! TanStack Query hooks for server state. Keys carry the user id so that another user's data is never shown.

import { queryOptions, useQuery } from "@tanstack/react-query";
import { useAuth } from "../auth/AuthProvider";
import { getPlan, getProducts, getSubscription } from "./billing";
import { listDevices } from "./desktop";
import { getEntitlements } from "./entitlements";
import { getMfaStatus, listPasskeys } from "./mfa";
import { getJoinableTeams, getJoinRequests, getTeam } from "./team";
import type { Catalogue, Device, JoinableTeam, JoinRequest, Passkey, Plan, Subscription, Team, User } from "./types";

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
  invitesToMe: (userId: string) => ["team", userId, "invites-to-me"] as const,
  mfa: (userId: string) => ["mfa", userId] as const,
  passkeys: (userId: string) => ["mfa", userId, "passkeys"] as const,
};

/** Per-user data to forget when the user signs out. */
export const accountQueryRoots = ["plan", "subscription", "devices", "entitlements", "team", "mfa"] as const;

/** The query options the hooks below and the account area's loader (its prefetch) share. */
export function planQuery(user: Pick<User, "id" | "email_confirmed_at">) {
  return queryOptions({
    queryKey: queryKeys.plan(user.id, Boolean(user.email_confirmed_at)),
    queryFn: async (): Promise<Plan> => {
      try {
        return await getPlan();
      } catch (error) {
        // An error, never a cached Free plan: the dashboard says so and offers Try again.
        console.warn("Could not read the plan", error);
        throw error;
      }
    },
  });
}

const nobody = { id: "", email_confirmed_at: null };

export function usePlan() {
  const { user } = useAuth();
  return useQuery({ ...planQuery(user ?? nobody), enabled: Boolean(user) });
}

export function subscriptionQuery(userId: string) {
  return queryOptions({
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
  });
}

export function useSubscription() {
  const { user } = useAuth();
  return useQuery({ ...subscriptionQuery(user?.id ?? ""), enabled: Boolean(user) });
}

export function useProducts() {
  return useQuery({
    queryKey: queryKeys.products,
    queryFn: (): Promise<Catalogue> => getProducts(),
    staleTime: 60 * 60 * 1000,
  });
}

export function devicesQuery(userId: string) {
  return queryOptions({
    queryKey: queryKeys.devices(userId),
    queryFn: async (): Promise<Device[]> => (await listDevices()).devices,
  });
}

export function useDevices() {
  const { user } = useAuth();
  return useQuery({ ...devicesQuery(user?.id ?? ""), enabled: Boolean(user) });
}

export function entitlementsQuery(userId: string) {
  return queryOptions({ queryKey: queryKeys.entitlements(userId), queryFn: getEntitlements });
}

export function useEntitlements() {
  const { user } = useAuth();
  return useQuery({ ...entitlementsQuery(user?.id ?? ""), enabled: Boolean(user) });
}

/** The caller's team, or null when they are in none. */
export function teamQuery(userId: string) {
  return queryOptions({
    queryKey: queryKeys.team(userId),
    queryFn: async (): Promise<Team | null> => (await getTeam()).team,
  });
}

export function useTeam() {
  const { user } = useAuth();
  return useQuery({ ...teamQuery(user?.id ?? ""), enabled: Boolean(user) });
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
export function mfaQuery(userId: string) {
  return queryOptions({ queryKey: queryKeys.mfa(userId), queryFn: getMfaStatus });
}

export function useMfaStatus() {
  const { user } = useAuth();
  return useQuery({ ...mfaQuery(user?.id ?? ""), enabled: Boolean(user) });
}

export function passkeysQuery(userId: string) {
  return queryOptions({
    queryKey: queryKeys.passkeys(userId),
    queryFn: async (): Promise<Passkey[]> => (await listPasskeys()).passkeys,
  });
}

export function usePasskeys() {
  const { user } = useAuth();
  return useQuery({ ...passkeysQuery(user?.id ?? ""), enabled: Boolean(user) });
}
