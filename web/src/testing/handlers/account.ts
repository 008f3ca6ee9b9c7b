//! Sign-up, verification, sessions, recovery, password and account deletion (docs/api.md "Accounts").
//! The server's checks of a password or an address, and its mail rate limits, are not here: a test
//! that needs one of those refusals sets it (`refuse`).

import { db } from "../db";
import {
  type MockRoute,
  apiError,
  clearCookieHeaders,
  invalidCredentials,
  json,
  noContent,
  origin,
  readBody,
  REAUTH_WINDOW_MS,
  sessionResponse,
  signedIn,
  verifyLink,
} from "./common";

/** The one-time token's row, or the contract's refusal (`what`: "verification", "reset" or "password" link). */
function spend(token: string, kind: "verify" | "reset", what: string) {
  const row = db.tokens.get(token);
  if (!row || row.kind !== kind) return { error: apiError(400, "token_invalid", `This ${what} link is invalid.`) };
  if (row.used) return { error: apiError(400, "token_used", `This ${what} link has already been used.`) };
  if (row.expiresAt < db.now())
    return { error: apiError(400, "token_expired", `This ${what} link has expired. Request a new one.`) };
  row.used = true;
  return { row: db.findUser(row.email)! };
}

const ended = (code = "invalid_refresh_token") =>
  apiError(401, code, "Your session has ended. Please sign in again.", clearCookieHeaders());

export const accountRoutes: MockRoute[] = [
  {
    method: "post",
    path: "/api/auth/signup",
    resolver: async ({ request }) => {
      const { email: raw, password, next } = await readBody<"SignupBody">(request);
      const email = raw.trim().toLowerCase();
      const existing = db.findUser(email);
      if (existing?.user.email_confirmed_at) db.sendMail(email, "You already have an account", `${origin(request)}/signin`);
      else {
        if (existing) existing.signups = (existing.signups ?? 1) + 1;
        else db.createUser({ email, password, verified: false });
        db.sendMail(email, "Confirm your email", verifyLink(request, email, next));
      }
      return json({ email });
    },
  },
  {
    method: "post",
    path: "/api/auth/verify",
    resolver: async ({ request }) => {
      const spent = spend((await readBody<"TokenBody">(request)).token, "verify", "verification");
      if (spent.error) return spent.error;
      const { user } = spent.row;
      if (!user.email_confirmed_at && (spent.row.signups ?? 1) > 1) {
        // The sign-ups disagree: none of their passwords is kept; the clicker chooses one.
        user.email_confirmed_at = db.iso(db.now());
        spent.row.password = crypto.randomUUID();
        return json({ status: "choose_password", user, password_token: db.oneTimeToken(user.email, "reset", 3600_000) });
      }
      user.email_confirmed_at ??= db.iso(db.now());
      return json({ status: "confirmed", user });
    },
  },
  {
    method: "post",
    path: "/api/auth/verify/password",
    resolver: async ({ request }) => {
      const { password_token: token, password } = await readBody<"ChoosePasswordBody">(request);
      const spent = spend(token, "reset", "password");
      if (spent.error) return spent.error;
      spent.row.password = password;
      db.endSessions(spent.row.user.id);
      return json({ user: spent.row.user });
    },
  },
  {
    method: "post",
    path: "/api/auth/resend",
    resolver: async ({ request }) => {
      const { email, next } = await readBody<"ResendBody">(request);
      const row = db.findUser(email);
      if (row && !row.user.email_confirmed_at)
        db.sendMail(row.user.email, "Confirm your email", verifyLink(request, row.user.email, next));
      return json({});
    },
  },
  {
    method: "post",
    path: "/api/auth/token",
    resolver: async ({ request }) => {
      if (new URL(request.url).searchParams.get("grant_type") === "password") {
        const { email, password } = await readBody<"Credentials">(request);
        const row = db.findUser(email);
        if (!row || row.password !== password) return invalidCredentials("Invalid login credentials");
        if (!row.user.email_confirmed_at) return apiError(400, "email_not_confirmed", "Email not confirmed");
        return sessionResponse(db.startSession(row.user.id).id);
      }
      // A refresh: the site's by cookie alone, the desktop app's with the token in the body.
      const presented = (await readBody<"RefreshBody">(request)).refresh_token ?? db.refreshCookie;
      const live = db.sessions.find((s) => s.refreshToken === presented && !s.revoked);
      if (live) return (db.rotate(live), sessionResponse(live.id));
      const spentOf = presented && db.spentRefresh.get(presented);
      if (!spentOf) return ended();
      db.sessions.filter((s) => s.id === spentOf).forEach((s) => (s.revoked = true));
      return ended("refresh_token_reused");
    },
  },
  signedIn("post", "/api/auth/logout", ({ session }, { request }) => {
    if (new URL(request.url).searchParams.get("scope") === "global") db.endSessions(session.userId);
    else session.revoked = true;
    return noContent(clearCookieHeaders());
  }),
  signedIn("get", "/api/auth/user", ({ user }) => json({ user })),
  {
    method: "post",
    path: "/api/auth/recover",
    resolver: async ({ request }) => {
      const email = (await readBody<"EmailBody">(request)).email.trim().toLowerCase();
      const token = db.findUser(email) && db.oneTimeToken(email, "reset", 3600_000);
      if (token) db.sendMail(email, "Reset your password", `${origin(request)}/reset-password?token=${token}`);
      return json({});
    },
  },
  {
    method: "post",
    path: "/api/auth/reset",
    resolver: async ({ request }) => {
      const { token, password } = await readBody<"ResetBody">(request);
      const spent = spend(token, "reset", "reset");
      if (spent.error) return spent.error;
      spent.row.password = password;
      spent.row.user.email_confirmed_at ??= db.iso(db.now());
      db.endSessions(spent.row.user.id);
      return json({});
    },
  },
  signedIn("post", "/api/auth/password", async ({ row, session }, { request }) => {
    const { current_password: current, password } = await readBody<"ChangePasswordBody">(request);
    if (row.password !== current) return invalidCredentials("Current password is incorrect");
    row.password = password;
    db.endSessions(row.user.id, session.id);
    return json({});
  }),
  signedIn("post", "/api/auth/reauthenticate", async ({ row, session }, { request }) => {
    if (row.password !== (await readBody<"ReauthenticateBody">(request)).password)
      return invalidCredentials("Invalid login credentials", 401);
    session.passwordAt = db.now();
    return json({ reauthenticated_until: db.iso(db.now() + REAUTH_WINDOW_MS) });
  }),
  signedIn("delete", "/api/account", async ({ row }, { request }) => {
    if (row.password !== (await readBody<"PasswordBody">(request)).password) return invalidCredentials();
    db.deleteUser(row.user.id);
    return noContent(clearCookieHeaders());
  }),
];
