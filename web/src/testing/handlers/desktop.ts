//! The desktop app's sign-in, devices and entitlements (docs/api.md "The desktop app").

import { HttpResponse } from "msw";
import type { Device, Entitlements } from "../../lib/api/types";
import { isSubscribed, isSubscribedStatus } from "../../lib/billing/rules";
import { db, FREE_CALL_LIMIT, formatUserCode, normalizeUserCode } from "../db";
import { type MockRoute, apiError, readBody, authenticate, reauthenticationRequired } from "./common";

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
  // The API's rule (crates/domain, oauth/label.rs), less its short list of invisible fillers.
  if ([text("device_name"), text("platform")].some((v) => v && /[\p{Cc}\p{Cf}\u2028\u2029]/u.test(v)))
    return apiError(
      400,
      "invalid_device_name",
      "The device name and platform cannot contain invisible or text-direction characters.",
    );
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
  const raw = (await readBody<"UserCodeBody">(request)).user_code;
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
  const personal = plan?.plan_type === "monthly" && (isSubscribed(sub) || status === "past_due");
  const team = db.team.teamOf(userId);
  const teamStatus = team?.subscription?.status;
  const viaTeam = Boolean(team) && (isSubscribedStatus(teamStatus) || teamStatus === "past_due");
  const paid = personal || viaTeam;
  const usage = db.usageOf(userId);
  const limit = FREE_CALL_LIMIT + usage.grantedCalls;
  const calls = paid ? null : { limit, used: usage.freeCallsUsed, remaining: Math.max(0, limit - usage.freeCallsUsed) };
  const personalFailed = plan?.plan_type === "monthly" && (status === "past_due" || status === "unpaid");
  const failed = personalFailed || (!personal && viaTeam && teamStatus === "past_due");
  return {
    plan_type: paid ? "monthly" : "free",
    unlimited: paid,
    calls,
    max_call_seconds: paid ? null : 300,
    calls_this_month: usage.callsThisMonth,
    warning: failed ? "payment_failed" : null,
    entitlement_token: entitlementToken(userId, { plan_type: paid ? "monthly" : "free", unlimited: paid }),
    source: personal ? "personal" : viaTeam ? "team" : null,
    team: team ? { id: team.id, name: team.name } : null,
  };
}

export const desktopRoutes: MockRoute[] = [
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
        requested_from: "127.0.0.1",
      });
    },
  },
  {
    method: "post",
    path: "/api/auth/authorize",
    resolver: async ({ request }) => {
      const auth = authenticate(request);
      if ("error" in auth) return auth.error;
      const body = await readBody<"AuthorizeBody">(request);
      const problem = checkAuthorizeRequest(body);
      if (problem) return problem;
      if (!auth.row.user.email_confirmed_at) return emailNotConfirmed();
      const redirectUri = body.redirect_uri!;
      const state = encodeURIComponent(body.state!);
      if (body.decision === "deny")
        return HttpResponse.json({ redirect_to: `${redirectUri}?error=access_denied&state=${state}` });
      const stale = reauthenticationRequired(auth.session);
      if (stale) return stale;
      // The app exchanges the code at once; the mock starts its session here so the devices list shows it.
      db.startDeviceSession(auth.row.user.id, body.device_name ?? "Desktop app", body.platform ?? "unknown");
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
        requested_from: row.requestedFrom,
        same_network: row.sameNetwork,
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
      const caller = authenticate(request);
      const stale = "error" in caller ? null : reauthenticationRequired(caller.session);
      if (stale) return stale;
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
