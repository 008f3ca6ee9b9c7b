//! The mock API's team state (docs/teams.md "Data"): teams, memberships, invitations, join requests
//! and the team's checkout sessions. The decisions of the `Team` answer are fixture data: each role's
//! `may`, `invite_roles` and whom it may remove or re-role (`roles`), and per role or per e-mail
//! overrides of any other field (`answers`), set by the test that seeds the team.

import type { InviteRole, Team, TeamPermissions, TeamPolicyAnswer, TeamRole, TeamSubscription } from "../lib/api/types";

/** `removes`, `reroles`: the roles of the members whose rows say `may_remove`, `may_change_role`; `factors`: the
 * rows say who has a second factor (null for a plain member). */
export type RoleFixture = {
  may: TeamPermissions;
  invite_roles: InviteRole[];
  removes: TeamRole[];
  reroles: TeamRole[];
  factors: boolean;
};
export type TeamRoles = Record<TeamRole, RoleFixture>;

const NO = { rename: false, invite: false, approve_join: false, configure_domain_join: false, leave: true, transfer: false };
const NOT_BILLING = {
  ...{ delete: false, manage_billing: false, buy_seats: false, change_seats: false, require_mfa: false },
  ...{ start_trial: false, pay_by_invoice: false },
};
const NOT_CONSOLE = { remove_members: false, set_policy: false, manage_domains: false, manage_scim: false, configure_sso: false };
const NOT_VIEWS = { view_adoption: false, view_activity: false, view_invoices: false, edit_billing_details: false };
const NOT_STREAMS = { manage_streams: false };
const NOTHING: TeamPermissions = { ...NO, ...NOT_BILLING, ...NOT_CONSOLE, ...NOT_VIEWS, ...NOT_STREAMS };
const ASKS = { invite: true, approve_join: true, remove_members: true };
const ADMINS = { ...ASKS, set_policy: true, view_adoption: true, view_activity: true, view_invoices: true };
const OWNS = { ...NOTHING, ...ADMINS, rename: true, configure_domain_join: true, leave: false };
const OWNED = { manage_domains: true, manage_scim: true, configure_sso: true, manage_streams: true };
const PAYS = { transfer: true, delete: true, manage_billing: true, require_mfa: true, edit_billing_details: true };
const OWNER: TeamPermissions = { ...OWNS, ...OWNED, ...PAYS };
const ALL: TeamRole[] = ["admin", "member"];
const owner = (may: TeamPermissions): RoleFixture => ({
  ...{ may, invite_roles: ["member", "admin"], removes: ALL, reroles: ALL, factors: true },
});
/** Fixtures of what the server answers each role of a team without a subscription, and of a paid one. */
export const UNPAID_TEAM: TeamRoles = {
  owner: owner({ ...OWNER, buy_seats: true, start_trial: true, pay_by_invoice: true }),
  admin: { may: { ...NOTHING, ...ADMINS }, invite_roles: ["member"], removes: ["member"], reroles: [], factors: true },
  member: { may: NOTHING, invite_roles: [], removes: [], reroles: [], factors: false },
};
export const PAID_TEAM: TeamRoles = { ...UNPAID_TEAM, owner: owner({ ...OWNER, change_seats: true }) };

type Stamp = number | null;
/** `answers`: fields of the answer by the viewer's role or e-mail; `seats`: 0 before checkout. */
type TeamFixtures = { roles: TeamRoles; answers: Record<string, Partial<Team>> };
type TeamBilling = { seats: number; subscription: TeamSubscription | null; customerId: string | null };
type TeamRules = { joinDomain: string | null; requireMfa?: boolean };
export type TeamRow = TeamFixtures &
  TeamBilling &
  TeamRules & {
    id: string;
    name: string;
    ownerId: string;
    /** `GET /api/team/policy`'s fixture (the default until a PUT). */
    policy?: TeamPolicyAnswer;
    /** The proration dates a seats preview issued (Unix seconds), each with when (`db.now()`). */
    quotes?: Record<number, number>;
  };
export type MemberRow = { teamId: string; userId: string; role: TeamRole; joinedAt: number };
type InviteDates = { createdAt: number; expiresAt: number; lastSentAt: number } & Record<
  "acceptedAt" | "declinedAt" | "revokedAt",
  Stamp
>;
export type InviteRow = InviteDates & { id: string; teamId: string; email: string; role: InviteRole; token: string };
type JoinRequestRow = {
  id: string;
  teamId: string;
  userId: string;
  createdAt: number;
  decidedAt: Stamp;
  decision: string | null;
};

type People = { email: string; role?: InviteRole }[];
type SeedTeam = Partial<TeamFixtures> & { name?: string; owner: string; seats?: number; status?: TeamSubscription["status"] } & {
  members?: People;
  invites?: People;
  joinDomain?: string;
};

export const INVITE_TTL_MS = 7 * 24 * 3600 * 1000;

export const teamTables = () => ({
  teams: new Map<string, TeamRow>(),
  members: [] as MemberRow[],
  invites: [] as InviteRow[],
  checkouts: new Map<string, { id: string; teamId: string; seats: number; paid: boolean; trial?: boolean }>(),
  joinRequests: [] as JoinRequestRow[],
  /** Stripe's billing portal cannot be opened (`502 portal_failed`). */
  portalDown: false,
});

type Lookups = { emailOf: (id: string) => string | undefined; hasFactor: (id: string) => boolean };
type Deps = { now: () => number; uuid: () => string; iso: (ms: number) => string } & Lookups;

export function createTeamStore({ now, uuid, iso, emailOf, hasFactor }: Deps) {
  const store = {
    ...teamTables(),
    reset: () => void Object.assign(store, teamTables()),
    membershipOf: (userId: string) => store.members.find((m) => m.userId === userId),
    teamOf: (userId: string) => store.teams.get(store.membershipOf(userId)?.teamId ?? ""),
    membersOf: (teamId: string) => store.members.filter((m) => m.teamId === teamId).sort((a, b) => a.joinedAt - b.joinedAt),
    isPending: (i: InviteRow) => !i.acceptedAt && !i.declinedAt && !i.revokedAt && i.expiresAt > now(),
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
    view(team: TeamRow, userId: string) {
      const role = store.membershipOf(userId)!.role;
      const { removes, reroles, factors, ...decisions } = team.roles[role];
      const { id, name, subscription, joinDomain: join_domain } = team;
      const members = store.membersOf(team.id).map((m) => {
        const [user_id, email, joined_at] = [m.userId, emailOf(m.userId) ?? "", iso(m.joinedAt)];
        const [may_remove, mfa] = [removes.includes(m.role), factors ? hasFactor(user_id) : null];
        return { user_id, email, role: m.role, joined_at, calls_this_month: 0, may_remove, mfa };
      });
      const invites = (decisions.may.invite ? store.openInvites(team.id) : []).map((i) => {
        const [created_at, expires_at, last_sent_at] = [iso(i.createdAt), iso(i.expiresAt), iso(i.lastSentAt)];
        return { id: i.id, email: i.email, role: i.role, created_at, expires_at, last_sent_at, expired: i.expiresAt <= now() };
      });
      return {
        ...{ id, name, role, seats: store.seats(team), subscription, join_domain, seat_range: { min: 1, max: 10000 } },
        ...decisions,
        ...{ paid: subscription !== null, payment_failed: false, domain_join_offer: null, personal_subscription_overlap: false },
        personal_subscription: false,
        ...{ over_seats: false, seats_missing: 0, invites, mfa_required: Boolean(team.requireMfa), invoice_min_seats: 10 },
        members: members.map((m) => ({ ...m, may_change_role: reroles.includes(m.role) })),
        ...{ ...team.answers[role], ...team.answers[emailOf(userId) ?? ""] },
      };
    },

    create(name: string, ownerId: string): TeamRow {
      const team = { id: uuid(), name, ownerId, seats: 0, subscription: null, customerId: null, joinDomain: null };
      store.teams.set(team.id, { ...team, roles: UNPAID_TEAM, answers: {} });
      store.members.push({ teamId: team.id, userId: ownerId, role: "owner", joinedAt: now() });
      return store.teams.get(team.id)!;
    },

    /** A new invite (revoking an open one of the same address in the team); answers its raw token. */
    invite(teamId: string, email: string, role: InviteRole): string {
      const [at, token] = [now(), `inv_${uuid().replace(/-/g, "")}`];
      for (const open of store.openInvites(teamId)) if (open.email === email) open.revokedAt = at;
      const dates = {
        createdAt: at,
        expiresAt: at + INVITE_TTL_MS,
        lastSentAt: at,
        acceptedAt: null,
        declinedAt: null,
        revokedAt: null,
      };
      store.invites.push({ id: uuid(), teamId, email, role, token, ...dates });
      return token;
    },

    requestJoin(teamId: string, userId: string): JoinRequestRow {
      const open = store.joinRequests.find((r) => r.teamId === teamId && r.userId === userId && !r.decidedAt);
      const row = open ?? { id: uuid(), teamId, userId, createdAt: now(), decidedAt: null, decision: null };
      if (!open) store.joinRequests.push(row);
      return row;
    },
    openJoinRequests: (teamId: string) =>
      store.joinRequests.filter((r) => r.teamId === teamId && !r.decidedAt && !store.membershipOf(r.userId)),

    remove(teamId: string) {
      store.teams.delete(teamId);
      store.members = store.members.filter((m) => m.teamId !== teamId);
    },

    /** The team after a paid checkout: its seats, an active subscription, the paid team's decisions. */
    subscribe(team: TeamRow, seats: number, status: TeamSubscription["status"] = "active", days = 30) {
      const end = Math.floor(now() / 1000) + days * 24 * 3600;
      const period = { current_period_end: end, cancel_at_period_end: false };
      const dunning = { past_due_since: null, attempt_count: null, next_payment_attempt: null };
      const trial_end = status === "trialing" ? end : null;
      const subscription = { status, ...period, discount: null, ...dunning, trial_end, cancellation_reason: null };
      const roles = team.roles === UNPAID_TEAM ? PAID_TEAM : team.roles;
      Object.assign(team, { seats, subscription, roles, customerId: team.customerId ?? `cus_team_${team.id.slice(0, 8)}` });
    },

    /**
     * Seeds a team with members and pending invites; `seats` > 0 subscribes it (`status`, active by
     * default, with PAID_TEAM's decisions unless `roles` says otherwise). Answers the row and the tokens.
     */
    seed(input: SeedTeam, userId: (email: string) => string) {
      const team = store.create(input.name ?? "Northwind Sales", userId(input.owner));
      for (const m of input.members ?? [])
        store.members.push({ teamId: team.id, userId: userId(m.email), role: m.role ?? "member", joinedAt: now() });
      if (input.seats) store.subscribe(team, input.seats, input.status);
      const { joinDomain = null, answers = {}, roles = team.roles } = input;
      Object.assign(team, { joinDomain, answers, roles });
      return { team, tokens: (input.invites ?? []).map((i) => store.invite(team.id, i.email, i.role ?? "member")) };
    },
  };
  return store;
}

export type TeamStore = ReturnType<typeof createTeamStore>;
