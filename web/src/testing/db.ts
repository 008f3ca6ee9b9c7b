//! An in-memory, stateful stand-in for the API's database, shared by the MSW handlers in tests and in
//! `npm run dev:mock`. It keeps just enough state to behave like docs/api.md: users, verification and
//! reset tokens, sessions with rotating refresh tokens (some of them desktop apps), device codes, call
//! usage, plans, subscriptions, checkout sessions and an outbox of sent mail.

import type { InviteRole, Plan, Product, Subscription, TeamRole, TeamSubscription, User } from "../lib/api/types";
import { isSubscribed } from "../lib/billing/rules";
import { domainJoinOffer } from "./domainJoinRules";
import { createTeamStore, type TeamSnapshot } from "./teamStore";

export interface DbUser {
  user: User;
  password: string;
  /** Sign-ups of the still unconfirmed address; more than one and verifying asks for a password. */
  signups?: number;
}

/** A user's second factors (handlers/mfa.ts): the codes are the fixtures there. */
export interface MfaRow {
  pendingSecret: string | null;
  totp: boolean;
  recoveryCodes: string[];
  passkeys: { id: string; credentialId: string; name: string; created_at: string; last_used_at: string | null }[];
  /** A team of theirs requires a factor. */
  required: boolean;
}

interface OneTimeToken {
  email: string;
  kind: "verify" | "reset";
  used: boolean;
  expiresAt: number;
}

interface SessionRow {
  id: string;
  userId: string;
  accessToken: string;
  accessExpiresAt: number;
  refreshToken: string;
  revoked: boolean;
  /** When the password was last entered on it (sign-in, reauthenticate); null: never (a device's). */
  passwordAt: number | null;
  /** Set for a desktop app's session (the web's own sessions are not devices). */
  device?: { name: string; platform: string; createdAt: number; lastSeenAt: number };
}

/** A device sign-in request (RFC 8628), keyed by its user code without the dash. */
export interface DeviceCodeRow {
  userCode: string;
  deviceName: string;
  platform: string;
  requestedAt: number;
  expiresAt: number;
  /** Where the request came from, and whether that is the approver's network (the API decides). */
  requestedFrom: string | null;
  sameNetwork: boolean;
  status: "pending" | "approved" | "denied";
  userId: string | null;
}

export interface UsageRow {
  freeCallsUsed: number;
  callsThisMonth: number;
  /** Free calls an operator granted on top of the Free Trial's. */
  grantedCalls: number;
}

/** The Free Trial's calls (spec §6). */
export const FREE_CALL_LIMIT = 5;
const USER_CODE_ALPHABET = "BCDFGHJKLMNPQRSTVWXZ";

/** The user code as the API reads it: case, dashes and spaces do not matter. */
export const normalizeUserCode = (raw: string) => raw.replace(/[\s-]/g, "").toUpperCase();
export const formatUserCode = (code: string) => `${code.slice(0, 4)}-${code.slice(4)}`;

export interface Mail {
  to: string;
  subject: string;
  link: string | null;
}

export interface CheckoutSessionRow {
  id: string;
  userId: string;
  paid: boolean;
}

export const PRODUCTS: Product[] = [
  {
    id: "prod_closewise_unlimited",
    priceId: "price_closewise_monthly",
    name: "Unlimited Sales Copilot",
    description: "Unlimited live hints, advanced AI insights, priority support and CRM integrations.",
    mode: "subscription",
    price: 20,
    currency: "usd",
    interval: "month",
  },
];

let counter = 0;
const id = (prefix: string) =>
  `${prefix}_${Date.now().toString(36)}${(++counter).toString(36)}${Math.random().toString(36).slice(2, 8)}`;
const uuid = () =>
  typeof crypto !== "undefined" && "randomUUID" in crypto
    ? crypto.randomUUID()
    : `00000000-0000-4000-8000-${(++counter).toString().padStart(12, "0")}`;
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

/** The tables: what `reset` empties and a snapshot keeps (`dev:mock` across page loads). */
const tables = () => ({
  users: new Map<string, DbUser>(),
  tokens: new Map<string, OneTimeToken>(),
  sessions: [] as SessionRow[],
  /** Refresh tokens that were rotated away, and the session they belonged to. */
  spentRefresh: new Map<string, string>(),
  plans: new Map<string, Plan>(),
  subscriptions: new Map<string, Subscription>(),
  checkoutSessions: new Map<string, CheckoutSessionRow>(),
  deviceCodes: new Map<string, DeviceCodeRow>(),
  /** When each user looked up a device code (the API's per-user budget). */
  codeLookups: new Map<string, number[]>(),
  usage: new Map<string, UsageRow>(),
  lastMailAt: new Map<string, number>(),
  /** Second factors by user id, pending sign-ins by `mfa_token`, WebAuthn challenges by id (handlers/mfa.ts). */
  mfa: new Map<string, MfaRow>(),
  mfaTokens: new Map<string, { userId: string; used: boolean }>(),
  passkeyChallenges: new Map<string, { purpose: "register" | "sign-in"; userId: string | null; name?: string }>(),
  outbox: [] as Mail[],
  /** The browser's cookie jar for `cw_refresh` (httpOnly: only the "server" reads it). */
  refreshCookie: null as string | null,
});

/** JSON keeps Maps as `{"$map": entries}`. */
const replacer = (_key: string, value: unknown) => (value instanceof Map ? { $map: [...value] } : value);
const reviver = (_key: string, value: unknown) =>
  value && typeof value === "object" && "$map" in value ? new Map((value as { $map: [unknown, unknown][] }).$map) : value;

export function createDb() {
  const db = {
    ...tables(),
    /** Teams, memberships and invitations (docs/teams.md). */
    team: createTeamStore({
      now: (): number => db.now(),
      uuid,
      iso,
      emailOf: (userId: string): string | undefined => db.userById(userId)?.user.email,
      callsThisMonth: (userId: string): number => db.usage.get(userId)?.callsThisMonth ?? 0,
      personalPaid: (userId: string): boolean => isSubscribed(db.subscriptions.get(userId)),
      domainJoinOffer: (userId: string): string | null => {
        const user = db.userById(userId)?.user;
        return user ? domainJoinOffer(user.email, Boolean(user.email_confirmed_at)) : null;
      },
    }),
    accessTtlSeconds: 3600,
    now: () => Date.now(),

    reset() {
      Object.assign(db, tables());
      db.team.reset();
      db.accessTtlSeconds = 3600;
      db.now = () => Date.now();
    },

    findUser(email: string): DbUser | undefined {
      return db.users.get(email.trim().toLowerCase());
    },

    userById(userId: string): DbUser | undefined {
      for (const row of db.users.values()) if (row.user.id === userId) return row;
      return undefined;
    },

    /** Seeds a user; `verified` defaults to true, `plan` to free. */
    createUser(input: {
      email: string;
      password?: string;
      verified?: boolean;
      plan?: "free" | "monthly";
      subscription?: Partial<Subscription>;
    }) {
      const email = input.email.trim().toLowerCase();
      const at = db.now();
      const user: User = {
        id: uuid(),
        email,
        email_confirmed_at: input.verified === false ? null : iso(at),
        created_at: iso(at),
      };
      db.users.set(email, { user, password: input.password ?? "secret123" });
      db.plans.set(user.id, db.newPlan(user.id, input.plan ?? "free"));
      if (input.plan === "monthly" || input.subscription) {
        db.subscriptions.set(user.id, {
          price_id: PRODUCTS[0]!.priceId,
          subscription_status: "active",
          cancel_at_period_end: false,
          current_period_end: Math.floor(at / 1000) + 30 * 24 * 3600,
          payment_method_brand: "visa",
          payment_method_last4: "4242",
          ...input.subscription,
        });
        const plan = db.plans.get(user.id)!;
        // The seeded subscription as the server would count it: the row's `paid` is data from here on.
        plan.paid = input.plan === "monthly" || isSubscribed(db.subscriptions.get(user.id));
        plan.stripe_customer_id = "cus_mock";
        plan.stripe_subscription_id = plan.subscription_id = "sub_mock";
      }
      return user;
    },

    newPlan(userId: string, planType: "free" | "monthly"): Plan {
      const at = iso(db.now());
      return {
        id: uuid(),
        user_id: userId,
        plan_type: planType,
        status: "active",
        plan_started_at: at,
        plan_updated_at: at,
        created_at: at,
        updated_at: at,
        stripe_subscription_id: null,
        stripe_customer_id: null,
        subscription_id: null,
        // The decisions as data: the GET handler answers `checkout` for the caller's state.
        paid: planType === "monthly",
        checkout: "available",
      };
    },

    oneTimeToken(email: string, kind: "verify" | "reset", ttlMs = 24 * 3600 * 1000): string {
      const token = id(kind === "verify" ? "vt" : "rt");
      db.tokens.set(token, { email, kind, used: false, expiresAt: db.now() + ttlMs });
      return token;
    },

    sendMail(to: string, subject: string, link: string | null) {
      db.outbox.push({ to, subject, link });
      db.lastMailAt.set(to, db.now());
    },

    /** Seconds to wait before another mail to this address, or 0. */
    mailCooldown(email: string): number {
      const last = db.lastMailAt.get(email);
      if (last === undefined) return 0;
      const left = 60_000 - (db.now() - last);
      return left > 0 ? Math.ceil(left / 1000) : 0;
    },

    lastMailTo(email: string): Mail | undefined {
      return [...db.outbox].reverse().find((mail) => mail.to === email.toLowerCase());
    },

    /** A session as a password sign-in starts it: its re-authentication window opens now. */
    startSession(userId: string): SessionRow {
      const row: SessionRow = {
        id: uuid(),
        userId,
        accessToken: id("at"),
        accessExpiresAt: Math.floor(db.now() / 1000) + db.accessTtlSeconds,
        refreshToken: id("rt"),
        revoked: false,
        passwordAt: db.now(),
      };
      db.sessions.push(row);
      return row;
    },

    rotate(row: SessionRow) {
      db.spentRefresh.set(row.refreshToken, row.id);
      row.refreshToken = id("rt");
      row.accessToken = id("at");
      row.accessExpiresAt = Math.floor(db.now() / 1000) + db.accessTtlSeconds;
    },

    sessionByAccess(token: string): SessionRow | undefined {
      const row = db.sessions.find((s) => s.accessToken === token && !s.revoked);
      return row && row.accessExpiresAt * 1000 > db.now() ? row : undefined;
    },

    /** Seeds a signed-in browser: a session whose refresh token sits in the cookie jar. */
    signInBrowser(email: string): SessionRow {
      const row = db.startSession(db.findUser(email)!.user.id);
      db.refreshCookie = row.refreshToken;
      return row;
    },

    /** Seeds a signed-in desktop app (a session with a device name and platform). */
    startDeviceSession(userId: string, name: string, platform: string, at?: number): SessionRow {
      const row = db.startSession(userId);
      row.passwordAt = null;
      at ??= db.now();
      row.device = { name, platform, createdAt: at, lastSeenAt: at };
      return row;
    },

    /** Seeds a pending device sign-in; answers its user code as shown ("WDJB-MJHT"). */
    deviceCode(
      input: {
        deviceName?: string;
        platform?: string;
        code?: string;
        requestedAt?: number;
        ttlMs?: number;
        requestedFrom?: string | null;
        sameNetwork?: boolean;
      } = {},
    ): string {
      const code = input.code
        ? normalizeUserCode(input.code)
        : Array.from({ length: 8 }, () => USER_CODE_ALPHABET[Math.floor(Math.random() * USER_CODE_ALPHABET.length)]).join("");
      const requestedAt = input.requestedAt ?? db.now();
      db.deviceCodes.set(code, {
        userCode: code,
        deviceName: input.deviceName ?? "Ana's MacBook Pro",
        platform: input.platform ?? "macos",
        requestedAt,
        expiresAt: requestedAt + (input.ttlMs ?? 600_000),
        requestedFrom: input.requestedFrom === undefined ? "127.0.0.1" : input.requestedFrom,
        sameNetwork: input.sameNetwork ?? true,
        status: "pending",
        userId: null,
      });
      return formatUserCode(code);
    },

    usageOf(userId: string): UsageRow {
      let row = db.usage.get(userId);
      if (!row) db.usage.set(userId, (row = { freeCallsUsed: 0, callsThisMonth: 0, grantedCalls: 0 }));
      return row;
    },

    endSessions(userId: string, except?: string) {
      for (const s of db.sessions) if (s.userId === userId && s.id !== except) s.revoked = true;
    },

    /**
     * Seeds a team owned by `owner` (an existing user's e-mail) with members (created if missing) and
     * pending invites; `seats` > 0 subscribes it. Answers the team row and each invite's raw token.
     */
    seedTeam(input: {
      name?: string;
      owner: string;
      seats?: number;
      status?: TeamSubscription["status"];
      members?: { email: string; role?: InviteRole }[];
      invites?: { email: string; role?: InviteRole }[];
      /** Domain join on for this domain. */
      joinDomain?: string;
    }) {
      const owner = db.findUser(input.owner)!.user;
      const team = db.team.create(input.name ?? "Northwind Sales", owner.id);
      for (const m of input.members ?? []) {
        const user = db.findUser(m.email)?.user ?? db.createUser({ email: m.email });
        const role: TeamRole = m.role ?? "member";
        db.team.members.push({ teamId: team.id, userId: user.id, role, joinedAt: db.now() });
      }
      if (input.seats) db.team.subscribe(team, input.seats, input.status);
      if (input.joinDomain) team.joinDomain = input.joinDomain;
      const tokens = (input.invites ?? []).map((i) => db.team.invite(team.id, i.email, i.role ?? "member"));
      return { team, tokens };
    },

    deleteUser(userId: string) {
      const row = db.userById(userId);
      if (row) db.users.delete(row.user.email);
      db.plans.delete(userId);
      db.subscriptions.delete(userId);
      db.usage.delete(userId);
      db.team.members = db.team.members.filter((m) => m.userId !== userId);
      db.team.joinRequests = db.team.joinRequests.filter((r) => r.userId !== userId);
      db.endSessions(userId);
    },

    /** A JSON snapshot, so `dev:mock` keeps its data across page loads (checkout leaves the page). */
    snapshot(): string {
      const data = Object.fromEntries(Object.keys(tables()).map((key) => [key, db[key as keyof ReturnType<typeof tables>]]));
      return JSON.stringify({ ...data, team: db.team.snapshot() }, replacer);
    },

    restore(json: string) {
      const { team, ...data } = JSON.parse(json, reviver) as Partial<ReturnType<typeof tables>> & { team?: TeamSnapshot };
      Object.assign(db, tables(), data);
      db.team.restore(team);
    },

    iso,
    id,
  };
  return db;
}

export type Db = ReturnType<typeof createDb>;

export const db = createDb();
