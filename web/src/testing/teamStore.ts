//! The mock API's team state (docs/teams.md "Data"): teams, memberships, invitations, join requests
//! and the team's checkout sessions. The decisions of the `Team` answer are fixture data: each role's
//! `may`, `invite_roles` and whom it may remove or re-role (`roles`), and per role or per e-mail
//! overrides of any other field (`answers`), set by the test that seeds the team.

import type { InviteRole, Team, TeamPermissions, TeamRole, TeamSubscription } from "../lib/api/types";

export interface RoleFixture {
  may: TeamPermissions;
  invite_roles: InviteRole[];
  /** The roles of the members whose rows say `may_remove`, `may_change_role`. */
  removes: TeamRole[];
  reroles: TeamRole[];
}
export type TeamRoles = Record<TeamRole, RoleFixture>;

const NOTHING: TeamPermissions = {
  ...{ rename: false, invite: false, approve_join: false, configure_domain_join: false, leave: true },
  ...{ transfer: false, delete: false, manage_billing: false, buy_seats: false, change_seats: false },
};
const OWNER: TeamPermissions = {
  ...NOTHING,
  ...{ rename: true, invite: true, approve_join: true, configure_domain_join: true, leave: false },
  ...{ transfer: true, delete: true, manage_billing: true },
};
/** Fixtures of what the server answers each role of a team without a subscription, and of a paid one. */
export const UNPAID_TEAM: TeamRoles = {
  owner: {
    may: { ...OWNER, buy_seats: true },
    invite_roles: ["member", "admin"],
    removes: ["admin", "member"],
    reroles: ["admin", "member"],
  },
  admin: { may: { ...NOTHING, invite: true, approve_join: true }, invite_roles: ["member"], removes: ["member"], reroles: [] },
  member: { may: NOTHING, invite_roles: [], removes: [], reroles: [] },
};
export const PAID_TEAM: TeamRoles = { ...UNPAID_TEAM, owner: { ...UNPAID_TEAM.owner, may: { ...OWNER, change_seats: true } } };

export interface TeamRow {
  id: string;
  name: string;
  ownerId: string;
  /** The subscription item's quantity; 0 before checkout. */
  seats: number;
  subscription: TeamSubscription | null;
  customerId: string | null;
  joinDomain: string | null;
  roles: TeamRoles;
  /** Fields of the answer by the viewer's role or e-mail (`paid`, `payment_failed`, `domain_join_offer`...). */
  answers: Record<string, Partial<Team>>;
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
export type TeamSnapshot = Pick<ReturnType<typeof tables>, "members" | "invites" | "joinRequests"> & {
  teams: [string, TeamRow][];
  checkouts: [string, TeamCheckoutRow][];
};
interface TeamCheckoutRow {
  id: string;
  teamId: string;
  seats: number;
  paid: boolean;
}

export const INVITE_TTL_MS = 7 * 24 * 3600 * 1000;

const tables = () => ({
  teams: new Map<string, TeamRow>(),
  members: [] as MemberRow[],
  invites: [] as InviteRow[],
  checkouts: new Map<string, TeamCheckoutRow>(),
  joinRequests: [] as JoinRequestRow[],
  /** Stripe's billing portal cannot be opened (`502 portal_failed`). */
  portalDown: false,
});

interface Deps {
  now: () => number;
  uuid: () => string;
  iso: (ms: number) => string;
  emailOf: (userId: string) => string | undefined;
}

export function createTeamStore(deps: Deps) {
  const store = {
    ...tables(),
    reset: () => void Object.assign(store, tables()),
    membershipOf: (userId: string) => store.members.find((m) => m.userId === userId),
    teamOf: (userId: string) => store.teams.get(store.membershipOf(userId)?.teamId ?? ""),
    membersOf: (teamId: string) => store.members.filter((m) => m.teamId === teamId).sort((a, b) => a.joinedAt - b.joinedAt),
    isPending: (i: InviteRow) => !i.acceptedAt && !i.declinedAt && !i.revokedAt && i.expiresAt > deps.now(),
    /** Open (not accepted, declined or revoked) invites, expired ones included: the screen lists those. */
    openInvites: (teamId: string) =>
      store.invites.filter((i) => i.teamId === teamId && !i.acceptedAt && !i.declinedAt && !i.revokedAt),
    inviteByToken: (token: string) => store.invites.find((i) => i.token === token),
    /** The seats bought, and those held by members and pending invites. */
    seats(team: TeamRow) {
      const used = store.membersOf(team.id).length + store.openInvites(team.id).filter(store.isPending).length;
      return { total: team.seats, used, free: Math.max(0, team.seats - used) };
    },

    /** `Team` as the caller with `userId` sees it: the state, and the decisions the fixtures hold. */
    view(team: TeamRow, userId: string): Team {
      const role = store.membershipOf(userId)!.role;
      const { removes, reroles, ...decisions } = team.roles[role];
      const answer: Team = {
        ...{
          id: team.id,
          name: team.name,
          role,
          seats: store.seats(team),
          subscription: team.subscription,
          join_domain: team.joinDomain,
        },
        ...{
          seat_range: { min: 1, max: 1000 },
          paid: team.subscription !== null,
          payment_failed: false,
          domain_join_offer: null,
        },
        ...{ personal_subscription_overlap: false, over_seats: false, seats_missing: 0, ...decisions },
        members: store.membersOf(team.id).map((m) => ({
          ...{
            user_id: m.userId,
            email: deps.emailOf(m.userId) ?? "",
            role: m.role,
            joined_at: deps.iso(m.joinedAt),
            calls_this_month: 0,
          },
          ...{ may_remove: removes.includes(m.role), may_change_role: reroles.includes(m.role) },
        })),
        invites: (decisions.may.invite ? store.openInvites(team.id) : []).map((i) => ({
          ...{ id: i.id, email: i.email, role: i.role, created_at: deps.iso(i.createdAt), expires_at: deps.iso(i.expiresAt) },
          ...{ last_sent_at: deps.iso(i.lastSentAt), expired: i.expiresAt <= deps.now() },
        })),
      };
      return { ...answer, ...team.answers[role], ...team.answers[deps.emailOf(userId) ?? ""] };
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
        roles: UNPAID_TEAM,
        answers: {},
      };
      store.teams.set(team.id, team);
      store.members.push({ teamId: team.id, userId: ownerId, role: "owner", joinedAt: deps.now() });
      return team;
    },

    /** A new invite (revoking an open one of the same address in the team); answers its raw token. */
    invite(teamId: string, email: string, role: InviteRole): string {
      const at = deps.now();
      for (const open of store.openInvites(teamId)) if (open.email === email) open.revokedAt = at;
      const token = `inv_${deps.uuid().replace(/-/g, "")}`;
      store.invites.push({
        ...{ id: deps.uuid(), teamId, email, role, token, createdAt: at, expiresAt: at + INVITE_TTL_MS, lastSentAt: at },
        ...{ acceptedAt: null, declinedAt: null, revokedAt: null },
      });
      return token;
    },

    requestJoin(teamId: string, userId: string): JoinRequestRow {
      const open = store.joinRequests.find((r) => r.teamId === teamId && r.userId === userId && !r.decidedAt);
      if (open) return open;
      const row: JoinRequestRow = { id: deps.uuid(), teamId, userId, createdAt: deps.now(), decidedAt: null, decision: null };
      store.joinRequests.push(row);
      return row;
    },
    openJoinRequests: (teamId: string) =>
      store.joinRequests.filter((r) => r.teamId === teamId && !r.decidedAt && !store.membershipOf(r.userId)),

    remove(teamId: string) {
      store.teams.delete(teamId);
      store.members = store.members.filter((m) => m.teamId !== teamId);
    },

    /** The team after a paid checkout: its seats, an active subscription, the paid team's decisions. */
    subscribe(team: TeamRow, seats: number, status: TeamSubscription["status"] = "active") {
      team.customerId ??= `cus_team_${team.id.slice(0, 8)}`;
      Object.assign(team, { seats, roles: team.roles === UNPAID_TEAM ? PAID_TEAM : team.roles });
      team.subscription = {
        status,
        current_period_end: Math.floor(deps.now() / 1000) + 30 * 24 * 3600,
        cancel_at_period_end: false,
      };
    },

    /**
     * Seeds a team with members and pending invites; `seats` > 0 subscribes it (`status`, active by
     * default, with PAID_TEAM's decisions unless `roles` says otherwise). Answers the row and the tokens.
     */
    seed(
      input: {
        name?: string;
        owner: string;
        seats?: number;
        status?: TeamSubscription["status"];
        members?: { email: string; role?: InviteRole }[];
        invites?: { email: string; role?: InviteRole }[];
        joinDomain?: string;
        roles?: TeamRoles;
        answers?: Record<string, Partial<Team>>;
      },
      userId: (email: string) => string,
    ) {
      const team = store.create(input.name ?? "Northwind Sales", userId(input.owner));
      for (const m of input.members ?? [])
        store.members.push({ teamId: team.id, userId: userId(m.email), role: m.role ?? "member", joinedAt: deps.now() });
      if (input.seats) store.subscribe(team, input.seats, input.status);
      Object.assign(team, {
        joinDomain: input.joinDomain ?? null,
        answers: input.answers ?? {},
        roles: input.roles ?? team.roles,
      });
      const tokens = (input.invites ?? []).map((i) => store.invite(team.id, i.email, i.role ?? "member"));
      return { team, tokens };
    },

    snapshot: (): TeamSnapshot => ({ ...store, teams: [...store.teams], checkouts: [...store.checkouts] }),
    restore(data: TeamSnapshot | undefined) {
      Object.assign(store, tables(), data, { teams: new Map(data?.teams ?? []), checkouts: new Map(data?.checkouts ?? []) });
    },
  };
  return store;
}

export type TeamStore = ReturnType<typeof createTeamStore>;
