//! The mock API's state: a thin state machine, not a second backend. It holds what the handlers need
//! to answer as docs/openapi.json says (users, one-time tokens, sessions and their cookie, device
//! codes, checkout sessions, the outbox, teams) and the server's decisions as fixture data each test
//! sets (`Plan.paid`/`checkout`, entitlements, `Team.may`...). No server rule is computed here: a
//! test that needs a refusal the server decides sets it (`refuse` in handlers.ts).

import type { CheckoutOffer, Entitlements, Plan, Product, Subscription, User } from "../lib/api/types";
import { createTeamStore, type TeamSnapshot, type TeamStore } from "./teamStore";

export type DbUser = {
  user: User;
  password: string;
  /** Unconfirmed sign-ups: more than one and verifying asks for a password. */ signups?: number;
};
type Device = { name: string; platform: string; createdAt: number; lastSeenAt: number };
export type Mail = { to: string; subject: string; link: string | null };
type SessionRow = ReturnType<typeof newSession>;
type DeviceCodeInput = {
  deviceName?: string;
  platform?: string;
  requestedAt?: number;
  requestedFrom?: string | null;
  sameNetwork?: boolean;
};

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

/** Fixtures of `GET /api/entitlements`: a Free Trial user who has made no call, and a subscriber. */
export const FREE: Omit<Entitlements, "entitlement_token"> = {
  plan_type: "free",
  unlimited: false,
  calls: { limit: 5, used: 0, remaining: 5 },
  max_call_seconds: 300,
  calls_this_month: 0,
  warning: null,
  source: null,
  team: null,
};
export const UNLIMITED: Omit<Entitlements, "entitlement_token"> = {
  ...FREE,
  plan_type: "monthly",
  unlimited: true,
  calls: null,
  max_call_seconds: null,
  source: "personal",
};

/** The entitlements of a seat in a paid team. */
export const VIA_TEAM: Omit<Entitlements, "entitlement_token"> = { ...UNLIMITED, source: "team" };

export const formatUserCode = (code: string) => `${code.slice(0, 4)}-${code.slice(4)}`;

let counter = 0;
const id = (prefix: string) =>
  `${prefix}_${Date.now().toString(36)}${(++counter).toString(36)}${Math.random().toString(36).slice(2, 8)}`;
const uuid = () => crypto.randomUUID();
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

/** A session as a password sign-in starts it (`passwordAt`: its re-authentication window; null for a device). */
const newSession = (userId: string, at: number, accessExpiresAt: number) => ({
  ...{ id: uuid(), userId, accessToken: id("at"), refreshToken: id("rt"), accessExpiresAt },
  ...{ revoked: false, passwordAt: at as number | null, device: undefined as Device | undefined },
});
/** A device sign-in request (RFC 8628), keyed by its user code without the dash. */
const newDeviceCode = (userCode: string, input: DeviceCodeInput, requestedAt: number, ttlMs: number) => ({
  ...{
    userCode,
    deviceName: "Ana's MacBook Pro",
    platform: "macos",
    requestedFrom: "127.0.0.1" as string | null,
    sameNetwork: true,
  },
  ...input,
  ...{
    requestedAt,
    expiresAt: requestedAt + ttlMs,
    status: "pending" as "pending" | "approved" | "denied",
    userId: null as string | null,
  },
});

const tables = () => ({
  users: new Map<string, DbUser>(),
  tokens: new Map<string, { email: string; kind: "verify" | "reset"; used: boolean; expiresAt: number }>(),
  sessions: [] as ReturnType<typeof newSession>[],
  /** Refresh tokens that were rotated away, and the session they belonged to. */
  spentRefresh: new Map<string, string>(),
  /** The server's answers per user id: the plan (with its decisions), subscription and entitlements. */
  plans: new Map<string, Plan>(),
  subscriptions: new Map<string, Subscription>(),
  entitlements: new Map<string, Omit<Entitlements, "entitlement_token">>(),
  checkoutSessions: new Map<string, { id: string; userId: string; paid: boolean }>(),
  deviceCodes: new Map<string, ReturnType<typeof newDeviceCode>>(),
  outbox: [] as Mail[],
  /** The browser's cookie jar for `cw_refresh` (httpOnly: only the "server" reads it). */
  refreshCookie: null as string | null,
});

const replacer = (_key: string, value: unknown) => (value instanceof Map ? { $map: [...value] } : value);
const reviver = (_key: string, value: unknown) =>
  value && typeof value === "object" && "$map" in value ? new Map((value as { $map: [unknown, unknown][] }).$map) : value;

export function createDb() {
  const db = {
    ...tables(),
    team: createTeamStore({
      now: (): number => db.now(),
      uuid,
      iso,
      emailOf: (userId: string): string | undefined => db.userById(userId)?.user.email,
    }),
    accessTtlSeconds: 3600,
    now: () => Date.now(),

    reset() {
      Object.assign(db, tables(), { accessTtlSeconds: 3600, now: () => Date.now() });
      db.team.reset();
    },

    findUser: (email: string): DbUser | undefined => db.users.get(email.trim().toLowerCase()),
    userById: (userId: string): DbUser | undefined => [...db.users.values()].find((row) => row.user.id === userId),

    /**
     * Seeds a user and the server's answers for them: `plan: "monthly"` is a subscriber (paid, the
     * checkout offer `current_plan`, unlimited); otherwise free (`available`). `checkout` and
     * `entitlements` override those answers.
     */
    createUser(input: {
      email: string;
      password?: string;
      verified?: boolean;
      plan?: "free" | "monthly";
      subscription?: Partial<Subscription>;
      checkout?: CheckoutOffer;
      entitlements?: Partial<Entitlements>;
    }): User {
      const email = input.email.trim().toLowerCase();
      const at = db.now();
      const user: User = {
        id: uuid(),
        email,
        email_confirmed_at: input.verified === false ? null : iso(at),
        created_at: iso(at),
      };
      const paid = input.plan === "monthly";
      db.users.set(email, { user, password: input.password ?? "secret123" });
      db.plans.set(user.id, { ...db.newPlan(user.id, paid), checkout: input.checkout ?? (paid ? "current_plan" : "available") });
      db.entitlements.set(user.id, { ...(paid ? UNLIMITED : FREE), ...input.entitlements });
      if (paid || input.subscription) db.subscribe(user.id, input.subscription);
      return user;
    },

    newPlan(userId: string, paid = false): Plan {
      const at = iso(db.now());
      const [customer, subscription] = paid ? ["cus_mock", "sub_mock"] : [null, null];
      return {
        ...{ id: uuid(), user_id: userId, plan_type: paid ? "monthly" : "free", status: "active" },
        ...{ plan_started_at: at, plan_updated_at: at, created_at: at, updated_at: at },
        ...{ stripe_customer_id: customer, stripe_subscription_id: subscription, subscription_id: subscription },
        ...{ paid, checkout: paid ? "current_plan" : "available" },
      };
    },

    /** The user's subscription as `GET /api/subscription` answers it. */
    subscribe(userId: string, subscription?: Partial<Subscription>) {
      db.subscriptions.set(userId, {
        price_id: PRODUCTS[0]!.priceId,
        subscription_status: "active",
        cancel_at_period_end: false,
        current_period_end: Math.floor(db.now() / 1000) + 30 * 24 * 3600,
        payment_method_brand: "visa",
        payment_method_last4: "4242",
        ...subscription,
      });
    },

    oneTimeToken(email: string, kind: "verify" | "reset", ttlMs = 24 * 3600 * 1000): string {
      const token = id(kind === "verify" ? "vt" : "rt");
      db.tokens.set(token, { email, kind, used: false, expiresAt: db.now() + ttlMs });
      return token;
    },

    sendMail: (to: string, subject: string, link: string | null): void => void db.outbox.push({ to, subject, link }),
    lastMailTo: (email: string): Mail | undefined => db.outbox.findLast((mail) => mail.to === email.toLowerCase()),

    /** A session as a password sign-in starts it: its re-authentication window opens now. */
    startSession(userId: string): SessionRow {
      const row = newSession(userId, db.now(), Math.floor(db.now() / 1000) + db.accessTtlSeconds);
      db.sessions.push(row);
      return row;
    },

    rotate(row: SessionRow) {
      db.spentRefresh.set(row.refreshToken, row.id);
      Object.assign(row, { refreshToken: id("rt"), accessToken: id("at") });
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
    startDeviceSession(userId: string, name: string, platform: string, at: number = db.now()): SessionRow {
      return Object.assign(db.startSession(userId), {
        passwordAt: null,
        device: { name, platform, createdAt: at, lastSeenAt: at },
      });
    },

    /** Seeds a pending device sign-in; answers its user code as shown ("WDJB-MJHT"). */
    deviceCode({ code: raw, ttlMs = 600_000, ...input }: DeviceCodeInput & { code?: string; ttlMs?: number } = {}): string {
      const code = (raw ?? id("").slice(-8)).replace(/-/g, "").toUpperCase();
      db.deviceCodes.set(code, newDeviceCode(code, input, input.requestedAt ?? db.now(), ttlMs));
      return formatUserCode(code);
    },

    endSessions(userId: string, except?: string) {
      for (const s of db.sessions) if (s.userId === userId && s.id !== except) s.revoked = true;
    },

    /** Seeds a team owned by `owner` (an existing user): see `TeamStore.seed`. */
    seedTeam(input: Parameters<TeamStore["seed"]>[0]): ReturnType<TeamStore["seed"]> {
      for (const m of input.members ?? []) if (!db.findUser(m.email)) db.createUser({ email: m.email });
      const userId = (email: string) => db.findUser(email)!.user.id;
      return db.team.seed(input, userId);
    },

    deleteUser(userId: string) {
      db.users.delete(db.userById(userId)!.user.email);
      db.team.members = db.team.members.filter((m) => m.userId !== userId);
      db.endSessions(userId);
    },

    /** A JSON snapshot, so `dev:mock` keeps its data across page loads (checkout leaves the page). */
    snapshot(): string {
      const data = Object.fromEntries(Object.keys(tables()).map((k) => [k, (db as Record<string, unknown>)[k]]));
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
