//! The mock's second-factor state (handlers/mfa.ts), part of `db`'s tables.

/** A user's second factors (handlers/mfa.ts): the codes are the fixtures there. */
export interface MfaRow {
  pendingSecret: string | null;
  totp: boolean;
  recoveryCodes: string[];
  passkeys: { id: string; credentialId: string; name: string; created_at: string; last_used_at: string | null }[];
  /** A team of theirs requires a factor. */
  required: boolean;
}

export const mfaTables = () => ({
  /** Second factors by user id, pending sign-ins by `mfa_token`, WebAuthn challenges by id. */
  mfa: new Map<string, MfaRow>(),
  mfaTokens: new Map<string, { userId: string; used: boolean }>(),
  passkeyChallenges: new Map<string, { purpose: "register" | "sign-in" | "step-up"; userId: string | null; name?: string }>(),
});
