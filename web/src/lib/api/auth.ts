//! Account endpoints (docs/api.md "Accounts").

import { apiRequest } from "./client";
import type { Session, User } from "./types";

export function signUp(body: { email: string; password: string }) {
  return apiRequest<{ email: string }>("/api/auth/signup", { method: "POST", body });
}

export function verifyEmail(token: string) {
  return apiRequest<{ user: User }>("/api/auth/verify", { method: "POST", body: { token } });
}

export function resendVerification(email: string) {
  return apiRequest<Record<string, never>>("/api/auth/resend", { method: "POST", body: { email, type: "signup" } });
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

export function signOutRequest(token: string, scope: "local" | "global") {
  return apiRequest<void>(`/api/auth/logout?scope=${scope}`, { method: "POST", token, credentials: "include" });
}

export function getUser() {
  return apiRequest<{ user: User }>("/api/auth/user", { auth: true });
}

export function requestPasswordReset(email: string) {
  return apiRequest<Record<string, never>>("/api/auth/recover", { method: "POST", body: { email } });
}

export function resetPassword(body: { token: string; password: string }) {
  return apiRequest<Record<string, never>>("/api/auth/reset", { method: "POST", body });
}

export function changePassword(body: { current_password: string; password: string }) {
  return apiRequest<Record<string, never>>("/api/auth/password", { method: "POST", body, auth: true });
}

export function deleteAccount(password: string) {
  return apiRequest<void>("/api/account", { method: "DELETE", body: { password }, auth: true });
}
