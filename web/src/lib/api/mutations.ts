//! Mutations through TanStack Query's `useMutation`, each with the cache updates it implies: what a
//! change makes stale is read again (inactive queries too, so the next page shows it at once).

import { useMutation, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { decideAuthorize, decideDeviceCode, signOutDevice } from "./desktop";
import type { AuthorizeDecision, AuthorizeParams } from "./types";

/** Runs a call, asking for the password first when the API wants it (`useConfirmPassword().guard`). */
export type Guard = <T>(call: () => Promise<T>) => Promise<T>;
export const unguarded: Guard = (call) => call();

/** A device signed in or out: the devices list (Settings → Devices) is read again, even when not shown. */
export function devicesChanged(client: QueryClient) {
  return client.invalidateQueries({ queryKey: ["devices"], refetchType: "all" });
}

/** `/activate`: approve or deny the device behind a code. Approving signs a device in. */
export function useDecideDeviceCode(guard: Guard = unguarded) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ userCode, decision }: { userCode: string; decision: "approve" | "deny" }) =>
      guard(() => decideDeviceCode(userCode, decision)),
    onSuccess: ({ status }) => (status === "approved" ? devicesChanged(client) : undefined),
  });
}

/** `/authorize`: let the desktop app in (it gets a device session) or refuse it. */
export function useDecideAuthorize(guard: Guard = unguarded) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ params, decision }: { params: Partial<AuthorizeParams>; decision: AuthorizeDecision }) =>
      guard(() => decideAuthorize(params, decision)),
    onSuccess: (_result, { decision }) => (decision === "allow" ? devicesChanged(client) : undefined),
  });
}

/** Settings → Devices: sign one desktop app out. Whatever the answer (gone already, failed), the list is read again. */
export function useSignOutDevice() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => signOutDevice(id),
    onSettled: () => devicesChanged(client),
  });
}
