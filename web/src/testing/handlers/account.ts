//! Sign-up, verification, sessions, recovery, password and account deletion (docs/api.md "Accounts").
//! The server's checks of a password or an address, its mail rate limits and its refresh-token reuse
//! detection are not here: a test that needs one of those refusals sets it (`refuse`).

import { db, type DbUser } from "../db";
import { type MockRoute, apiError, invalidCredentials as wrong, json, noContent, origin, readBody, route } from "./common";
import { REAUTH_WINDOW_MS, clearCookieHeaders as clear, sessionResponse, signedIn, verifyLink } from "./common";
import { factorGrant, mfaOf, passwordNeedsFactor, stepUpNeedsFactor, toPasskey } from "./mfa";

/** The one-time token's row, or the contract's refusal (`what`: "verification", "reset" or "password" link). */
function spend(
  token: string,
  kind: "verify" | "reset",
  what: string,
): { error: Response; row?: never } | { error?: never; row: DbUser } {
  const row = db.tokens.get(token);
  const refusal = (code: string, why: string) => ({ error: apiError(400, code, `This ${what} link ${why}`) });
  if (!row || row.kind !== kind) return refusal("token_invalid", "is invalid.");
  if (row.used) return refusal("token_used", "has already been used.");
  if (row.expiresAt < db.now()) return refusal("token_expired", "has expired. Request a new one.");
  row.used = true;
  return { row: db.findUser(row.email)! };
}

export const accountRoutes: MockRoute[] = [
  route("post", "/api/auth/signup", async ({ request }) => {
    const { email: raw, password, next } = await readBody<"SignupBody">(request);
    const [email, link] = [raw.trim().toLowerCase(), `${origin(request)}/signin`];
    const existing = db.findUser(email);
    if (existing?.user.email_confirmed_at) return (db.sendMail(email, "You already have an account", link), json({ email }));
    if (existing) existing.signups = (existing.signups ?? 1) + 1;
    else db.createUser({ email, password, verified: false });
    db.sendMail(email, "Confirm your email", verifyLink(request, email, next));
    return json({ email });
  }),
  route("post", "/api/auth/verify", async ({ request }) => {
    const spent = spend((await readBody<"TokenBody">(request)).token, "verify", "verification");
    if (spent.error) return spent.error;
    const { user } = spent.row;
    const choose = !user.email_confirmed_at && (spent.row.signups ?? 1) > 1;
    user.email_confirmed_at ??= db.iso(db.now());
    if (!choose) return json({ status: "confirmed", user });
    // The sign-ups disagree: none of their passwords is kept; the clicker chooses one.
    spent.row.password = crypto.randomUUID();
    return json({ status: "choose_password", user, password_token: db.oneTimeToken(user.email, "reset", 3600_000) });
  }),
  route("post", "/api/auth/verify/password", async ({ request }) => {
    const { password_token: token, password } = await readBody<"ChoosePasswordBody">(request);
    const spent = spend(token, "reset", "password");
    if (spent.error) return spent.error;
    spent.row.password = password;
    db.endSessions(spent.row.user.id);
    return json({ user: spent.row.user });
  }),
  route("post", "/api/auth/resend", async ({ request }) => {
    const { email, next } = await readBody<"ResendBody">(request);
    const row = db.findUser(email);
    if (row && !row.user.email_confirmed_at)
      db.sendMail(row.user.email, "Confirm your email", verifyLink(request, row.user.email, next));
    return json({});
  }),
  route("post", "/api/auth/token", async ({ request }) => {
    if (new URL(request.url).searchParams.get("grant_type") === "password") {
      const { email, password } = await readBody<"Credentials">(request);
      const row = db.findUser(email);
      if (!row || row.password !== password) return wrong("Invalid login credentials");
      if (!row.user.email_confirmed_at) return apiError(400, "email_not_confirmed", "Email not confirmed");
      return passwordNeedsFactor(row.user.id) ?? sessionResponse(db.startSession(row.user.id));
    }
    const grant = new URL(request.url).searchParams.get("grant_type");
    if (grant === "mfa" || grant === "passkey") return factorGrant(request, grant);
    // A refresh: the site's by cookie alone, the desktop app's with the token in the body.
    const presented = (await readBody<"RefreshBody">(request)).refresh_token ?? db.refreshCookie;
    const live = db.sessions.find((s) => s.refreshToken === presented && !s.revoked);
    if (live) return sessionResponse(db.rotate(live));
    return apiError(401, "invalid_refresh_token", "Your session has ended. Please sign in again.", clear());
  }),
  signedIn("post", "/api/auth/logout", ({ session }, { request }) => {
    if (new URL(request.url).searchParams.get("scope") === "global") db.endSessions(session.userId);
    else session.revoked = true;
    return noContent(clear());
  }),
  signedIn("get", "/api/auth/user", ({ user }) => json({ user })),
  route("post", "/api/auth/recover", async ({ request }) => {
    const email = (await readBody<"EmailBody">(request)).email.trim().toLowerCase();
    const token = db.findUser(email) && db.oneTimeToken(email, "reset", 3600_000);
    if (token) db.sendMail(email, "Reset your password", `${origin(request)}/reset-password?token=${token}`);
    return json({});
  }),
  route("post", "/api/auth/reset", async ({ request }) => {
    const { token, password } = await readBody<"ResetBody">(request);
    const spent = spend(token, "reset", "reset");
    if (spent.error) return spent.error;
    spent.row.password = password;
    spent.row.user.email_confirmed_at ??= db.iso(db.now());
    const userId = spent.row.user.id;
    // The desktop apps it signs out, and the passkeys it leaves (a reset removes no factor).
    const devices_signed_out = db.sessions.flatMap((s) =>
      s.userId === userId && !s.revoked && s.device
        ? [{ name: s.device.name, platform: s.device.platform, last_seen_at: null }]
        : [],
    );
    db.endSessions(userId);
    return json({ passkeys: mfaOf(userId).passkeys.map(toPasskey), devices_signed_out });
  }),
  signedIn("post", "/api/auth/password", async ({ row, session }, { request }) => {
    const { current_password: current, password } = await readBody<"ChangePasswordBody">(request);
    if (row.password !== current) return wrong("Current password is incorrect");
    row.password = password;
    db.endSessions(row.user.id, session.id);
    return json({});
  }),
  signedIn("post", "/api/auth/reauthenticate", async ({ row, session }, { request }) => {
    const body = await readBody<"ReauthenticateBody">(request);
    if (row.password !== body.password) return wrong("Invalid login credentials", 401);
    const factor = stepUpNeedsFactor(row.user.id, body);
    if (factor) return factor;
    session.passwordAt = db.now();
    return json({ reauthenticated_until: db.iso(db.now() + REAUTH_WINDOW_MS) });
  }),
  signedIn("delete", "/api/account", async ({ row }, { request }) => {
    if (row.password !== (await readBody<"PasswordBody">(request)).password) return wrong();
    db.deleteUser(row.user.id);
    return noContent(clear());
  }),
];
