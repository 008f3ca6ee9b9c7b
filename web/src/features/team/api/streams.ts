//! The owner's event streams on `/team` as queries and `useMutation` hooks. The sensitive changes
//! (add, delete, rotate the secret, replay) take a `guard` that asks for the password when the
//! server answers `reauthentication_required`; every change reads the list again, and the one
//! stream's deliveries when it touched them.

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { unguarded, type Guard } from "../../../lib/api/mutations";
import {
  createStream,
  deleteStream,
  getStreamDeliveries,
  getStreams,
  type NewEventStream,
  replayStream,
  retryStream,
  rotateStreamSecret,
  sendTestEvent,
} from "../../../lib/api/streams";
import { useAuth } from "../../../lib/auth/AuthProvider";

/** The subscribable events, in the order the form lists them (docs/api.md "What is sent"). */
export const STREAM_EVENTS = [
  "audit",
  "member.added",
  "member.removed",
  "seats.changed",
  "subscription.updated",
  "policy.updated",
  "sso.updated",
] as const;

export const streamsKey = (userId: string) => ["event-streams", userId] as const;
export const deliveriesKey = (userId: string, id: string) => ["event-streams", userId, id, "deliveries"] as const;

export function useStreams() {
  const { user } = useAuth();
  return useQuery({ queryKey: streamsKey(user?.id ?? ""), queryFn: async () => (await getStreams()).streams });
}

/** The stream's last 100 deliveries, newest first; read while `open`. */
export function useDeliveries(id: string, open: boolean) {
  const { user } = useAuth();
  return useQuery({
    queryKey: deliveriesKey(user?.id ?? "", id),
    queryFn: async () => (await getStreamDeliveries(id)).deliveries,
    enabled: open,
  });
}

function useRefresh() {
  const client = useQueryClient();
  const { user } = useAuth();
  return () => client.invalidateQueries({ queryKey: streamsKey(user?.id ?? "") });
}

/** Adds a stream: the answer carries an https stream's signing secret, shown once. */
export function useCreateStream(guard: Guard = unguarded) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (stream: NewEventStream) => guard(() => createStream(stream)),
    onSuccess: refresh,
  });
}

export type StreamAction = "delete" | "test" | "rotate" | "retry";

/** One stream's change: the new secret when it was rotated, else null. */
export function useStreamAction(guard: Guard = unguarded) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async ({ id, action }: { id: string; action: StreamAction }): Promise<string | null> => {
      if (action === "delete") await guard(() => deleteStream(id));
      if (action === "test") await sendTestEvent(id);
      if (action === "retry") await retryStream(id);
      return action === "rotate" ? (await guard(() => rotateStreamSecret(id))).secret : null;
    },
    onSuccess: refresh,
  });
}

/** Queues again the stream's events since a date: how many. */
export function useReplay(guard: Guard = unguarded) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async ({ id, since }: { id: string; since: string }) => (await guard(() => replayStream(id, since))).events,
    onSuccess: refresh,
  });
}
