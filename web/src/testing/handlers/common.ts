//! What the mock API's handlers share: the route type, the error shape, typed bodies, the caller
//! from the bearer token, sessions and their cookie.

import { HttpResponse, type HttpResponseResolver } from "msw";
import type { components } from "../../lib/api/gen";
import type { Session } from "../../lib/api/types";
import { db } from "../db";

/** `path`: the OpenAPI path. */
export type MockRoute = { method: "get" | "post" | "delete" | "put" | "patch"; path: string; resolver: HttpResponseResolver };
export const route = (method: MockRoute["method"], path: string, resolver: HttpResponseResolver) => ({ method, path, resolver });

export const apiError = (status: number, code: string, message: string, headers?: Record<string, string>) =>
  HttpResponse.json({ error: { code, message } }, { status, headers });
export const json = (body: unknown, status = 200) => HttpResponse.json(body as Record<string, unknown>, { status });
export const noContent = (headers?: Record<string, string>) => new HttpResponse(null, { status: 204, headers });
export const origin = (request: Request) => new URL(request.url).origin;
export const invalidCredentials = (message = "Password is incorrect", status = 400) =>
  apiError(status, "invalid_credentials", message);

/** The request's JSON body as docs/openapi.json types it (the test setup validates it), `{}` when none. */
export async function readBody<K extends keyof components["schemas"]>(request: Request): Promise<components["schemas"][K]> {
  const text = await request.text();
  return (text.trim() ? JSON.parse(text) : {}) as components["schemas"][K];
}

/** The caller's session and user from the bearer token, or the contract's 401. */
export function authenticate(request: Request) {
  const header = request.headers.get("Authorization");
  if (!header) return { error: apiError(401, "not_signed_in", "Please sign in to continue") };
  const session = db.sessionByAccess(header.replace(/^Bearer\s+/i, ""));
  const row = session && db.userById(session.userId);
  if (!session || !row) return { error: apiError(401, "invalid_token", "Authentication required. Please sign in again.") };
  return { session, row, user: row.user };
}

type Caller = Exclude<ReturnType<typeof authenticate>, { error: Response }>;
type Info = Parameters<HttpResponseResolver>[0];
/** A route for signed-in callers only: `answer` gets the caller, a 401 goes out otherwise. */
export const signedIn = (
  method: MockRoute["method"],
  path: string,
  answer: (caller: Caller, info: Info) => Response | Promise<Response>,
) =>
  route(method, path, (info) => {
    const caller = authenticate(info.request);
    return caller.error ?? answer(caller, info);
  });

/** The 15-minute sudo window as a flag: sign-in and reauthenticate set `passwordAt`. */
export const REAUTH_WINDOW_MS = 15 * 60_000;
export const reauthenticationRequired = (session: { passwordAt: number | null }) =>
  session.passwordAt !== null && db.now() - session.passwordAt < REAUTH_WINDOW_MS
    ? null
    : apiError(403, "reauthentication_required", "Please confirm your password to continue.");

const COOKIE = "cw_refresh";
export function sessionResponse(row: ReturnType<typeof db.startSession>) {
  const [expires_in, expires_at] = [db.accessTtlSeconds, row.accessExpiresAt];
  const body: Session = {
    access_token: row.accessToken,
    token_type: "bearer",
    expires_in,
    expires_at,
    user: db.userById(row.userId)!.user,
  };
  db.refreshCookie = row.refreshToken;
  const cookie = `${COOKIE}=${row.refreshToken}; Path=/api/auth; HttpOnly; SameSite=Strict; Max-Age=2592000`;
  return HttpResponse.json(body, { headers: { "Set-Cookie": cookie } });
}

export function clearCookieHeaders() {
  db.refreshCookie = null;
  return { "Set-Cookie": `${COOKIE}=; Path=/api/auth; HttpOnly; SameSite=Strict; Max-Age=0` };
}

/** The verification link the mail carries, with the `next` it was given (the web sends only a safe one). */
export function verifyLink(request: Request, email: string, next?: string | null) {
  const link = `${origin(request)}/verify?token=${db.oneTimeToken(email, "verify")}`;
  return next ? `${link}&next=${encodeURIComponent(next)}` : link;
}
