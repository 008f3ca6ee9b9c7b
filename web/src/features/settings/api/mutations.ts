//! Settings → Security's changes as `useMutation` hooks, each with the invalidation it implies: a
//! second factor turned on or off, new recovery codes, a passkey added or removed change what
//! `GET /api/auth/mfa` answers (and the passkeys list), so the caller's "mfa" queries are read again,
//! inactive ones too (a team's policy banner elsewhere reads the same status).

import { useMutation, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { ApiError } from "../../../lib/api/client";
import {
  confirmTotp,
  deletePasskey,
  disableTotp,
  finishPasskeyRegistration,
  regenerateRecoveryCodes,
  startPasskeyRegistration,
  startTotp,
} from "../../../lib/api/mfa";
import { unguarded, type Guard } from "../../../lib/api/mutations";
import { useAuth } from "../../../lib/auth/AuthProvider";
import { createPasskey } from "../../../lib/webauthn";

/** The second factors changed: the status and the passkeys are read again (`queryKeys.mfa` is their root). */
function factorsChanged(client: QueryClient, userId: string) {
  return client.invalidateQueries({ queryKey: ["mfa", userId], refetchType: "all" });
}

function useFactorsChanged() {
  const client = useQueryClient();
  const { user } = useAuth();
  return () => factorsChanged(client, user?.id ?? "");
}

/**
 * "Set up an authenticator app": a secret to scan; nothing is on until it is confirmed. Adding a
 * factor is a sensitive action: `guard` asks for the password when the API wants it.
 */
export function useStartTotp(guard: Guard = unguarded) {
  return useMutation({ mutationFn: () => guard(startTotp) });
}

/** The first code from the app turns it on and answers the recovery codes (`guard` as above). */
export function useConfirmTotp(guard: Guard = unguarded) {
  const changed = useFactorsChanged();
  return useMutation({ mutationFn: (code: string) => guard(() => confirmTotp(code)), onSuccess: changed });
}

export function useDisableTotp() {
  const changed = useFactorsChanged();
  return useMutation({ mutationFn: (code: string) => disableTotp(code), onSuccess: changed });
}

/** New recovery codes: the count left goes back to ten. */
export function useRegenerateRecoveryCodes() {
  const changed = useFactorsChanged();
  return useMutation({ mutationFn: (code: string) => regenerateRecoveryCodes(code), onSuccess: changed });
}

/**
 * The server's options, the browser's new credential, and the server keeps it under `name`. Adding a
 * factor is a sensitive action: `guard` asks for the password when the API wants it.
 */
export function useAddPasskey(guard: Guard = unguarded) {
  const changed = useFactorsChanged();
  return useMutation({
    mutationFn: async (name: string) => {
      const { challenge_id, options } = await guard(() => startPasskeyRegistration(name));
      const credential = await createPasskey(options);
      return guard(() => finishPasskeyRegistration({ challenge_id, name, credential }));
    },
    onSuccess: changed,
  });
}

/**
 * Remove a passkey (a sensitive action: `guard` asks for the password when the API wants it). One
 * already gone (404 passkey_not_found) is what was asked for; the list is read again either way.
 */
export function useRemovePasskey(guard: Guard) {
  const changed = useFactorsChanged();
  return useMutation({
    mutationFn: async (id: string) => {
      try {
        await guard(() => deletePasskey(id));
        return "removed" as const;
      } catch (error) {
        if (error instanceof ApiError && error.code === "passkey_not_found") return "gone" as const;
        throw error;
      }
    },
    onSettled: changed,
  });
}
