//! The mock API's team tables (docs/teams.md "Data"): teams, memberships, invitations and the team's
//! checkout sessions, domain-join requests, with the rules the service applies (a user in one team at most, a pending invite
//! holds a seat, an invite of the same address replaces the open one). Part of `db`.

import type { InviteRole, Team, TeamRole, TeamSubscription } from "../lib/api/types";
import { isSubscribedStatus } from "../lib/billing/rules";
import { teamDecisions } from "./teamDecisions";

export interface TeamRow {
  id: string;
  name: string;
  ownerId: string;
  /** The subscription item's quantity; 0 before checkout. */
  seats: number;
  subscription: TeamSubscription | null;
  /** The team's own Stripe customer: created when its first checkout starts. */
  customerId?: string | null;
  joinDomain: string | null;
  createdAt: number;
}

export interface MemberRow {
  teamId: string;
  userId: string;
  role: TeamRole;
  joinedAt: number;
}

export interface InviteRow {
  id: string;
  teamId: string;
  email: string;
  role: InviteRole;
  token: string;
  createdAt: number;
  expiresAt: number;
  lastSentAt: number;
  acceptedAt: number | null;
  declinedAt: number | null;
  revokedAt: number | null;
}

export interface JoinRequestRow {
  id: string;
  teamId: string;
  userId: string;
  createdAt: number;
  decidedAt: number | null;
  decision: "approved" | "denied" | null;
}

export interface TeamCheckoutRow {
  id: string;
  teamId: string;
  seats: number;
  paid: boolean;
}

export interface TeamSnapshot {
  teams: [string, TeamRow][];
  members: MemberRow[];
  invites: InviteRow[];
  checkouts: [string, TeamCheckoutRow][];
  joinRequests?: JoinRequestRow[];
}

export const INVITE_TTL_MS = 7 * 24 * 3600 * 1000;

interface Deps {
  now: () => number;
  uuid: () => string;
  iso: (ms: number) => string;
  emailOf: (userId: string) => string | undefined;
  callsThisMonth: (userId: string) => number;
  /** The user's own subscription counts as subscribed. */
  personalPaid: (userId: string) => boolean;
  /** `teams::domain_join_offer` for the user as owner. */
  domainJoinOffer: (userId: string) => string | null;
}

export function createTeamStore(deps: Deps) {
  const store = {
    teams: new Map<string, TeamRow>(),
    members: [] as MemberRow[],
    invites: [] as InviteRow[],
    checkouts: new Map<string, TeamCheckoutRow>(),
    joinRequests: [] as JoinRequestRow[],
    /** Stripe's billing portal cannot be opened (`502 portal_failed`). */
    portalDown: false,

    reset() {
      store.teams.clear();
      store.members = [];
      store.invites = [];
      store.checkouts.clear();
      store.joinRequests = [];
      store.portalDown = false;
    },

    membershipOf(userId: string): MemberRow | undefined {
      return store.members.find((m) => m.userId === userId);
    },

    teamOf(userId: string): TeamRow | undefined {
      const row = store.membershipOf(userId);
      return row && store.teams.get(row.teamId);
    },

    membersOf(teamId: string): MemberRow[] {
      return store.members.filter((m) => m.teamId === teamId).sort((a, b) => a.joinedAt - b.joinedAt);
    },

    isPending(invite: InviteRow): boolean {
      return !invite.acceptedAt && !invite.declinedAt && !invite.revokedAt && invite.expiresAt > deps.now();
    },

    /** Open (not accepted, declined or revoked) invites, expired ones included: the screen lists those. */
    openInvites(teamId: string): InviteRow[] {
      return store.invites.filter((i) => i.teamId === teamId && !i.acceptedAt && !i.declinedAt && !i.revokedAt);
    },

    seats(team: TeamRow) {
      const used = store.membersOf(team.id).length + store.openInvites(team.id).filter(store.isPending).length;
      return { total: team.seats, used, free: Math.max(0, team.seats - used) };
    },

    /** As `Seats::over_seats`: seats bought (at least 1) below the members; pending invites do not count. */
    seatsMissing(team: TeamRow): number {
      const members = store.membersOf(team.id).length;
      return team.seats >= 1 ? Math.max(0, members - team.seats) : 0;
    },

    paid(team: TeamRow): boolean {
      return isSubscribedStatus(team.subscription?.status);
    },

    /** `Team` as the caller with `userId` sees it. */
    view(team: TeamRow, userId: string): Team {
      const role = store.membershipOf(userId)!.role;
      const paid = store.paid(team);
      const seats = store.seats(team);
      const decided = teamDecisions(role, team.subscription?.status ?? null, seats.used);
      return {
        id: team.id,
        name: team.name,
        role,
        seats,
        seat_range: decided.range,
        subscription: team.subscription,
        paid,
        payment_failed: decided.payment_failed,
        may: decided.may,
        invite_roles: decided.invite_roles,
        join_domain: team.joinDomain,
        domain_join_offer: role === "owner" ? deps.domainJoinOffer(userId) : null,
        personal_subscription_overlap: paid && deps.personalPaid(userId),
        over_seats: store.seatsMissing(team) > 0,
        seats_missing: store.seatsMissing(team),
        members: store.membersOf(team.id).map((m) => ({
          user_id: m.userId,
          email: deps.emailOf(m.userId) ?? "",
          role: m.role,
          joined_at: deps.iso(m.joinedAt),
          calls_this_month: deps.callsThisMonth(m.userId),
          may_remove: decided.mayRemove(m.role),
          may_change_role: decided.mayChangeRole(m.role),
        })),
        invites:
          role === "member"
            ? []
            : store.openInvites(team.id).map((i) => ({
                id: i.id,
                email: i.email,
                role: i.role,
                created_at: deps.iso(i.createdAt),
                expires_at: deps.iso(i.expiresAt),
                last_sent_at: deps.iso(i.lastSentAt),
                expired: i.expiresAt <= deps.now(),
              })),
      };
    },

    create(name: string, ownerId: string): TeamRow {
      const team: TeamRow = {
        id: deps.uuid(),
        name,
        ownerId,
        seats: 0,
        subscription: null,
        customerId: null,
        joinDomain: null,
        createdAt: deps.now(),
      };
      store.teams.set(team.id, team);
      store.members.push({ teamId: team.id, userId: ownerId, role: "owner", joinedAt: deps.now() });
      return team;
    },

    /** A new invite (replacing an open one of the same address in the team); answers its raw token. */
    invite(teamId: string, email: string, role: InviteRole): string {
      const address = email.trim().toLowerCase();
      for (const open of store.openInvites(teamId)) if (open.email === address) open.revokedAt = deps.now();
      const token = `inv_${deps.uuid().replace(/-/g, "")}`;
      const at = deps.now();
      store.invites.push({
        id: deps.uuid(),
        teamId,
        email: address,
        role,
        token,
        createdAt: at,
        expiresAt: at + INVITE_TTL_MS,
        lastSentAt: at,
        acceptedAt: null,
        declinedAt: null,
        revokedAt: null,
      });
      return token;
    },

    /** Asks to join `teamId` unless an undecided request of the user for it exists; answers the request. */
    requestJoin(teamId: string, userId: string): JoinRequestRow {
      const open = store.joinRequests.find((r) => r.teamId === teamId && r.userId === userId && !r.decidedAt);
      if (open) return open;
      const row: JoinRequestRow = { id: deps.uuid(), teamId, userId, createdAt: deps.now(), decidedAt: null, decision: null };
      store.joinRequests.push(row);
      return row;
    },

    /** The team's undecided requests, oldest first, leaving out users who are in a team by now. */
    openJoinRequests(teamId: string): JoinRequestRow[] {
      return store.joinRequests
        .filter((r) => r.teamId === teamId && !r.decidedAt && !store.membershipOf(r.userId))
        .sort((a, b) => a.createdAt - b.createdAt);
    },

    inviteByToken(token: string): InviteRow | undefined {
      return store.invites.find((i) => i.token === token);
    },

    remove(teamId: string) {
      store.teams.delete(teamId);
      store.members = store.members.filter((m) => m.teamId !== teamId);
      store.invites = store.invites.filter((i) => i.teamId !== teamId);
      store.joinRequests = store.joinRequests.filter((r) => r.teamId !== teamId);
    },

    /** The team's Stripe customer, created once (as the first checkout does). */
    customerOf(team: TeamRow): string {
      return (team.customerId ??= `cus_team_${team.id.slice(0, 8)}`);
    },

    subscribe(team: TeamRow, seats: number, status: TeamSubscription["status"] = "active") {
      store.customerOf(team);
      team.seats = seats;
      team.subscription = {
        status,
        current_period_end: Math.floor(deps.now() / 1000) + 30 * 24 * 3600,
        cancel_at_period_end: false,
      };
    },

    snapshot(): TeamSnapshot {
      return {
        teams: [...store.teams],
        members: store.members,
        invites: store.invites,
        checkouts: [...store.checkouts],
        joinRequests: store.joinRequests,
      };
    },

    restore(data: TeamSnapshot | undefined) {
      store.teams = new Map(data?.teams ?? []);
      store.members = data?.members ?? [];
      store.invites = data?.invites ?? [];
      store.checkouts = new Map(data?.checkouts ?? []);
      store.joinRequests = data?.joinRequests ?? [];
    },
  };
  return store;
}

export type TeamStore = ReturnType<typeof createTeamStore>;
