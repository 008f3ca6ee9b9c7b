//! Account endpoints (docs/api.md "Accounts").

import { ApiError, apiRequest } from "./client";
import type { PasswordReset, Reauthenticated, Session, SignOutScope, StepUpPasskey, User, VerifyAnswer } from "./types";

/** `next`: a same-origin path the verification link carries on to sign-in (the API drops any other). */
export function signUp(body: { email: string; password: string; next?: string }) {
  return apiRequest<{ email: string }>("/api/auth/signup", { method: "POST", body });
}

export function verifyEmail(token: string) {
  return apiRequest<VerifyAnswer>("/api/auth/verify", { method: "POST", body: { token } });
}

/** After `choose_password`: the clicker's password becomes the account's. */
export function chooseVerifiedPassword(body: { password_token: string; password: string }) {
  return apiRequest<{ user: User }>("/api/auth/verify/password", { method: "POST", body });
}

/** The spec's text when the service answered without a message of its own (a proxy's page, an empty body). */
export const RESEND_FAILED = "Failed to resend verification email";

export async function resendVerification(email: string, next?: string) {
  try {
    return await apiRequest<Record<string, never>>("/api/auth/resend", {
      method: "POST",
      body: next ? { email, type: "signup", next } : { email, type: "signup" },
    });
  } catch (error) {
    // The client fills in "Request failed (500)" for an answer without our error body: show the spec's text instead.
    if (error instanceof ApiError && (error.code === "unknown" || !error.message))
      throw new ApiError(error.status, error.code, RESEND_FAILED, error.retryAfter);
    throw error;
  }
}

export function signInWithPassword(body: { email: string; password: string }) {
  return apiRequest<Session>("/api/auth/token?grant_type=password", {
    method: "POST",
    body,
    credentials: "include",
  });
}

/** Uses the httpOnly `cw_refresh` cookie; browsers never see the refresh token. */
export function refreshSession() {
  return apiRequest<Session>("/api/auth/token?grant_type=refresh_token", {
    method: "POST",
    body: {},
    credentials: "include",
  });
}

export function signOutRequest(token: string, scope: SignOutScope) {
  return apiRequest<void>(`/api/auth/logout?scope=${scope}`, { method: "POST", token, credentials: "include" });
}

export function getUser() {
  return apiRequest<{ user: User }>("/api/auth/user", { auth: true });
}

export function requestPasswordReset(email: string) {
  return apiRequest<Record<string, never>>("/api/auth/recover", { method: "POST", body: { email } });
}

/** The password is set and every session ended: the passkeys that still sign in and the desktop apps signed out, to review. */
export function resetPassword(body: { token: string; password: string }) {
  return apiRequest<PasswordReset>("/api/auth/reset", { method: "POST", body });
}

export function changePassword(body: { current_password: string; password: string }) {
  return apiRequest<Record<string, never>>("/api/auth/password", { method: "POST", body, auth: true });
}

export function deleteAccount(password: string) {
  return apiRequest<void>("/api/account", { method: "DELETE", body: { password }, auth: true });
}

/**
 * Re-enters the password on this session (sudo mode: approving a device, allowing the app, handing
 * over a team). Sent with the current token and no refresh-and-retry: its 401 `invalid_credentials`
 * is a wrong password, not an ended session, and a retry would count a second failed attempt.
 * The second factor, when the account has one: an app or recovery `code`, or a `passkey`'s answer to a
 * step-up challenge (`stepUpChallenge` in mfa.ts).
 */
export function reauthenticate(password: string, token: string, code?: string, passkey?: StepUpPasskey) {
  const body = passkey ? { password, passkey } : code ? { password, code } : { password };
  return apiRequest<Reauthenticated>("/api/auth/reauthenticate", { method: "POST", body, token });
}
