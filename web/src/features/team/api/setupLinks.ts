//! The owner's setup links for IT on `/team` → Security as a query and `useMutation` hooks. Creating
//! and revoking take a `guard` that asks for the password when the server answers
//! `reauthentication_required`; both read the list again.

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { unguarded, type Guard } from "../../../lib/api/mutations";
import { createSetupLink, getSetupLinks, revokeSetupLink, type SetupStep } from "../../../lib/api/setupLinks";
import { useAuth } from "../../../lib/auth/AuthProvider";

export const setupLinksKey = (userId: string) => ["setup-links", userId] as const;

export function useSetupLinks() {
  const { user } = useAuth();
  return useQuery({ queryKey: setupLinksKey(user?.id ?? ""), queryFn: async () => (await getSetupLinks()).links });
}

function useRefresh() {
  const client = useQueryClient();
  const { user } = useAuth();
  return () => client.invalidateQueries({ queryKey: setupLinksKey(user?.id ?? "") });
}

/** Creates a link: its URL is in this answer only. */
export function useCreateSetupLink(guard: Guard = unguarded) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (steps: SetupStep[]) => guard(() => createSetupLink(steps)),
    onSuccess: refresh,
  });
}

export function useRevokeSetupLink(guard: Guard = unguarded) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: string) => guard(() => revokeSetupLink(id)),
    onSuccess: refresh,
  });
}
