//! Second factors (docs/api.md "Second factor"), thin: the mock's authenticator app always shows
//! `MOCK_TOTP_CODE`, recovery codes are fixtures (single use), a passkey is known by its credential id.
//! The API's own rules (time steps, replay, counters, attempt budgets) are not re-implemented here.

import { HttpResponse } from "msw";
import type { MfaMethod } from "../../lib/api/client";
import type { Passkey } from "../../lib/api/types";
import { db } from "../db";
import type { MfaRow } from "../mfaState";
import { type MockRoute, apiError, authenticate, readBody, reauthenticationRequired, sessionResponse } from "./common";

export const MOCK_TOTP_SECRET = "JBSWY3DPEHPK3PXP";
export const MOCK_TOTP_CODE = "123456";
/** The n-th set of recovery codes (`xxxxx-xxxxx`). */
export const mockRecoveryCodes = (set = 1) =>
  Array.from({ length: 10 }, (_, i) => `${"abcdefghjk"[i]!.repeat(4)}${set}-${String(i).repeat(5)}`);

export function mfaOf(userId: string): MfaRow {
  let row = db.mfa.get(userId);
  if (!row) db.mfa.set(userId, (row = { pendingSecret: null, totp: false, recoveryCodes: [], passkeys: [], required: false }));
  return row;
}

const methodsOf = (row: MfaRow): MfaMethod[] => [
  ...(row.totp ? (["totp", "recovery_code"] as const) : []),
  ...(row.passkeys.length ? (["passkey"] as const) : []),
];

/** Seeds an enrolled authenticator app (and its first recovery codes) for `email`. */
export function seedTotp(email: string) {
  const row = mfaOf(db.findUser(email)!.user.id);
  row.totp = true;
  row.recoveryCodes = mockRecoveryCodes();
  return row;
}

async function codeOf(request: Request) {
  const code = (await readBody<"MfaCodeBody">(request)).code as unknown;
  return typeof code === "string" ? code : "";
}

const invalidCode = (status: 400 | 401) => apiError(status, "invalid_code", "That code is not valid. Try again.");

/** A TOTP code, or (when `recovery`) an unused recovery code, which is then spent. */
function acceptCode(row: MfaRow, raw: string, recovery: boolean): boolean {
  const code = raw.trim().toLowerCase().replace(/-/g, "");
  if (row.totp && code === MOCK_TOTP_CODE) return true;
  const index = recovery ? row.recoveryCodes.findIndex((c) => c.replace(/-/g, "") === code) : -1;
  if (index < 0) return false;
  row.recoveryCodes.splice(index, 1);
  return true;
}

function mfaRequired(row: MfaRow, mfaToken?: string) {
  return HttpResponse.json(
    {
      error: {
        code: "mfa_required",
        message: "Enter the 6-digit code from your authenticator app.",
        ...(mfaToken ? { mfa_token: mfaToken } : {}),
        methods: methodsOf(row),
      },
    },
    { status: 401 },
  );
}

/** The password grant's answer for an account with a factor (account.ts), or null. */
export function passwordNeedsFactor(userId: string) {
  const row = db.mfa.get(userId);
  if (!row || methodsOf(row).length === 0) return null;
  const token = db.id("mfa");
  db.mfaTokens.set(token, { userId, used: false });
  return mfaRequired(row, token);
}

type StepUp = { code?: string | null; passkey?: { challenge_id?: string; credential?: { id?: string } } | null };

/** `POST /api/auth/reauthenticate`'s second factor (account.ts), or null when none is needed. */
export function stepUpNeedsFactor(userId: string, { code, passkey }: StepUp) {
  const row = db.mfa.get(userId);
  if (!row || methodsOf(row).length === 0) return null;
  if (passkey) {
    const challenge = db.passkeyChallenges.get(passkey.challenge_id ?? "");
    db.passkeyChallenges.delete(passkey.challenge_id ?? "");
    const key = row.passkeys.find((p) => p.credentialId === passkey.credential?.id);
    const ok = challenge?.purpose === "step-up" && challenge.userId === userId && key;
    return ok ? null : apiError(400, "invalid_passkey", "This passkey could not be verified. Try again.");
  }
  if (!code || !row.totp) return mfaRequired(row);
  return acceptCode(row, code, true) ? null : invalidCode(401);
}

const badToken = () => apiError(401, "invalid_mfa_token", "This sign-in has expired. Please sign in again.");

/** `grant_type=mfa` and `grant_type=passkey` (account.ts). */
export async function factorGrant(request: Request, grant: "mfa" | "passkey") {
  const body = (await request.json()) as {
    mfa_token?: string;
    code?: string;
    challenge_id?: string;
    credential?: { id?: string };
  };
  const pending = body.mfa_token ? db.mfaTokens.get(body.mfa_token) : undefined;
  if (body.mfa_token && (!pending || pending.used)) return badToken();
  if (grant === "mfa") {
    if (!pending) return badToken();
    if (!acceptCode(mfaOf(pending.userId), body.code ?? "", true)) return invalidCode(401);
    pending.used = true;
    return sessionResponse(db.startSession(pending.userId));
  }
  const challenge = db.passkeyChallenges.get(body.challenge_id ?? "");
  if (!challenge || challenge.purpose !== "sign-in")
    return apiError(400, "challenge_expired", "This passkey request has expired.");
  db.passkeyChallenges.delete(body.challenge_id!);
  for (const [userId, row] of db.mfa) {
    const key = row.passkeys.find((p) => p.credentialId === body.credential?.id);
    if (!key || (pending && pending.userId !== userId)) continue;
    key.last_used_at = db.iso(db.now());
    if (pending) pending.used = true;
    return sessionResponse(db.startSession(userId));
  }
  return apiError(400, "invalid_passkey", "This passkey is not registered.");
}

export const toPasskey = ({ id, name, created_at, last_used_at }: MfaRow["passkeys"][number]): Passkey => ({
  id,
  name,
  created_at,
  last_used_at,
});

const requestOptions = (challenge: string) => ({
  challenge,
  rpId: "localhost",
  userVerification: "preferred",
  allowCredentials: [],
});

export const mfaRoutes: MockRoute[] = [
  {
    method: "get",
    path: "/api/auth/mfa",
    resolver: ({ request }) => {
      const auth = authenticate(request);
      if ("error" in auth) return auth.error;
      const row = mfaOf(auth.row.user.id);
      return HttpResponse.json({
        totp: row.totp,
        recovery_codes_remaining: row.recoveryCodes.length,
        passkeys: row.passkeys.length,
        required: row.required || Boolean(db.team.teamOf(auth.row.user.id)?.requireMfa),
      });
    },
  },
  {
    method: "post",
    path: "/api/auth/mfa/totp",
    resolver: ({ request }) => {
      const auth = authenticate(request);
      if ("error" in auth) return auth.error;
      const stale = reauthenticationRequired(auth.session);
      if (stale) return stale;
      const row = mfaOf(auth.row.user.id);
      if (row.totp) return apiError(409, "mfa_already_enrolled", "An authenticator app is already set up.");
      row.pendingSecret = MOCK_TOTP_SECRET;
      const label = encodeURIComponent(`Closewise:${auth.row.user.email}`);
      return HttpResponse.json({
        secret: MOCK_TOTP_SECRET,
        otpauth_uri: `otpauth://totp/${label}?secret=${MOCK_TOTP_SECRET}&issuer=Closewise&algorithm=SHA1&digits=6&period=30`,
      });
    },
  },
  {
    method: "post",
    path: "/api/auth/mfa/totp/confirm",
    resolver: async ({ request }) => {
      const auth = authenticate(request);
      if ("error" in auth) return auth.error;
      const stale = reauthenticationRequired(auth.session);
      if (stale) return stale;
      const row = mfaOf(auth.row.user.id);
      const code = await codeOf(request);
      if (row.totp) return apiError(409, "mfa_already_enrolled", "An authenticator app is already set up.");
      if (!row.pendingSecret) return apiError(409, "no_pending_enrolment", "Start setting up the authenticator app first.");
      if (code.trim() !== MOCK_TOTP_CODE) return invalidCode(400);
      row.totp = true;
      row.pendingSecret = null;
      row.recoveryCodes = mockRecoveryCodes();
      return HttpResponse.json({ recovery_codes: row.recoveryCodes });
    },
  },
  {
    method: "delete",
    path: "/api/auth/mfa/totp",
    resolver: async ({ request }) => {
      const auth = authenticate(request);
      if ("error" in auth) return auth.error;
      const stale = reauthenticationRequired(auth.session);
      if (stale) return stale;
      const row = mfaOf(auth.row.user.id);
      if (!acceptCode(row, await codeOf(request), true)) return invalidCode(400);
      row.totp = false;
      row.recoveryCodes = [];
      return new HttpResponse(null, { status: 204 });
    },
  },
  {
    method: "post",
    path: "/api/auth/mfa/recovery-codes",
    resolver: async ({ request }) => {
      const auth = authenticate(request);
      if ("error" in auth) return auth.error;
      const stale = reauthenticationRequired(auth.session);
      if (stale) return stale;
      const row = mfaOf(auth.row.user.id);
      if (!acceptCode(row, await codeOf(request), false)) return invalidCode(400);
      row.recoveryCodes = mockRecoveryCodes(row.recoveryCodes[0]?.[4] === "1" ? 2 : 1);
      return HttpResponse.json({ recovery_codes: row.recoveryCodes });
    },
  },
  {
    method: "post",
    path: "/api/auth/passkeys/registration",
    resolver: async ({ request }) => {
      const auth = authenticate(request);
      if ("error" in auth) return auth.error;
      const stale = reauthenticationRequired(auth.session);
      if (stale) return stale;
      const { name } = (await request.json()) as { name: string };
      const challenge_id = crypto.randomUUID();
      db.passkeyChallenges.set(challenge_id, { purpose: "register", userId: auth.row.user.id, name });
      const { user } = auth.row;
      return HttpResponse.json({
        challenge_id,
        options: {
          challenge: "Y2hhbGxlbmdl",
          rp: { id: "localhost", name: "Closewise" },
          user: { id: "dXNlcg", name: user.email, displayName: user.email },
          pubKeyCredParams: [{ type: "public-key", alg: -7 }],
          authenticatorSelection: { residentKey: "required", userVerification: "required" },
          excludeCredentials: mfaOf(user.id).passkeys.map((p) => ({ type: "public-key", id: p.credentialId })),
        },
      });
    },
  },
  {
    method: "post",
    path: "/api/auth/passkeys",
    resolver: async ({ request }) => {
      const auth = authenticate(request);
      if ("error" in auth) return auth.error;
      const stale = reauthenticationRequired(auth.session);
      if (stale) return stale;
      const body = (await request.json()) as { challenge_id: string; name: string; credential: { id?: string } };
      const challenge = db.passkeyChallenges.get(body.challenge_id);
      if (!challenge || challenge.purpose !== "register" || challenge.userId !== auth.row.user.id)
        return apiError(400, "challenge_expired", "This passkey request has expired.");
      db.passkeyChallenges.delete(body.challenge_id);
      if (!body.credential.id) return apiError(400, "invalid_passkey", "This passkey response is not valid.");
      const key = {
        id: crypto.randomUUID(),
        credentialId: body.credential.id,
        name: body.name,
        created_at: db.iso(db.now()),
        last_used_at: null,
      };
      mfaOf(auth.row.user.id).passkeys.push(key);
      return HttpResponse.json(toPasskey(key), { status: 201 });
    },
  },
  {
    method: "get",
    path: "/api/auth/passkeys",
    resolver: ({ request }) => {
      const auth = authenticate(request);
      if ("error" in auth) return auth.error;
      return HttpResponse.json({ passkeys: mfaOf(auth.row.user.id).passkeys.map(toPasskey) });
    },
  },
  {
    method: "delete",
    path: "/api/auth/passkeys/{id}",
    resolver: ({ request, params }) => {
      const auth = authenticate(request);
      if ("error" in auth) return auth.error;
      const stale = reauthenticationRequired(auth.session);
      if (stale) return stale;
      const row = mfaOf(auth.row.user.id);
      const index = row.passkeys.findIndex((p) => p.id === params.id);
      if (index < 0) return apiError(404, "passkey_not_found", "This passkey was not found.");
      row.passkeys.splice(index, 1);
      return new HttpResponse(null, { status: 204 });
    },
  },
  {
    method: "post",
    path: "/api/auth/passkeys/challenge",
    resolver: ({ request }) => {
      const challenge_id = crypto.randomUUID();
      const auth = request.headers.has("authorization") ? authenticate(request) : null;
      if (auth && "error" in auth) return auth.error;
      const userId = auth ? auth.row.user.id : null;
      db.passkeyChallenges.set(challenge_id, { purpose: userId ? "step-up" : "sign-in", userId });
      return HttpResponse.json({ challenge_id, options: requestOptions("c2lnbi1pbg") });
    },
  },
];
