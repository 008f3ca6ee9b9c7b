//! The drift test's scenario for the second-factor handlers (handlers/mfa.ts): each endpoint through
//! its success and its refusals.

import { db } from "./db";
import { MOCK_TOTP_CODE, mfaOf, mockRecoveryCodes } from "./handlers/mfa";

type Call = (method: string, path: string, body?: unknown, token?: string) => Promise<number>;

export async function exerciseMfaHandlers(call: Call, pw: string) {
  const email = "factor@example.com";
  const user = db.createUser({ email, password: pw });
  const token = db.startSession(user.id).accessToken;
  await call("GET", "/api/auth/mfa");
  await call("GET", "/api/auth/mfa", undefined, token);
  await call("POST", "/api/auth/mfa/totp/confirm", { code: MOCK_TOTP_CODE }, token);
  await call("POST", "/api/auth/mfa/totp", undefined, token);
  await call("POST", "/api/auth/mfa/totp/confirm", { code: "000000" }, token);
  await call("POST", "/api/auth/mfa/totp/confirm", { code: MOCK_TOTP_CODE }, token);
  await call("POST", "/api/auth/mfa/totp/confirm", { code: MOCK_TOTP_CODE }, token);
  await call("POST", "/api/auth/mfa/totp", undefined, token);
  await call("POST", "/api/auth/mfa/recovery-codes", { code: "000000" }, token);
  await call("POST", "/api/auth/mfa/recovery-codes", { code: MOCK_TOTP_CODE }, token);
  // Sign-in: the password asks the factor, the mfa grant finishes it.
  await call("POST", "/api/auth/token?grant_type=password", { email, password: pw });
  const [mfaToken] = [...db.mfaTokens.keys()].slice(-1);
  await call("POST", "/api/auth/token?grant_type=mfa", { mfa_token: mfaToken, code: "000000" });
  await call("POST", "/api/auth/token?grant_type=mfa", { mfa_token: mfaToken, code: MOCK_TOTP_CODE });
  await call("POST", "/api/auth/token?grant_type=mfa", { mfa_token: mfaToken, code: MOCK_TOTP_CODE });
  await call("POST", "/api/auth/reauthenticate", { password: pw }, token);
  await call("POST", "/api/auth/reauthenticate", { password: pw, code: "000000" }, token);
  await call("POST", "/api/auth/reauthenticate", { password: pw, code: MOCK_TOTP_CODE }, token);
  // Passkeys.
  await call("POST", "/api/auth/passkeys/registration", { name: "Laptop" });
  await call("POST", "/api/auth/passkeys/registration", { name: "Laptop" }, token);
  const [registration] = [...db.passkeyChallenges.keys()].slice(-1);
  const credential = { id: "cred-contract", rawId: "cred-contract", type: "public-key", response: {} };
  await call("POST", "/api/auth/passkeys", { challenge_id: "unknown", name: "Laptop", credential }, token);
  await call("POST", "/api/auth/passkeys", { challenge_id: registration, name: "Laptop", credential }, token);
  await call("GET", "/api/auth/passkeys", undefined, token);
  await call("POST", "/api/auth/passkeys/challenge", {});
  const [signIn] = [...db.passkeyChallenges.keys()].slice(-1);
  await call("POST", "/api/auth/token?grant_type=passkey", { challenge_id: "unknown", credential });
  await call("POST", "/api/auth/token?grant_type=passkey", { challenge_id: signIn, credential });
  // Step-up with the passkey: a challenge for the bearer, answered in `reauthenticate`.
  await call("POST", "/api/auth/passkeys/challenge", {}, token);
  const [stepUp] = [...db.passkeyChallenges.keys()].slice(-1);
  await call("POST", "/api/auth/reauthenticate", { password: pw, passkey: { challenge_id: stepUp, credential } }, token);
  await call("POST", "/api/auth/reauthenticate", { password: pw, passkey: { challenge_id: stepUp, credential } }, token);
  const key = mfaOf(user.id).passkeys[0]!;
  await call("DELETE", `/api/auth/passkeys/${key.id}`, undefined, token);
  await call("DELETE", `/api/auth/passkeys/${key.id}`, undefined, token);
  await call("DELETE", "/api/auth/mfa/totp", { code: "000000" }, token);
  await call("DELETE", "/api/auth/mfa/totp", { code: mockRecoveryCodes(2)[0] }, token);
  for (const s of db.sessions) s.passwordAt = db.now() - 16 * 60_000;
  await call("DELETE", "/api/auth/mfa/totp", { code: MOCK_TOTP_CODE }, token);
}
