//! `/team`'s changes as `useMutation` hooks, each with the cache updates it implies. Whatever is
//! under the "team" root (the team, its join requests, its domains) is read again after a change to
//! the team, and after a refusal that may mean the page is out of date (someone else changed the
//! team meanwhile); an answer that carries the team goes into the cache at once, and since a seat
//! gained or lost changes the plan, entitlements and the plan's decisions are read again then.

import { useMutation, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { ApiError } from "../../../lib/api/client";
import { unguarded, type Guard } from "../../../lib/api/mutations";
import { queryKeys } from "../../../lib/api/queries";
import {
  addDomain,
  createScimToken,
  inviteToTeam,
  removeDomain,
  removeMember,
  resendInvite,
  revokeInvite,
  revokeScimToken,
  setMemberRole,
  verifyDomain,
} from "../../../lib/api/team";
import type { InviteRole, Team } from "../../../lib/api/types";
import { useAuth } from "../../../lib/auth/AuthProvider";

/** Under "team": refreshing the team refreshes the domains too (domain join follows them). */
export const domainsKey = (teamId: string) => ["team", teamId, "domains"] as const;
export const scimTokensKey = (userId: string) => ["scim-tokens", userId] as const;

/** The team (and what hangs under it) is read again. */
export function teamChanged(client: QueryClient) {
  return client.invalidateQueries({ queryKey: ["team"] });
}

/**
 * The team an answer carries goes into the cache (null once the caller left it); the members' later
 * pages (api/lists.ts) are read again, since the answer holds only the first; the plan follows.
 */
export function teamAnswered(client: QueryClient, userId: string, team: Team | null) {
  client.setQueryData(queryKeys.team(userId), team);
  void client.invalidateQueries({ queryKey: [...queryKeys.team(userId), "members"] });
  void client.invalidateQueries({ queryKey: ["entitlements"] });
  void client.invalidateQueries({ queryKey: ["plan"] });
}

export const is = (error: unknown, ...codes: string[]) => error instanceof ApiError && codes.includes(error.code);
export const statusIn = (error: unknown, ...statuses: number[]) => error instanceof ApiError && statuses.includes(error.status);

/** Invite by e-mail and role: the pending invitations (and seats taken) change. */
export function useInvite() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ email, role }: { email: string; role: InviteRole }) => inviteToTeam(email, role),
    onSuccess: () => teamChanged(client),
    onError: (error) => {
      if (is(error, "seats_taken", "team_over_seats", "forbidden_role", "team_not_found")) void teamChanged(client);
    },
  });
}

/** Send a pending invitation again, or revoke it. Anything but a rate limit may mean it changed meanwhile. */
export function useInviteAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, action }: { id: string; action: "resend" | "revoke" }) => {
      await (action === "resend" ? resendInvite(id) : revokeInvite(id));
    },
    onSuccess: () => teamChanged(client),
    onError: (error) => {
      if (!statusIn(error, 429)) void teamChanged(client);
    },
  });
}

/**
 * Remove a member; `onRemoved` runs before the list is read again (focus follows the row). Gone
 * already or no longer allowed, the list is read again either way.
 */
export function useRemoveMember(onRemoved: () => void = () => {}) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => removeMember(userId),
    onSuccess: () => {
      onRemoved();
      return teamChanged(client);
    },
    onError: () => void teamChanged(client),
  });
}

/** Make a member an admin or an admin a member; the answer is the team as it is now. */
export function useSetMemberRole() {
  const client = useQueryClient();
  const { user } = useAuth();
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: InviteRole }) => setMemberRole(userId, role),
    onSuccess: ({ team }) => teamAnswered(client, user?.id ?? "", team),
    onError: (error) => {
      if (statusIn(error, 403, 404)) void teamChanged(client);
    },
  });
}

/** Add a company domain (pending until its TXT record is verified); a sensitive action (`guard`). */
export function useAddDomain(teamId: string, guard: Guard = unguarded) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (domain: string) => guard(() => addDomain(domain)),
    onSuccess: () => client.invalidateQueries({ queryKey: domainsKey(teamId) }),
  });
}

/**
 * Verify or remove a domain (removing is a sensitive action: `guard`): domain join and single sign-on
 * follow the domains, so the team is read again.
 */
export function useDomainAction(teamId: string, guard: Guard = unguarded) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, action }: { id: string; action: "verify" | "remove" }) => {
      await (action === "verify" ? verifyDomain(id) : guard(() => removeDomain(id)));
    },
    onSuccess: () => teamChanged(client),
    onError: (error) => {
      if (statusIn(error, 403, 404)) void client.invalidateQueries({ queryKey: domainsKey(teamId) });
    },
  });
}

/**
 * A new SCIM token (its secret is in the answer, shown once; a sensitive action: `guard`) or one
 * revoked: the list is read again.
 */
export function useScimTokenAction(guard: Guard = unguarded) {
  const client = useQueryClient();
  const { user } = useAuth();
  return useMutation({
    mutationFn: async (change: { action: "create"; name: string } | { action: "revoke"; id: string }): Promise<string | null> => {
      if (change.action === "create") return (await guard(() => createScimToken(change.name))).token;
      await revokeScimToken(change.id);
      return null;
    },
    onSuccess: () => client.invalidateQueries({ queryKey: scimTokensKey(user?.id ?? "") }),
  });
}
