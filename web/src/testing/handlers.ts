//! MSW handlers that follow docs/api.md, backed by the in-memory db. Used by Vitest and by
//! `npm run dev:mock`. `routes` is the list the drift test checks against docs/openapi.json.

import { http, HttpResponse, type HttpResponseResolver } from "msw";
import type { Device, Entitlements, Session } from "../lib/api/types";
import { isSubscribed } from "../lib/billing/rules";
import { safeRedirect } from "../lib/redirect";
import { db, FREE_CALL_LIMIT, formatUserCode, normalizeUserCode, PRODUCTS } from "./db";

type Method = "get" | "post" | "delete";

export interface MockRoute {
  method: Method;
  /** OpenAPI path. */
  path: string;
  resolver: HttpResponseResolver;
}

export function apiError(status: number, code: string, message: string, headers?: Record<string, string>) {
  return HttpResponse.json({ error: { code, message } }, { status, headers });
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const COMMON_PASSWORDS = new Set(["password", "123456", "12345678", "qwerty", "111111", "abc123", "password1"]);
const COOKIE = "cw_refresh";

function weakPassword(password: string) {
  if (password.length < 6) return apiError(422, "weak_password", "Password must be at least 6 characters");
  if (password.length > 128) return apiError(422, "weak_password", "Password must be at most 128 characters");
  if (COMMON_PASSWORDS.has(password.toLowerCase()))
    return apiError(422, "weak_password", "This password is too common. Please choose another one");
  return null;
}

async function jsonBody(request: Request): Promise<Record<string, unknown> | null> {
  try {
    const body: unknown = await request.json();
    return body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const invalidJson = (detail: string) => apiError(400, "invalid_json", detail);

function stringField(body: Record<string, unknown>, name: string): string | null {
  const value = body[name];
  return typeof value === "string" ? value : null;
}

/** The caller's session from the bearer token, or the contract's 401. */
function authenticate(request: Request) {
  const header = request.headers.get("Authorization");
  if (!header) return { error: apiError(401, "not_signed_in", "Please sign in to continue") } as const;
  const session = db.sessionByAccess(header.replace(/^Bearer\s+/i, ""));
  const row = session && db.userById(session.userId);
  if (!session || !row)
    return { error: apiError(401, "invalid_token", "Authentication required. Please sign in again.") } as const;
  return { session, row } as const;
}

function sessionResponse(sessionId: string) {
  const row = db.sessions.find((s) => s.id === sessionId)!;
  const user = db.userById(row.userId)!.user;
  const body: Session = {
    access_token: row.accessToken,
    token_type: "bearer",
    expires_in: db.accessTtlSeconds,
    expires_at: row.accessExpiresAt,
    // The browser's refresh token travels only as the httpOnly cookie (docs/api.md "Session").
    user,
  };
  db.refreshCookie = row.refreshToken;
  return HttpResponse.json(body, {
    headers: { "Set-Cookie": `${COOKIE}=${row.refreshToken}; Path=/api/auth; HttpOnly; SameSite=Strict; Max-Age=2592000` },
  });
}

function clearCookieHeaders() {
  db.refreshCookie = null;
  return { "Set-Cookie": `${COOKIE}=; Path=/api/auth; HttpOnly; SameSite=Strict; Max-Age=0` };
}

function rateLimited(email: string) {
  const wait = db.mailCooldown(email);
  return wait > 0
    ? apiError(429, "over_email_send_rate_limit", `For security purposes, you can only request this after ${wait} seconds.`, {
        "Retry-After": String(wait),
      })
    : null;
}

function origin(request: Request) {
  return new URL(request.url).origin;
}

/** The verification link, carrying `next` when it is a same-origin path (the API drops any other). */
function verifyLink(request: Request, email: string, body: Record<string, unknown> | null) {
  const link = `${origin(request)}/verify?token=${db.oneTimeToken(email, "verify")}`;
  const next = body && typeof body.next === "string" ? body.next : "";
  const safe = next !== "" && safeRedirect(next, "") === next;
  return safe ? `${link}&next=${encodeURIComponent(next)}` : link;
}

// --- The desktop app (docs/api.md "The desktop app") ---------------------------------------------

const CLIENT_ID = "closewise-desktop";
const LOOPBACK = /^http:\/\/(?:127\.0\.0\.1|\[::1\]):(\d{1,5})\/callback$/;

/** `GET`/`POST /api/auth/authorize`'s checks, in the API's order: the client, the redirect URI, the rest. */
function checkAuthorizeRequest(params: Record<string, unknown>) {
  const text = (name: string) => (typeof params[name] === "string" ? params[name] : null);
  if (text("client_id") !== CLIENT_ID) return apiError(400, "invalid_client", "This sign-in link is not from the Closewise app.");
  const port = LOOPBACK.exec(text("redirect_uri") ?? "")?.[1];
  if (!port || Number(port) < 1 || Number(port) > 65535)
    return apiError(
      400,
      "invalid_redirect_uri",
      "This sign-in link cannot send you back to the app. Start the sign-in again from the app.",
    );
  const invalid = (message: string) => apiError(400, "invalid_request", message);
  if (text("response_type") !== "code") return invalid("response_type must be code");
  if (!/^[A-Za-z0-9_-]{43}$/.test(text("code_challenge") ?? "")) return invalid("code_challenge must be 43 base64url characters");
  if (text("code_challenge_method") !== "S256") return invalid("code_challenge_method must be S256");
  const state = text("state") ?? "";
  if (state.length < 1 || state.length > 512) return invalid("state is required (1 to 512 characters)");
  return null;
}

const emailNotConfirmed = () =>
  apiError(403, "email_not_confirmed", "Please verify your email address before signing in to the app.");

const CODE_LOOKUPS_PER_USER = 10;
const CODE_LOOKUP_WINDOW_MS = 10 * 60_000;

/** Every lookup counts against the user's budget, right or wrong. */
function lookupBudgetSpent(userId: string) {
  const now = db.now();
  const recent = (db.codeLookups.get(userId) ?? []).filter((at) => now - at < CODE_LOOKUP_WINDOW_MS);
  if (recent.length >= CODE_LOOKUPS_PER_USER) {
    const wait = Math.ceil((recent[0]! + CODE_LOOKUP_WINDOW_MS - now) / 1000);
    return apiError(429, "rate_limited", `Too many requests. Please try again in ${wait} seconds.`, {
      "Retry-After": String(wait),
    });
  }
  db.codeLookups.set(userId, [...recent, now]);
  return null;
}

/** The pending device request behind `user_code` for a verified caller, or the contract's error. */
async function pendingDeviceCode(request: Request, countLookup: boolean) {
  const auth = authenticate(request);
  if ("error" in auth) return { error: auth.error } as const;
  const body = await jsonBody(request);
  const raw = body && stringField(body, "user_code");
  if (raw === null) return { error: invalidJson("Expected a JSON body with user_code") } as const;
  if (!auth.row.user.email_confirmed_at) return { error: emailNotConfirmed() } as const;
  const limited = countLookup ? lookupBudgetSpent(auth.row.user.id) : null;
  if (limited) return { error: limited } as const;
  const row = db.deviceCodes.get(normalizeUserCode(raw));
  if (!row)
    return {
      error: apiError(404, "invalid_user_code", "That code is not valid. Check the code shown in the app and try again."),
    } as const;
  if (row.expiresAt < db.now())
    return { error: apiError(400, "expired_user_code", "That code has expired. Start the sign-in again in the app.") } as const;
  if (row.status !== "pending") return { error: apiError(409, "user_code_used", "That code has already been used.") } as const;
  return { auth, row } as const;
}

const base64url = (value: string) => btoa(value).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

/** Shaped like the API's EdDSA entitlement token; the signature is not real (nothing here verifies it). */
function entitlementToken(userId: string, claims: Record<string, unknown>) {
  const iat = Math.floor(db.now() / 1000);
  const header = base64url(JSON.stringify({ alg: "EdDSA", typ: "entitlement+jwt", kid: "mock" }));
  const payload = base64url(
    JSON.stringify({ iss: "http://localhost", aud: CLIENT_ID, sub: userId, ...claims, iat, valid_until: iat + 86_400 }),
  );
  return `${header}.${payload}.bW9jaw`;
}

function entitlementsOf(userId: string): Entitlements {
  const plan = db.plans.get(userId);
  const sub = db.subscriptions.get(userId);
  const status = sub?.subscription_status;
  // The domain counts a past-due subscription as paid: the app warns, it does not lock.
  const paid = plan?.plan_type === "monthly" && (isSubscribed(sub) || status === "past_due");
  const usage = db.usageOf(userId);
  const limit = FREE_CALL_LIMIT + usage.grantedCalls;
  const calls = paid ? null : { limit, used: usage.freeCallsUsed, remaining: Math.max(0, limit - usage.freeCallsUsed) };
  return {
    plan_type: paid ? "monthly" : "free",
    unlimited: paid,
    calls,
    max_call_seconds: paid ? null : 300,
    calls_this_month: usage.callsThisMonth,
    warning: plan?.plan_type === "monthly" && (status === "past_due" || status === "unpaid") ? "payment_failed" : null,
    entitlement_token: entitlementToken(userId, { plan_type: paid ? "monthly" : "free", unlimited: paid }),
  };
}

const desktopRoutes: MockRoute[] = [
  {
    method: "get",
    path: "/api/auth/authorize",
    resolver: ({ request }) => {
      const params = Object.fromEntries(new URL(request.url).searchParams);
      const problem = checkAuthorizeRequest(params);
      if (problem) return problem;
      return HttpResponse.json({
        client_id: CLIENT_ID,
        client_name: "Closewise for desktop",
        redirect_uri: params.redirect_uri,
        device_name: params.device_name ?? null,
        platform: params.platform ?? null,
      });
    },
  },
  {
    method: "post",
    path: "/api/auth/authorize",
    resolver: async ({ request }) => {
      const auth = authenticate(request);
      if ("error" in auth) return auth.error;
      const body = await jsonBody(request);
      if (!body) return invalidJson("Expected a JSON body with the authorization request and decision");
      const problem = checkAuthorizeRequest(body);
      if (problem) return problem;
      if (!auth.row.user.email_confirmed_at) return emailNotConfirmed();
      const decision = stringField(body, "decision");
      if (decision !== "allow" && decision !== "deny") return invalidJson("decision must be allow or deny");
      const redirectUri = stringField(body, "redirect_uri")!;
      const state = encodeURIComponent(stringField(body, "state")!);
      if (decision === "deny") return HttpResponse.json({ redirect_to: `${redirectUri}?error=access_denied&state=${state}` });
      // The app exchanges the code at once; the mock starts its session here so the devices list shows it.
      db.startDeviceSession(
        auth.row.user.id,
        stringField(body, "device_name") ?? "Desktop app",
        stringField(body, "platform") ?? "unknown",
      );
      return HttpResponse.json({ redirect_to: `${redirectUri}?code=${db.id("code")}&state=${state}` });
    },
  },
  {
    method: "post",
    path: "/api/auth/device/lookup",
    resolver: async ({ request }) => {
      const found = await pendingDeviceCode(request, true);
      if ("error" in found) return found.error;
      const { row } = found;
      return HttpResponse.json({
        user_code: formatUserCode(row.userCode),
        device_name: row.deviceName,
        platform: row.platform,
        requested_at: db.iso(row.requestedAt),
        expires_at: db.iso(row.expiresAt),
        status: "pending",
      });
    },
  },
  {
    method: "post",
    path: "/api/auth/device/approve",
    resolver: async ({ request }) => {
      const found = await pendingDeviceCode(request, false);
      if ("error" in found) return found.error;
      const { row, auth } = found;
      row.status = "approved";
      row.userId = auth.row.user.id;
      // The device's next poll gets its session; the mock starts it here so the devices list shows it.
      db.startDeviceSession(auth.row.user.id, row.deviceName, row.platform);
      return HttpResponse.json({ status: "approved" });
    },
  },
  {
    method: "post",
    path: "/api/auth/device/deny",
    resolver: async ({ request }) => {
      const found = await pendingDeviceCode(request, false);
      if ("error" in found) return found.error;
      found.row.status = "denied";
      return HttpResponse.json({ status: "denied" });
    },
  },
  {
    method: "get",
    path: "/api/auth/devices",
    resolver: ({ request }) => {
      const auth = authenticate(request);
      if ("error" in auth) return auth.error;
      const devices: Device[] = db.sessions
        .filter((s) => s.userId === auth.row.user.id && s.device && !s.revoked)
        .sort((a, b) => b.device!.createdAt - a.device!.createdAt)
        .map((s) => ({
          id: s.id,
          name: s.device!.name,
          platform: s.device!.platform,
          created_at: db.iso(s.device!.createdAt),
          last_seen_at: db.iso(s.device!.lastSeenAt),
          current: s.id === auth.session.id,
        }));
      return HttpResponse.json({ devices });
    },
  },
  {
    method: "delete",
    path: "/api/auth/devices/{id}",
    resolver: ({ request, params }) => {
      const auth = authenticate(request);
      if ("error" in auth) return auth.error;
      const row = db.sessions.find((s) => s.id === params.id && s.userId === auth.row.user.id && s.device && !s.revoked);
      if (!row) return apiError(404, "device_not_found", "That device is not signed in.");
      row.revoked = true;
      return new HttpResponse(null, { status: 204 });
    },
  },
  {
    method: "get",
    path: "/api/entitlements",
    resolver: ({ request }) => {
      const auth = authenticate(request);
      if ("error" in auth) return auth.error;
      return HttpResponse.json(entitlementsOf(auth.row.user.id));
    },
  },
];

const accountRoutes: MockRoute[] = [
  {
    method: "post",
    path: "/api/auth/signup",
    resolver: async ({ request }) => {
      const body = await jsonBody(request);
      const rawEmail = body && stringField(body, "email");
      const password = body && stringField(body, "password");
      if (rawEmail === null || password === null) return invalidJson("Expected a JSON body with email and password");
      const email = rawEmail.trim().toLowerCase();
      if (!EMAIL.test(email)) return apiError(422, "invalid_email", "Please enter a valid email address");
      const weak = weakPassword(password);
      if (weak) return weak;
      const existing = db.findUser(email);
      if (!existing) {
        const user = db.createUser({ email, password, verified: false });
        db.sendMail(email, "Confirm your email", verifyLink(request, user.email, body));
      } else if (!existing.user.email_confirmed_at) {
        db.sendMail(email, "Confirm your email", verifyLink(request, email, body));
      } else {
        db.sendMail(email, "You already have an account", `${origin(request)}/signin`);
      }
      return HttpResponse.json({ email });
    },
  },
  {
    method: "post",
    path: "/api/auth/verify",
    resolver: async ({ request }) => {
      const body = await jsonBody(request);
      const token = body && stringField(body, "token");
      if (token === null) return invalidJson("Expected a JSON body with token");
      const row = db.tokens.get(token);
      if (!row || row.kind !== "verify") return apiError(400, "token_invalid", "This verification link is invalid.");
      if (row.used) return apiError(400, "token_used", "This verification link has already been used.");
      if (row.expiresAt < db.now())
        return apiError(400, "token_expired", "This verification link has expired. Request a new one.");
      row.used = true;
      const user = db.findUser(row.email)!.user;
      user.email_confirmed_at ??= db.iso(db.now());
      return HttpResponse.json({ user });
    },
  },
  {
    method: "post",
    path: "/api/auth/resend",
    resolver: async ({ request }) => {
      const body = await jsonBody(request);
      const rawEmail = body && stringField(body, "email");
      const type = body && stringField(body, "type");
      if (rawEmail === null || type === null) return invalidJson("Expected a JSON body with email and type");
      if (type !== "signup") return apiError(422, "invalid_type", "Only type signup can be resent");
      const email = rawEmail.trim().toLowerCase();
      const limited = rateLimited(email);
      if (limited) return limited;
      const row = db.findUser(email);
      if (row && !row.user.email_confirmed_at) {
        db.sendMail(email, "Confirm your email", verifyLink(request, email, body));
      } else {
        db.lastMailAt.set(email, db.now());
      }
      return HttpResponse.json({});
    },
  },
  {
    method: "post",
    path: "/api/auth/token",
    resolver: async ({ request }) => {
      const grant = new URL(request.url).searchParams.get("grant_type");
      const body = await jsonBody(request);
      if (grant === "password") {
        const email = body && stringField(body, "email");
        const password = body && stringField(body, "password");
        if (email === null || password === null) return invalidJson("Expected a JSON body with email and password");
        const row = db.findUser(email);
        if (!row || row.password !== password) return apiError(400, "invalid_credentials", "Invalid login credentials");
        if (!row.user.email_confirmed_at) return apiError(400, "email_not_confirmed", "Email not confirmed");
        return sessionResponse(db.startSession(row.user.id).id);
      }
      if (grant === "refresh_token") {
        // The site refreshes by cookie alone; a token in the body is the desktop app's way.
        const presented = (body && stringField(body, "refresh_token")) ?? db.refreshCookie;
        const ended = () =>
          apiError(401, "invalid_refresh_token", "Your session has ended. Please sign in again.", clearCookieHeaders());
        if (!presented) return ended();
        const live = db.sessions.find((s) => s.refreshToken === presented && !s.revoked);
        if (live) {
          db.rotate(live);
          return sessionResponse(live.id);
        }
        const spentOf = db.spentRefresh.get(presented);
        if (spentOf) {
          db.sessions.filter((s) => s.id === spentOf).forEach((s) => (s.revoked = true));
          return apiError(401, "refresh_token_reused", "Your session has ended. Please sign in again.", clearCookieHeaders());
        }
        return ended();
      }
      return apiError(
        400,
        "invalid_grant_type",
        "grant_type must be password, refresh_token, authorization_code or urn:ietf:params:oauth:grant-type:device_code",
      );
    },
  },
  {
    method: "post",
    path: "/api/auth/logout",
    resolver: ({ request }) => {
      const auth = authenticate(request);
      if ("error" in auth) return auth.error;
      const scope = new URL(request.url).searchParams.get("scope") ?? "local";
      if (scope === "global") db.endSessions(auth.session.userId);
      else auth.session.revoked = true;
      return new HttpResponse(null, { status: 204, headers: clearCookieHeaders() });
    },
  },
  {
    method: "get",
    path: "/api/auth/user",
    resolver: ({ request }) => {
      const auth = authenticate(request);
      if ("error" in auth) return auth.error;
      return HttpResponse.json({ user: auth.row.user });
    },
  },
  {
    method: "post",
    path: "/api/auth/recover",
    resolver: async ({ request }) => {
      const body = await jsonBody(request);
      const rawEmail = body && stringField(body, "email");
      if (rawEmail === null) return invalidJson("Expected a JSON body with email");
      const email = rawEmail.trim().toLowerCase();
      const limited = rateLimited(email);
      if (limited) return limited;
      if (db.findUser(email)) {
        db.sendMail(
          email,
          "Reset your password",
          `${origin(request)}/reset-password?token=${db.oneTimeToken(email, "reset", 3600_000)}`,
        );
      } else {
        db.lastMailAt.set(email, db.now());
      }
      return HttpResponse.json({});
    },
  },
  {
    method: "post",
    path: "/api/auth/reset",
    resolver: async ({ request }) => {
      const body = await jsonBody(request);
      const token = body && stringField(body, "token");
      const password = body && stringField(body, "password");
      if (token === null || password === null) return invalidJson("Expected a JSON body with token and password");
      const row = db.tokens.get(token);
      if (!row || row.kind !== "reset") return apiError(400, "token_invalid", "This reset link is invalid.");
      if (row.used) return apiError(400, "token_used", "This reset link has already been used.");
      if (row.expiresAt < db.now()) return apiError(400, "token_expired", "This reset link has expired. Request a new one.");
      const weak = weakPassword(password);
      if (weak) return weak;
      row.used = true;
      const user = db.findUser(row.email)!;
      user.password = password;
      user.user.email_confirmed_at ??= db.iso(db.now());
      db.endSessions(user.user.id);
      return HttpResponse.json({});
    },
  },
  {
    method: "post",
    path: "/api/auth/password",
    resolver: async ({ request }) => {
      const auth = authenticate(request);
      if ("error" in auth) return auth.error;
      const body = await jsonBody(request);
      const current = body && stringField(body, "current_password");
      const password = body && stringField(body, "password");
      if (current === null || password === null) return invalidJson("Expected a JSON body with current_password and password");
      if (auth.row.password !== current) return apiError(400, "invalid_credentials", "Current password is incorrect");
      const weak = weakPassword(password);
      if (weak) return weak;
      auth.row.password = password;
      db.endSessions(auth.row.user.id, auth.session.id);
      return HttpResponse.json({});
    },
  },
  {
    method: "delete",
    path: "/api/account",
    resolver: async ({ request }) => {
      const auth = authenticate(request);
      if ("error" in auth) return auth.error;
      const body = await jsonBody(request);
      const password = body && stringField(body, "password");
      if (password === null) return invalidJson("Expected a JSON body with password");
      if (auth.row.password !== password) return apiError(400, "invalid_credentials", "Password is incorrect");
      db.deleteUser(auth.row.user.id);
      return new HttpResponse(null, { status: 204, headers: clearCookieHeaders() });
    },
  },
  {
    method: "get",
    path: "/api/plan",
    resolver: ({ request }) => {
      const auth = authenticate(request);
      if ("error" in auth) return auth.error;
      const userId = auth.row.user.id;
      if (!db.plans.has(userId)) db.plans.set(userId, db.newPlan(userId, "free"));
      return HttpResponse.json(db.plans.get(userId));
    },
  },
  {
    method: "get",
    path: "/api/products",
    resolver: () => HttpResponse.json({ products: PRODUCTS }),
  },
  {
    method: "get",
    path: "/api/subscription",
    resolver: ({ request }) => {
      const auth = authenticate(request);
      if ("error" in auth) return auth.error;
      return HttpResponse.json({ subscription: db.subscriptions.get(auth.row.user.id) ?? null });
    },
  },
  {
    method: "post",
    path: "/api/checkout",
    resolver: async ({ request }) => {
      const auth = authenticate(request);
      if ("error" in auth) return auth.error;
      const body = await jsonBody(request);
      const priceId = body && stringField(body, "price_id");
      const mode = body && stringField(body, "mode");
      const successUrl = body && stringField(body, "success_url");
      const cancelUrl = body && stringField(body, "cancel_url");
      if (priceId === null || mode === null || successUrl === null || cancelUrl === null)
        return invalidJson("Expected a JSON body with price_id, mode, success_url and cancel_url");
      const { user } = auth.row;
      if (!user.email_confirmed_at)
        return apiError(403, "email_not_verified", "Please verify your email address before subscribing");
      const sub = db.subscriptions.get(user.id);
      if (sub && sub.price_id === priceId && isSubscribed(sub))
        return apiError(409, "already_subscribed", "You already have this subscription");
      const own = origin(request);
      if (![successUrl, cancelUrl].every((url) => url.startsWith(`${own}/`)))
        return apiError(400, "invalid_redirect_url", "success_url and cancel_url must be on this site");
      if (!PRODUCTS.some((p) => p.priceId === priceId)) return apiError(400, "unknown_price", "Unknown price");
      // No hosted checkout here: the mock session counts as paid and the browser goes straight to success.
      const sessionId = db.id("cs_test");
      db.checkoutSessions.set(sessionId, { id: sessionId, userId: user.id, paid: true });
      return HttpResponse.json({ url: successUrl.replace("{CHECKOUT_SESSION_ID}", sessionId) });
    },
  },
  {
    method: "post",
    path: "/api/checkout/confirm",
    resolver: async ({ request }) => {
      const auth = authenticate(request);
      if ("error" in auth) return auth.error;
      const body = await jsonBody(request);
      const sessionId = body && stringField(body, "session_id");
      if (sessionId === null) return invalidJson("Expected a JSON body with session_id");
      const failed = "Plan activation failed, but you can contact support.";
      const row = db.checkoutSessions.get(sessionId);
      if (!row) return apiError(404, "session_not_found", failed);
      if (row.userId !== auth.row.user.id) return apiError(403, "session_not_yours", failed);
      if (!row.paid) return apiError(409, "session_not_paid", failed);
      const userId = auth.row.user.id;
      const plan = db.plans.get(userId) ?? db.newPlan(userId, "free");
      const at = db.iso(db.now());
      Object.assign(plan, {
        plan_type: "monthly",
        plan_updated_at: at,
        updated_at: at,
        stripe_customer_id: "cus_mock",
        stripe_subscription_id: "sub_mock",
        subscription_id: "sub_mock",
      });
      db.plans.set(userId, plan);
      const subscription = {
        price_id: PRODUCTS[0]!.priceId,
        subscription_status: "active" as const,
        cancel_at_period_end: false,
        current_period_end: Math.floor(db.now() / 1000) + 30 * 24 * 3600,
        payment_method_brand: "visa",
        payment_method_last4: "4242",
      };
      db.subscriptions.set(userId, subscription);
      return HttpResponse.json({ plan, subscription });
    },
  },
  {
    method: "post",
    path: "/api/billing/portal",
    resolver: async ({ request }) => {
      const auth = authenticate(request);
      if ("error" in auth) return auth.error;
      const body = (await jsonBody(request)) ?? {};
      const plan = db.plans.get(auth.row.user.id);
      if (!plan?.stripe_customer_id) return apiError(404, "no_customer", "No billing account yet. Start a subscription first.");
      return HttpResponse.json({ url: stringField(body, "return_url") ?? `${origin(request)}/dashboard` });
    },
  },
];

export const routes: MockRoute[] = [...accountRoutes, ...desktopRoutes];

/** OpenAPI's `{id}` is MSW's `:id`. */
export const mswPath = (path: string) => path.replace(/\{(\w+)\}/g, ":$1");

export const handlers = routes.map((route) => http[route.method](`*${mswPath(route.path)}`, route.resolver));
