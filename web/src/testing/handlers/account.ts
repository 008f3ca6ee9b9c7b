//! Sign-up, verification, sessions, recovery, password and account deletion (docs/api.md "Accounts").

import { HttpResponse } from "msw";
import { db } from "../db";
import {
  type MockRoute,
  apiError,
  EMAIL,
  weakPassword,
  readBody,
  authenticate,
  sessionResponse,
  clearCookieHeaders,
  rateLimited,
  origin,
  verifyLink,
  REAUTH_WINDOW_MS,
} from "./common";
import { factorGrant, passwordNeedsFactor, stepUpNeedsFactor } from "./mfa";

export const accountRoutes: MockRoute[] = [
  {
    method: "post",
    path: "/api/auth/signup",
    resolver: async ({ request }) => {
      const body = await readBody<"SignupBody">(request);
      const { password } = body;
      const email = body.email.trim().toLowerCase();
      if (!EMAIL.test(email)) return apiError(422, "invalid_email", "Please enter a valid email address");
      const weak = weakPassword(password);
      if (weak) return weak;
      const existing = db.findUser(email);
      if (!existing) {
        const user = db.createUser({ email, password, verified: false });
        db.sendMail(email, "Confirm your email", verifyLink(request, user.email, body));
      } else if (!existing.user.email_confirmed_at) {
        existing.signups = (existing.signups ?? 1) + 1;
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
      const { token } = await readBody<"TokenBody">(request);
      const row = db.tokens.get(token);
      if (!row || row.kind !== "verify") return apiError(400, "token_invalid", "This verification link is invalid.");
      if (row.used) return apiError(400, "token_used", "This verification link has already been used.");
      if (row.expiresAt < db.now())
        return apiError(400, "token_expired", "This verification link has expired. Request a new one.");
      row.used = true;
      const found = db.findUser(row.email)!;
      const { user } = found;
      if (!user.email_confirmed_at && (found.signups ?? 1) > 1) {
        // The sign-ups disagree: none of their passwords is kept; the clicker chooses one.
        user.email_confirmed_at = db.iso(db.now());
        found.password = crypto.randomUUID();
        const password_token = db.oneTimeToken(row.email, "reset", 3600_000);
        return HttpResponse.json({ status: "choose_password", user, password_token });
      }
      user.email_confirmed_at ??= db.iso(db.now());
      return HttpResponse.json({ status: "confirmed", user });
    },
  },
  {
    method: "post",
    path: "/api/auth/verify/password",
    resolver: async ({ request }) => {
      const { password_token: token, password } = await readBody<"ChoosePasswordBody">(request);
      const weak = weakPassword(password);
      if (weak) return weak;
      const row = db.tokens.get(token);
      if (!row || row.kind !== "reset") return apiError(400, "token_invalid", "This password link is invalid.");
      if (row.used) return apiError(400, "token_used", "This password link has already been used.");
      if (row.expiresAt < db.now()) return apiError(400, "token_expired", "This password link has expired. Request a new one.");
      row.used = true;
      const found = db.findUser(row.email)!;
      found.password = password;
      db.endSessions(found.user.id);
      return HttpResponse.json({ user: found.user });
    },
  },
  {
    method: "post",
    path: "/api/auth/resend",
    resolver: async ({ request }) => {
      const body = await readBody<"ResendBody">(request);
      if (body.type !== "signup") return apiError(422, "invalid_type", "Only type signup can be resent");
      const email = body.email.trim().toLowerCase();
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
      if (grant === "password") {
        const { email, password } = await readBody<"Credentials">(request);
        const row = db.findUser(email);
        if (!row || row.password !== password) return apiError(400, "invalid_credentials", "Invalid login credentials");
        if (!row.user.email_confirmed_at) return apiError(400, "email_not_confirmed", "Email not confirmed");
        const factor = passwordNeedsFactor(row.user.id);
        if (factor) return factor;
        return sessionResponse(db.startSession(row.user.id).id);
      }
      if (grant === "mfa" || grant === "passkey") return factorGrant(request, grant);
      if (grant === "refresh_token") {
        // The site refreshes by cookie alone; a token in the body is the desktop app's way.
        const presented = (await readBody<"RefreshBody">(request)).refresh_token ?? db.refreshCookie;
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
      const email = (await readBody<"EmailBody">(request)).email.trim().toLowerCase();
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
      const { token, password } = await readBody<"ResetBody">(request);
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
      const { current_password: current, password } = await readBody<"ChangePasswordBody">(request);
      if (auth.row.password !== current) return apiError(400, "invalid_credentials", "Current password is incorrect");
      const weak = weakPassword(password);
      if (weak) return weak;
      auth.row.password = password;
      db.endSessions(auth.row.user.id, auth.session.id);
      return HttpResponse.json({});
    },
  },
  {
    method: "post",
    path: "/api/auth/reauthenticate",
    resolver: async ({ request }) => {
      const auth = authenticate(request);
      if ("error" in auth) return auth.error;
      // A missing password is a wrong one, as the API's `#[serde(default)]` reads it.
      const body = await readBody<"ReauthenticateBody">(request);
      if (auth.row.password !== (body.password ?? "")) return apiError(401, "invalid_credentials", "Invalid login credentials");
      const factor = stepUpNeedsFactor(auth.row.user.id, body.code);
      if (factor) return factor;
      auth.session.passwordAt = db.now();
      return HttpResponse.json({ reauthenticated_until: db.iso(db.now() + REAUTH_WINDOW_MS) });
    },
  },
  {
    method: "delete",
    path: "/api/account",
    resolver: async ({ request }) => {
      const auth = authenticate(request);
      if ("error" in auth) return auth.error;
      const { password } = await readBody<"PasswordBody">(request);
      if (auth.row.password !== password) return apiError(400, "invalid_credentials", "Password is incorrect");
      db.deleteUser(auth.row.user.id);
      return new HttpResponse(null, { status: 204, headers: clearCookieHeaders() });
    },
  },
];
