//! The mock API's state: a thin state machine, not a second backend. It holds what the handlers need
//! to answer as docs/openapi.json says (users, one-time tokens, sessions and their cookie, device
//! codes, checkout sessions, the outbox, teams) and the server's decisions as fixture data each test
//! sets (`Plan.paid`/`checkout`, entitlements, `Team.may`...). No server rule is computed here: a
//! test that needs a refusal the server decides sets it (`refuse` in handlers.ts).

import type { CheckoutOffer, Entitlements, Plan, Subscription, TeamPolicy, User } from "../lib/api/types";
import { CATALOGUE_SNAPSHOT } from "../lib/billing/rules";
import { createTeamStore, teamTables, type TeamStore } from "./teamStore";
import { mfaTables } from "./mfaState";

/** `signups`: unconfirmed sign-ups of the address; more than one and verifying asks for a password. */
export type DbUser = { user: User; password: string; signups?: number };
export type Mail = { to: string; subject: string; link: string | null };
type SessionRow = ReturnType<typeof newSession>;
type Device = { deviceName: string; platform: string; requestedFrom: string | null; sameNetwork: boolean };
type DeviceCodeInput = Partial<Device> & { requestedAt?: number };
type Answer = Omit<Entitlements, "entitlement_token">;
type NewUser = { email: string; password?: string; verified?: boolean; plan?: "free" | "monthly"; checkout?: CheckoutOffer } & {
  subscription?: Partial<Subscription>;
  entitlements?: Partial<Entitlements>;
};

export const PRODUCTS = CATALOGUE_SNAPSHOT.products;

/** Fixtures of `GET /api/entitlements`: a Free Trial user who has made no call, a subscriber, a seat in a paid team. */
const calls = { limit: 5, used: 0, remaining: 5 };
const trial = { plan_type: "free" as const, unlimited: false, calls, max_call_seconds: 300, calls_this_month: 0, warning: null };
export const DEFAULT_POLICY: TeamPolicy = {
  ...{ consent_notice: { mode: "off", text: "", regions: {} }, allowed_apps: ["zoom", "meet", "teams", "phone"] },
  ...{
    hint_categories: { objections: true, replies: true, follow_ups: true },
    retention_days: 30,
    require_mfa: false,
    require_sso: false,
  },
};
export const FREE: Answer = { ...trial, source: null, team: null, policy: DEFAULT_POLICY, policy_version: "0".repeat(64) };
const unlimited = { plan_type: "monthly" as const, unlimited: true, calls: null, max_call_seconds: null };
export const UNLIMITED: Answer = { ...FREE, ...unlimited, source: "personal" };
export const VIA_TEAM: Answer = { ...UNLIMITED, source: "team" };

export const formatUserCode = (code: string) => `${code.slice(0, 4)}-${code.slice(4)}`;

let counter = 0;
const id = (prefix: string) => `${prefix}_${(++counter).toString(36)}${Math.random().toString(36).slice(2, 10)}`;
const uuid = () => crypto.randomUUID();
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

/** A session as a password sign-in starts it (`passwordAt`: its re-authentication window; null for a device). */
const newSession = (userId: string, at: number, accessExpiresAt: number) => ({
  ...{ id: uuid(), userId, accessToken: id("at"), refreshToken: id("rt"), accessExpiresAt, revoked: false },
  ...{ passwordAt: at as number | null, device: undefined as { name: string; platform: string; createdAt: number } | undefined },
});
/** A device sign-in request (RFC 8628), keyed by its user code without the dash. */
const DEVICE: Device = { deviceName: "Ana's MacBook Pro", platform: "macos", requestedFrom: "127.0.0.1", sameNetwork: true };
const newDeviceCode = (userCode: string, input: DeviceCodeInput, requestedAt: number, ttlMs: number) => ({
  ...{ ...DEVICE, ...input, userCode, requestedAt, expiresAt: requestedAt + ttlMs, userId: null as string | null },
  status: "pending" as "pending" | "approved" | "denied",
});

const tables = () => ({
  users: new Map<string, DbUser>(),
  tokens: new Map<string, { email: string; kind: "verify" | "reset"; used: boolean; expiresAt: number }>(),
  sessions: [] as SessionRow[],
  /** The server's answers per user id: the plan (with its decisions), subscription and entitlements. */
  plans: new Map<string, Plan>(),
  subscriptions: new Map<string, Subscription>(),
  entitlements: new Map<string, Answer>(),
  checkoutSessions: new Map<string, { id: string; userId: string; paid: boolean }>(),
  promotionCodes: ["LAUNCH20"],
  deviceCodes: new Map<string, ReturnType<typeof newDeviceCode>>(),
  ...mfaTables(),
  outbox: [] as Mail[],
  /** The browser's cookie jar for `cw_refresh` (httpOnly: only the "server" reads it). */
  refreshCookie: null as string | null,
});

/** JSON keeps Maps as `{"$map": entries}` (`dev:mock` keeps the state across page loads). */
const replacer = (_key: string, value: unknown) => (value instanceof Map ? { $map: [...value] } : value);
const reviver = (_key: string, value: unknown) =>
  value && typeof value === "object" && "$map" in value ? new Map((value as { $map: [unknown, unknown][] }).$map) : value;

export function createDb() {
  const emailOf = (userId: string): string | undefined => db.userById(userId)?.user.email;
  const hasFactor = (userId: string): boolean => Boolean(db.mfa.get(userId)?.totp || db.mfa.get(userId)?.passkeys.length);
  const deps = { uuid, iso, emailOf: (u: string): string | undefined => emailOf(u), hasFactor };
  const db = {
    ...tables(),
    team: createTeamStore({ now: (): number => db.now(), ...deps }),
    accessTtlSeconds: 3600,
    now: () => Date.now(),
    reset: (): void => void Object.assign(db, tables(), { accessTtlSeconds: 3600, now: () => Date.now() }, db.team.reset()),
    findUser: (email: string): DbUser | undefined => db.users.get(email.trim().toLowerCase()),
    userById: (userId: string): DbUser | undefined => [...db.users.values()].find((row) => row.user.id === userId),

    /**
     * Seeds a user and the server's answers for them: `plan: "monthly"` is a subscriber (paid, the
     * checkout offer `current_plan`, unlimited); otherwise free (`available`). `checkout` and
     * `entitlements` override those answers.
     */
    createUser(input: NewUser): User {
      const [email, at, paid] = [input.email.trim().toLowerCase(), iso(db.now()), input.plan === "monthly"];
      const user: User = { id: uuid(), email, email_confirmed_at: input.verified === false ? null : at, created_at: at };
      db.users.set(email, { user, password: input.password ?? "secret123" });
      db.plans.set(user.id, { ...db.newPlan(user.id, paid), checkout: input.checkout ?? (paid ? "current_plan" : "available") });
      db.entitlements.set(user.id, { ...(paid ? UNLIMITED : FREE), ...input.entitlements });
      if (paid || input.subscription) db.subscribe(user.id, input.subscription);
      return user;
    },

    newPlan(user_id: string, paid = false): Plan {
      const at = iso(db.now());
      const [stripe_customer_id, subscription_id] = paid ? ["cus_mock", "sub_mock"] : [null, null];
      const dates = { plan_started_at: at, plan_updated_at: at, created_at: at, updated_at: at };
      const stripe = { stripe_customer_id, stripe_subscription_id: subscription_id, subscription_id };
      const plan = { id: uuid(), user_id, plan_type: paid ? ("monthly" as const) : ("free" as const), status: "active" as const };
      return { ...plan, ...dates, ...stripe, paid, checkout: "available" };
    },

    /** The user's subscription as `GET /api/subscription` answers it. */
    subscribe(userId: string, subscription?: Partial<Subscription>) {
      const period = { cancel_at_period_end: false, current_period_end: Math.floor(db.now() / 1000) + 30 * 24 * 3600 };
      const card = { payment_method_brand: "visa", payment_method_last4: "4242" };
      const paid = {
        price_id: PRODUCTS[0]!.priceId,
        interval: "month" as const,
        subscription_status: "active" as const,
        discount: null,
        past_due_since: null,
        attempt_count: null,
        next_payment_attempt: null,
        cancellation_reason: null,
        ...period,
        ...card,
      };
      db.subscriptions.set(userId, { ...paid, ...subscription });
    },

    oneTimeToken(email: string, kind: "verify" | "reset", ttlMs = 24 * 3600 * 1000): string {
      const token = id(kind === "verify" ? "vt" : "rt");
      db.tokens.set(token, { email, kind, used: false, expiresAt: db.now() + ttlMs });
      return token;
    },

    sendMail: (to: string, subject: string, link: string | null): void => void db.outbox.push({ to, subject, link }),
    lastMailTo: (email: string): Mail | undefined => db.outbox.findLast((mail) => mail.to === email.toLowerCase()),

    startSession(userId: string): SessionRow {
      const row = newSession(userId, db.now(), Math.floor(db.now() / 1000) + db.accessTtlSeconds);
      db.sessions.push(row);
      return row;
    },
    rotate(row: SessionRow): SessionRow {
      const accessExpiresAt = Math.floor(db.now() / 1000) + db.accessTtlSeconds;
      return Object.assign(row, { refreshToken: id("rt"), accessToken: id("at"), accessExpiresAt });
    },
    sessionByAccess(token: string): SessionRow | undefined {
      const row = db.sessions.find((s) => s.accessToken === token && !s.revoked);
      return row && row.accessExpiresAt * 1000 > db.now() ? row : undefined;
    },
    endSessions(userId: string, except?: string) {
      for (const s of db.sessions) if (s.userId === userId && s.id !== except) s.revoked = true;
    },
    /** Seeds a signed-in browser: a session whose refresh token sits in the cookie jar. */
    signInBrowser(email: string): SessionRow {
      const row = db.startSession(db.findUser(email)!.user.id);
      db.refreshCookie = row.refreshToken;
      return row;
    },
    /** Seeds a signed-in desktop app (a session with a device name and platform). */
    startDeviceSession(userId: string, name: string, platform: string, at: number = db.now()): SessionRow {
      return Object.assign(db.startSession(userId), { passwordAt: null, device: { name, platform, createdAt: at } });
    },

    /** Seeds a pending device sign-in; answers its user code as shown ("WDJB-MJHT"). */
    deviceCode({ code, ttlMs = 600_000, ...input }: DeviceCodeInput & { code?: string; ttlMs?: number } = {}) {
      const userCode = (code ?? id("").slice(-8)).replace(/-/g, "").toUpperCase();
      db.deviceCodes.set(userCode, newDeviceCode(userCode, input, input.requestedAt ?? db.now(), ttlMs));
      return formatUserCode(userCode);
    },

    /** Seeds a team owned by `owner` (an existing user), its members created when missing: see `TeamStore.seed`. */
    seedTeam(input: Parameters<TeamStore["seed"]>[0]): ReturnType<TeamStore["seed"]> {
      for (const m of input.members ?? []) if (!db.findUser(m.email)) db.createUser({ email: m.email });
      return db.team.seed(input, (email) => db.findUser(email)!.user.id);
    },

    deleteUser(userId: string) {
      db.users.delete(db.userById(userId)!.user.email);
      db.team.members = db.team.members.filter((m) => m.userId !== userId);
      db.endSessions(userId);
    },

    snapshot(): string {
      const pick = (from: object, keys: object) =>
        Object.fromEntries(Object.keys(keys).map((k) => [k, (from as Record<string, unknown>)[k]]));
      return JSON.stringify({ ...pick(db, tables()), team: pick(db.team, teamTables()) }, replacer);
    },
    restore(json: string) {
      const { team, ...data } = JSON.parse(json, reviver) as Partial<ReturnType<typeof tables>> & { team?: object };
      Object.assign(db, tables(), data);
      Object.assign(db.team, teamTables(), team);
    },

    iso,
    id,
  };
  return db;
}

export type Db = ReturnType<typeof createDb>;

export const db = createDb();
