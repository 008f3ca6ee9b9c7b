//! The team's event streams (docs/api.md "Event streams"), the owner's: destinations for the team's
//! audit events and webhook events, their deliveries, a test event, the signing secret's rotation,
//! "Retry now" and replay.

import { apiRequest } from "./client";
import type { EventStream, EventStreamCreated, EventStreamDelivery } from "./types";

/** What the owner asks for; `token` for Splunk HEC and Datadog only, no `events`: all of them. */
export interface NewEventStream {
  kind: "https" | "splunk_hec" | "datadog";
  url: string;
  token?: string;
  events?: string[];
}

const path = (id: string, action = "") => `/api/team/streams/${encodeURIComponent(id)}${action}`;

export function getStreams() {
  return apiRequest<{ streams: EventStream[] }>("/api/team/streams", { auth: true });
}

/** An https stream's signing secret is in this answer only. */
export function createStream(stream: NewEventStream) {
  return apiRequest<EventStreamCreated>("/api/team/streams", { method: "POST", body: stream, auth: true });
}

export function deleteStream(id: string) {
  return apiRequest<void>(path(id), { method: "DELETE", auth: true });
}

export function sendTestEvent(id: string) {
  return apiRequest<{ event_id: string }>(path(id, "/test"), { method: "POST", auth: true });
}

/** A new signing secret, in this answer only; the old one keeps signing for 24 hours. */
export function rotateStreamSecret(id: string) {
  return apiRequest<{ secret: string }>(path(id, "/secret"), { method: "POST", auth: true });
}

export function getStreamDeliveries(id: string) {
  return apiRequest<{ deliveries: EventStreamDelivery[] }>(path(id, "/deliveries"), { auth: true });
}

export function retryStream(id: string) {
  return apiRequest<EventStream>(path(id, "/retry"), { method: "POST", auth: true });
}

/** `since`: `YYYY-MM-DD` (midnight UTC) or an RFC 3339 time; how many events are queued again. */
export function replayStream(id: string, since: string) {
  return apiRequest<{ events: number }>(path(id, "/replay"), { method: "POST", body: { since }, auth: true });
}
