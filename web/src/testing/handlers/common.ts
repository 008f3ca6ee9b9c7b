//! What the mock API's handlers share: the route type, the error shape, body parsing, the caller
//! from the bearer token, sessions and their cookie, the mail rate limit.

import { HttpResponse, type HttpResponseResolver } from "msw";
import type { components } from "../../lib/api/gen";
import type { Session } from "../../lib/api/types";
import { MIN_PASSWORD_LENGTH, PASSWORD_TOO_SHORT } from "../../lib/auth/password";
import { safeRedirect } from "../../lib/redirect";
import { db } from "../db";

type Method = "get" | "post" | "delete" | "put" | "patch";

export interface MockRoute {
  method: Method;
  /** OpenAPI path. */
  path: string;
  resolver: HttpResponseResolver;
}

export function apiError(status: number, code: string, message: string, headers?: Record<string, string>) {
  return HttpResponse.json({ error: { code, message } }, { status, headers });
}

export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const COMMON_PASSWORDS = new Set(["password", "123456", "12345678", "qwerty", "111111", "abc123", "password1"]);
export const COOKIE = "cw_refresh";

export function weakPassword(password: string) {
  if (password.length < MIN_PASSWORD_LENGTH) return apiError(422, "weak_password", PASSWORD_TOO_SHORT);
  if (password.length > 128) return apiError(422, "weak_password", "Password must be at most 128 characters");
  if (COMMON_PASSWORDS.has(password.toLowerCase()))
    return apiError(422, "weak_password", "This password is too common. Please choose another one");
  return null;
}

/**
 * The request's JSON body as docs/openapi.json types it: the test setup validates every request a
 * handler receives against the document, so a handler reads it as is. `{}` when there is none.
 */
export async function readBody<K extends keyof components["schemas"]>(request: Request): Promise<components["schemas"][K]> {
  return ((await jsonBody(request)) ?? {}) as components["schemas"][K];
}

export async function jsonBody(request: Request): Promise<Record<string, unknown> | null> {
  try {
    const body: unknown = await request.json();
    return body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export const invalidJson = (detail: string) => apiError(400, "invalid_json", detail);

export function stringField(body: Record<string, unknown>, name: string): string | null {
  const value = body[name];
  return typeof value === "string" ? value : null;
}

/** The caller's session from the bearer token, or the contract's 401. */
export function authenticate(request: Request) {
  const header = request.headers.get("Authorization");
  if (!header) return { error: apiError(401, "not_signed_in", "Please sign in to continue") } as const;
  const session = db.sessionByAccess(header.replace(/^Bearer\s+/i, ""));
  const row = session && db.userById(session.userId);
  if (!session || !row)
    return { error: apiError(401, "invalid_token", "Authentication required. Please sign in again.") } as const;
  return { session, row } as const;
}

/** The API's 15-minute sudo window, as a flag check: `passwordAt` is set by sign-in and reauthenticate. */
export const REAUTH_WINDOW_MS = 15 * 60_000;

export function reauthenticationRequired(session: { passwordAt: number | null }) {
  return session.passwordAt !== null && db.now() - session.passwordAt < REAUTH_WINDOW_MS
    ? null
    : apiError(403, "reauthentication_required", "Please confirm your password to continue.");
}

export function sessionResponse(sessionId: string) {
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

export function clearCookieHeaders() {
  db.refreshCookie = null;
  return { "Set-Cookie": `${COOKIE}=; Path=/api/auth; HttpOnly; SameSite=Strict; Max-Age=0` };
}

export function rateLimited(email: string) {
  const wait = db.mailCooldown(email);
  return wait > 0
    ? apiError(429, "over_email_send_rate_limit", `For security purposes, you can only request this after ${wait} seconds.`, {
        "Retry-After": String(wait),
      })
    : null;
}

export function origin(request: Request) {
  return new URL(request.url).origin;
}

/** The verification link, carrying `next` when it is a same-origin path (the API drops any other). */
export function verifyLink(request: Request, email: string, body: { next?: string | null }) {
  const link = `${origin(request)}/verify?token=${db.oneTimeToken(email, "verify")}`;
  const next = body.next ?? "";
  const safe = next !== "" && safeRedirect(next, "") === next;
  return safe ? `${link}&next=${encodeURIComponent(next)}` : link;
}
