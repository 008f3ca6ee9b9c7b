//! `/team`'s rules as `useMutation` hooks: the calls policy, the owner's "Require a second factor",
//! domain join and single sign-on, each with the cache updates it implies (see ./mutations.ts for
//! the pattern: the team is read again, or the team an answer carries goes into the cache).

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { deleteSso, saveSso, type TeamSso } from "../../../lib/api/sso";
import { unguarded, type Guard } from "../../../lib/api/mutations";
import { putTeamPolicy, setDomainJoin, setMfaPolicy } from "../../../lib/api/team";
import type { TeamPolicy } from "../../../lib/api/types";
import { useAuth } from "../../../lib/auth/AuthProvider";
import { statusIn, teamAnswered, teamChanged } from "./mutations";

/** The team's policy, with its adoption (`GET /api/team/policy`). */
export const policyKey = (teamId: string) => ["team-policy", teamId] as const;
/** Under "team": verifying a domain refreshes the team, and with it the domains SSO can serve. */
export const ssoKey = (teamId: string) => ["team", teamId, "sso"] as const;

/**
 * Save the policy: it is read again (new version, adoption), and so is the team, whose second-factor
 * rule ("Require a second factor" is in both) follows it. Turning Require 2FA or Require SSO on or
 * off is a sensitive action: `guard` asks for the password when the API wants it.
 */
export function useSaveTeamPolicy(teamId: string, guard: Guard = unguarded) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (policy: TeamPolicy) => guard(() => putTeamPolicy(policy)),
    onSuccess: () => Promise.all([client.invalidateQueries({ queryKey: policyKey(teamId) }), teamChanged(client)]),
    onError: (error) => {
      if (statusIn(error, 403, 404)) void teamChanged(client);
    },
  });
}

/** The owner's "Require a second factor" (`guard`: a sensitive action): the team (its rule, who lacks one) and the policy follow. */
export function useSetMfaPolicy(teamId: string, guard: Guard = unguarded) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (required: boolean) => guard(() => setMfaPolicy(required)),
    onSuccess: () => Promise.all([teamChanged(client), client.invalidateQueries({ queryKey: policyKey(teamId) })]),
    onError: (error) => {
      if (statusIn(error, 403, 404)) void teamChanged(client);
    },
  });
}

/** Domain join on for a domain, or off (null): the answer is the team as it is now. */
export function useSetDomainJoin() {
  const client = useQueryClient();
  const { user } = useAuth();
  return useMutation({
    mutationFn: (domain: string | null) => setDomainJoin(domain),
    onSuccess: ({ team }) => teamAnswered(client, user?.id ?? "", team),
    onError: (error) => {
      if (statusIn(error, 403, 404)) void teamChanged(client);
    },
  });
}

/** Save single sign-on (the answer is the settings as stored) or remove it (null), each a sensitive action (`guard`); read again either way. */
export function useSsoAction(teamId: string, guard: Guard = unguarded) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: { action: "save"; body: Parameters<typeof saveSso>[0] } | { action: "delete" }) =>
      guard(() => (change.action === "save" ? saveSso(change.body) : deleteSso().then((): TeamSso | null => null))),
    onSuccess: (saved) => {
      if (saved) client.setQueryData(ssoKey(teamId), saved);
      // "Require SSO" is the policy's `require_sso` too (Policies sends it back as it read it).
      return Promise.all([
        client.invalidateQueries({ queryKey: ssoKey(teamId) }),
        client.invalidateQueries({ queryKey: policyKey(teamId) }),
      ]);
    },
  });
}
