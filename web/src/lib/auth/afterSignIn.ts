//! Where a fresh sign-in leads: where the visitor was going, unless a team of theirs requires a
//! second factor they have not set up (`GET /api/auth/mfa`, the server's decision) — then to
//! Settings → Security to set one up first.

import { getMfaStatus } from "../api/mfa";
import type { MfaStatus } from "../api/types";

export const FACTOR_SETUP = "/settings#security";

export function mustSetUpFactor(status: MfaStatus | null): boolean {
  return !!status && status.required && !status.totp && status.passkeys === 0;
}

/** The path to go to after signing in; a failed status read goes where the visitor was going. */
export async function afterSignIn(target: string): Promise<string> {
  const status = await getMfaStatus().catch(() => null);
  return mustSetUpFactor(status) ? FACTOR_SETUP : target;
}
