//! Second factors (docs/api.md "Second factor"): the authenticator app (TOTP) with its recovery codes,
//! passkeys (WebAuthn), and the sign-in grants that finish with one.

import { apiRequest } from "./client";
import type {
  MfaStatus,
  Passkey,
  PasskeyChallenge,
  RecoveryCodes,
  RegistrationResponseJSON,
  Session,
  AuthenticationResponseJSON,
  TotpEnrolment,
} from "./types";

export function getMfaStatus() {
  return apiRequest<MfaStatus>("/api/auth/mfa", { auth: true });
}

/** A new pending enrolment (replacing an older pending one): the secret and its `otpauth://` URI. */
export function startTotp() {
  return apiRequest<TotpEnrolment>("/api/auth/mfa/totp", { method: "POST", auth: true });
}

export function confirmTotp(code: string) {
  return apiRequest<RecoveryCodes>("/api/auth/mfa/totp/confirm", { method: "POST", body: { code }, auth: true });
}

/** A TOTP or a recovery code; a sensitive action (step-up). */
export function disableTotp(code: string) {
  return apiRequest<void>("/api/auth/mfa/totp", { method: "DELETE", body: { code }, auth: true });
}

/** A new set of recovery codes for a current TOTP code; the old ones stop working. */
export function regenerateRecoveryCodes(code: string) {
  return apiRequest<RecoveryCodes>("/api/auth/mfa/recovery-codes", { method: "POST", body: { code }, auth: true });
}

/** Finishes a password sign-in that answered `mfa_required`, with a TOTP or a recovery code. */
export function signInWithMfa(body: { mfa_token: string; code: string }) {
  return apiRequest<Session>("/api/auth/token?grant_type=mfa", { method: "POST", body, credentials: "include" });
}

/** A passkey sign-in: discoverable (no `mfa_token`) or the second factor of a password sign-in. */
export function signInWithPasskey(body: { challenge_id: string; credential: AuthenticationResponseJSON; mfa_token?: string }) {
  return apiRequest<Session>("/api/auth/token?grant_type=passkey", { method: "POST", body, credentials: "include" });
}

/** A step-up challenge for the signed-in caller's passkeys (`POST /api/auth/reauthenticate`'s `passkey`). */
export function stepUpChallenge(token: string) {
  return apiRequest<PasskeyChallenge<"get">>("/api/auth/passkeys/challenge", { method: "POST", body: {}, token });
}

/** Options for `navigator.credentials.get` (no auth: sign-in, or the second factor with `mfa_token`). */
export function passkeyChallenge(mfaToken?: string) {
  return apiRequest<PasskeyChallenge<"get">>("/api/auth/passkeys/challenge", {
    method: "POST",
    body: mfaToken ? { mfa_token: mfaToken } : {},
  });
}

export function startPasskeyRegistration(name: string) {
  return apiRequest<PasskeyChallenge<"create">>("/api/auth/passkeys/registration", {
    method: "POST",
    body: { name },
    auth: true,
  });
}

export function finishPasskeyRegistration(body: { challenge_id: string; name: string; credential: RegistrationResponseJSON }) {
  return apiRequest<Passkey>("/api/auth/passkeys", { method: "POST", body, auth: true });
}

export function listPasskeys() {
  return apiRequest<{ passkeys: Passkey[] }>("/api/auth/passkeys", { auth: true });
}

export function deletePasskey(id: string) {
  return apiRequest<void>(`/api/auth/passkeys/${encodeURIComponent(id)}`, { method: "DELETE", auth: true });
}
