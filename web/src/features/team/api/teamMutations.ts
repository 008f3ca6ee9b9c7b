//! The team itself as `useMutation` hooks: create, join by invitation, confirm the team's checkout,
//! rename, seats, reclaiming idle seats, leave, transfer, delete, and deciding join requests, each with
//! the cache updates it implies (see ./mutations.ts).

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { REAUTHENTICATION_REQUIRED } from "../../../components/account/ConfirmPassword";
import type { Guard } from "../../../lib/api/mutations";
import {
  acceptInvite,
  changeSeats,
  confirmTeamCheckout,
  createTeam,
  decideJoinRequest,
  declineInvite,
  deleteTeam,
  leaveTeam,
  renameTeam,
  transferTeam,
} from "../../../lib/api/team";
import { reclaimSeats } from "../../../lib/api/teamAdoption";
import type { Team } from "../../../lib/api/types";
import { useAuth } from "../../../lib/auth/AuthProvider";
import { is, statusIn, teamAnswered, teamChanged } from "./mutations";

/** Members' adoption and the idle ones (`GET /api/team/adoption`). */
export const adoptionKey = (teamId: string) => ["team-adoption", teamId] as const;

function useAnswered() {
  const client = useQueryClient();
  const { user } = useAuth();
  return { client, answered: (team: Team | null) => teamAnswered(client, user?.id ?? "", team) };
}

/** A new name: the answer is the team. No longer allowed to: the page is out of date. */
export function useRenameTeam() {
  const { client, answered } = useAnswered();
  return useMutation({
    mutationFn: (name: string) => renameTeam(name),
    onSuccess: ({ team }) => answered(team),
    onError: (error) => {
      if (statusIn(error, 403)) void teamChanged(client);
    },
  });
}

/** Confirm a previewed number of seats: the answer is the team (and the plan follows). */
export function useChangeSeats() {
  const { client, answered } = useAnswered();
  return useMutation({
    mutationFn: ({ seats, prorationDate }: { seats: number; prorationDate: number }) => changeSeats(seats, prorationDate),
    onSuccess: ({ team }) => answered(team),
    onError: (error) => {
      if (statusIn(error, 403, 404, 409)) void teamChanged(client);
    },
  });
}

/**
 * Reclaim idle seats: a dry run only prices it; done, the idle members are out, the team the answer
 * carries goes into the cache and the adoption report is read again.
 */
export function useReclaimSeats(teamId: string) {
  const { client, answered } = useAnswered();
  return useMutation({
    mutationFn: (body: Parameters<typeof reclaimSeats>[0]) => reclaimSeats(body),
    onSuccess: (answer, { dry_run }) => {
      if (dry_run) return;
      if (answer.team) answered(answer.team as Team);
      else void teamChanged(client);
      return client.invalidateQueries({ queryKey: adoptionKey(teamId) });
    },
    onError: (error) => {
      if (statusIn(error, 403, 404, 409)) void teamChanged(client);
    },
  });
}

/** Leave or delete the team: no team in the cache any more. Not in it already: read it again. */
export function useEndMembership() {
  const { client, answered } = useAnswered();
  return useMutation({
    mutationFn: async (change: { action: "leave" } | { action: "delete"; password: string }) => {
      await (change.action === "leave" ? leaveTeam() : deleteTeam(change.password));
    },
    onSuccess: () => answered(null),
    onError: (error, change) => {
      // Made the owner meanwhile (leave), or no longer the owner (delete): the page shows it.
      if (is(error, "team_not_found", "owner_cannot_leave") || (change.action === "delete" && statusIn(error, 403)))
        void teamChanged(client);
    },
  });
}

/** Hand the team to another member (the password first when the API asks): the answer is the team. */
export function useTransferTeam(guard: Guard) {
  const { client, answered } = useAnswered();
  return useMutation({
    mutationFn: (userId: string) => guard(() => transferTeam(userId)),
    onSuccess: ({ team }) => answered(team),
    onError: (error) => {
      if (is(error, "team_not_found") || (statusIn(error, 403) && !is(error, REAUTHENTICATION_REQUIRED)))
        void teamChanged(client);
    },
  });
}

/** Approve or deny a join request: the team (members, seats) and the requests (under "team") are read again. */
export function useDecideJoinRequest() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, decision }: { id: string; decision: "approve" | "deny" }) => decideJoinRequest(id, decision),
    onSuccess: () => teamChanged(client),
    onError: (error) => {
      // Decided elsewhere, the user joined a team meanwhile, or seats changed: the page is out of date.
      if (statusIn(error, 403, 404, 409)) void teamChanged(client);
    },
  });
}

/** Name a new team: the answer is the team. Already in one (another tab, an invitation): show it. */
export function useCreateTeam() {
  const { client, answered } = useAnswered();
  return useMutation({
    mutationFn: (name: string) => createTeam(name),
    onSuccess: ({ team }) => answered(team),
    onError: (error) => {
      if (is(error, "already_in_team")) void teamChanged(client);
    },
  });
}

/** Accept or decline an invitation (`/invite?token=…`): accepted, the answer is the caller's team. */
export function useDecideInvite() {
  const { answered } = useAnswered();
  return useMutation({
    mutationFn: async ({ token, action }: { token: string; action: "accept" | "decline" }) =>
      action === "accept" ? (await acceptInvite(token)).team : (await declineInvite(token), null),
    onSuccess: (team) => {
      if (team) answered(team);
    },
  });
}

/** Back from the team's Stripe Checkout: the server confirms the session; the answer is the team. */
export function useConfirmTeamCheckout() {
  const { answered } = useAnswered();
  return useMutation({
    mutationFn: (sessionId: string) => confirmTeamCheckout(sessionId),
    onSuccess: ({ team }) => answered(team),
  });
}
