//! Event streams (docs/api.md "Event streams"): the owner adds one (an https stream's secret in
//! that answer only), lists them, sends a test event, rotates the secret, reads the deliveries,
//! retries, replays and removes one. Kept on the team's row, so they go with the mock's reset. A
//! test event is "delivered" at once: the list of deliveries shows it.

import type { EventStream, EventStreamDelivery } from "../../lib/api/types";
import type { TeamRow } from "../teamStore";
import type { MockRoute } from "./common";
import { apiError } from "./common";
import { json, noContent, steppedUp, teamRoute } from "./teamCommon";

type Stored = EventStream & { deliveries: EventStreamDelivery[] };
const EVENTS = [
  "audit",
  "member.added",
  "member.removed",
  "seats.changed",
  "subscription.updated",
  "policy.updated",
  "sso.updated",
];
const streamsOf = (team: TeamRow) => ((team as TeamRow & { streams?: Stored[] }).streams ??= []);
const owner = (answer: (team: TeamRow, params: Record<string, unknown>, request: Request) => Response | Promise<Response>) =>
  (({ team }, request, params) => answer(team, params, request)) as Parameters<typeof teamRoute>[3];
const notFound = () => apiError(404, "stream_not_found", "There is no such event stream.");
const unprocessable = (code: string, message: string) => apiError(422, code, message);
const secret = () => `whsec_${btoa(crypto.randomUUID()).slice(0, 32)}`;
const view = ({ deliveries: _deliveries, ...s }: Stored): EventStream => s;

function urlAllowed(raw: string) {
  try {
    const url = new URL(raw);
    const loopback = ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
    return url.protocol === "https:" || (url.protocol === "http:" && loopback);
  } catch {
    return false;
  }
}

async function create(team: TeamRow, request: Request) {
  const body = (await request.json()) as { kind: string; url: string; token?: string | null; events?: string[] | null };
  if (!["https", "splunk_hec", "datadog"].includes(body.kind))
    return unprocessable("invalid_stream_kind", "kind must be one of https, splunk_hec or datadog.");
  if (!urlAllowed(body.url))
    return unprocessable("invalid_stream_url", "The destination must be an https URL at a public address.");
  const events = body.events?.length ? body.events : EVENTS;
  if (events.some((e) => !EVENTS.includes(e))) return unprocessable("invalid_stream_events", "Unknown event type.");
  if (body.kind !== "https" && !body.token?.trim())
    return unprocessable("stream_token_required", "Splunk HEC and Datadog destinations need their token.");
  if (body.kind === "https" && body.token?.trim())
    return unprocessable("stream_token_not_allowed", "An https destination is signed with its own secret: it takes no token.");
  const streams = streamsOf(team);
  if (streams.length >= 5) return apiError(409, "too_many_streams", "A team has at most 5 event streams. Delete one first.");
  const stream: Stored = {
    id: crypto.randomUUID(),
    kind: body.kind,
    url: body.url,
    events: EVENTS.filter((e) => events.includes(e)),
    status: "active",
    pending: 1,
    failures: 0,
    next_attempt_at: null,
    paused_at: null,
    previous_secret_expires_at: null,
    created_at: new Date().toISOString(),
    deliveries: [],
  };
  streams.push(stream);
  const answer = { id: stream.id, kind: stream.kind, url: stream.url, events: stream.events };
  return json(body.kind === "https" ? { ...answer, secret: secret() } : answer, 201);
}

const withStream = (answer: (stream: Stored, team: TeamRow, request: Request) => Response | Promise<Response>) =>
  owner((team, params, request) => {
    const stream = streamsOf(team).find((s) => s.id === params.id);
    return stream ? answer(stream, team, request) : notFound();
  });

/** Marks what is pending delivered by one request, as the worker would. */
function deliver(stream: Stored) {
  stream.deliveries.unshift({
    id: crypto.randomUUID(),
    attempted_at: new Date().toISOString(),
    status: "delivered",
    events: Math.max(stream.pending, 1),
    latency_ms: 42,
    response_code: 200,
    error: null,
    next_retry_at: null,
  });
  stream.deliveries.splice(100);
  Object.assign(stream, { pending: 0, failures: 0, status: "active", paused_at: null, next_attempt_at: null });
}

export const teamStreamsRoutes: MockRoute[] = [
  teamRoute(
    "post",
    "/api/team/streams",
    "manage_streams",
    steppedUp(({ team }, request) => create(team, request)),
  ),
  teamRoute(
    "get",
    "/api/team/streams",
    "manage_streams",
    owner((team) => json({ streams: streamsOf(team).map(view) })),
  ),
  teamRoute(
    "delete",
    "/api/team/streams/{id}",
    "manage_streams",
    steppedUp(({ team }, _request, params) => {
      const streams = streamsOf(team);
      const at = streams.findIndex((s) => s.id === params.id);
      if (at < 0) return notFound();
      streams.splice(at, 1);
      return noContent();
    }),
  ),
  teamRoute(
    "post",
    "/api/team/streams/{id}/test",
    "manage_streams",
    withStream((stream) => {
      deliver(stream);
      return json({ event_id: `evt_${crypto.randomUUID().replaceAll("-", "")}` }, 202);
    }),
  ),
  teamRoute(
    "post",
    "/api/team/streams/{id}/secret",
    "manage_streams",
    steppedUp(({ team }, _request, params) => {
      const stream = streamsOf(team).find((s) => s.id === params.id);
      if (!stream) return notFound();
      if (stream.kind !== "https")
        return apiError(409, "stream_not_signed", "Only an https stream is signed: it alone has a secret to rotate.");
      stream.previous_secret_expires_at = new Date(Date.now() + 24 * 3600 * 1000).toISOString();
      return json({ secret: secret() });
    }),
  ),
  teamRoute(
    "get",
    "/api/team/streams/{id}/deliveries",
    "manage_streams",
    withStream((stream) => json({ deliveries: stream.deliveries })),
  ),
  teamRoute(
    "post",
    "/api/team/streams/{id}/retry",
    "manage_streams",
    withStream((stream) => {
      deliver(stream);
      return json(view(stream));
    }),
  ),
  teamRoute(
    "post",
    "/api/team/streams/{id}/replay",
    "manage_streams",
    steppedUp(({ team }, request, params) => {
      const stream = streamsOf(team).find((s) => s.id === params.id);
      if (!stream) return notFound();
      return request.json().then((body: { since?: string }) => {
        const since = Date.parse(body.since ?? "");
        if (Number.isNaN(since) || since > Date.now())
          return unprocessable("invalid_since", "since must be a date (YYYY-MM-DD) or an RFC 3339 time, not in the future.");
        const events = stream.deliveries.reduce((n, d) => n + d.events, 0);
        stream.pending += events;
        return json({ events }, 202);
      });
    }),
  ),
];
