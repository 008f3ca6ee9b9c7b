import { Copy, RadioTower } from "lucide-react";
import { useState } from "react";
import toast from "react-hot-toast";
import { useConfirmPassword } from "../../../components/account/ConfirmPassword";
import { Button } from "../../../components/ui/Button";
import { Modal } from "../../../components/ui/Modal";
import { Spinner } from "../../../components/ui/Spinner";
import type { NewEventStream } from "../../../lib/api/streams";
import type { EventStream } from "../../../lib/api/types";
import { type StreamAction, useStreams, useStreamAction } from "../api/streams";
import { AddStream, STREAM_KINDS } from "./AddStream";
import { ReplayFrom, StreamDeliveries } from "./StreamDeliveries";
import { errorMessage, Problem, Section, shortDate, TEAM_PAGE_HEADING } from "./TeamParts";

const FALLBACK_FOCUS = ["team-streams", TEAM_PAGE_HEADING];

const HOW_IT_WORKS =
  "Send the team's audit events to your SIEM and its member, seat, subscription, policy and SSO events to your own systems, in order, retried for up to 3 days. At most 5 destinations.";

function status(s: EventStream) {
  if (s.status === "paused")
    return `Paused${s.paused_at ? ` since ${shortDate(s.paused_at)}` : ""}: choose Retry now once it is fixed`;
  if (s.status === "failing")
    return `Failing (${s.failures} ${s.failures === 1 ? "attempt" : "attempts"} in a row)${
      s.next_attempt_at ? `, next attempt ${new Date(s.next_attempt_at).toLocaleString("en-US")}` : ""
    }`;
  return "Active";
}

function Secret({ secret, rotated }: { secret: string; rotated: boolean }) {
  async function copy() {
    await navigator.clipboard.writeText(secret);
    toast.success("Secret copied");
  }
  return (
    <div role="status" className="mt-4 space-y-2 rounded-xl border border-amber-200 bg-amber-50 p-4">
      <p className="font-medium text-amber-900">Copy this signing secret now: it is not shown again.</p>
      {rotated && <p className="text-sm text-amber-900">The old secret keeps signing beside it for 24 hours.</p>}
      <code className="block break-all rounded bg-white p-2 text-sm">{secret}</code>
      <Button variant="secondary" onClick={() => void copy()}>
        <Copy aria-hidden className="h-4 w-4" /> Copy secret
      </Button>
    </div>
  );
}

function ConfirmDelete({
  stream,
  busy,
  onConfirm,
  onClose,
}: {
  stream: EventStream;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Modal open onClose={onClose} title="Delete this event stream?" fallbackFocus={FALLBACK_FOCUS}>
      <p className="break-all text-slate-700">
        Nothing more is sent to {stream.url}, and the events still waiting for it are dropped. It cannot be undone.
      </p>
      <div className="mt-6 flex flex-wrap justify-end gap-3">
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button variant="danger" disabled={busy} aria-busy={busy} onClick={onConfirm}>
          {busy ? "Deleting..." : "Delete stream"}
        </Button>
      </div>
    </Modal>
  );
}

interface RowProps {
  stream: EventStream;
  busy: StreamAction | null;
  guard: Parameters<typeof ReplayFrom>[0]["guard"];
  act: (action: StreamAction) => void;
}

function StreamRow({ stream, busy, guard, act }: RowProps) {
  const [open, setOpen] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const kind = STREAM_KINDS[stream.kind as NewEventStream["kind"]] ?? stream.kind;
  return (
    <li className="py-4">
      <div className="text-sm text-slate-700">
        <p className="font-medium text-slate-900">
          {kind} · <span className="break-all font-mono">{stream.url}</span>
        </p>
        <p>{stream.events.join(", ")}</p>
        <p>
          {status(stream)}
          {stream.pending > 0 && ` · ${stream.pending} ${stream.pending === 1 ? "event" : "events"} waiting`}
          {stream.previous_secret_expires_at &&
            ` · the previous secret signs until ${new Date(stream.previous_secret_expires_at).toLocaleString("en-US")}`}
        </p>
      </div>
      <div className="mt-2 flex flex-wrap gap-2">
        <Button variant="secondary" disabled={busy !== null} aria-busy={busy === "test"} onClick={() => act("test")}>
          Send test event
        </Button>
        {stream.status !== "active" && (
          <Button variant="secondary" disabled={busy !== null} aria-busy={busy === "retry"} onClick={() => act("retry")}>
            Retry now
          </Button>
        )}
        {stream.kind === "https" && (
          <Button variant="secondary" disabled={busy !== null} aria-busy={busy === "rotate"} onClick={() => act("rotate")}>
            Rotate secret
          </Button>
        )}
        <Button variant="secondary" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? "Hide deliveries" : "Show deliveries"}
        </Button>
        <Button variant="secondary" disabled={busy !== null} onClick={() => setConfirming(true)}>
          Delete
        </Button>
      </div>
      {open && <StreamDeliveries id={stream.id} />}
      <ReplayFrom id={stream.id} guard={guard} />
      {confirming && (
        <ConfirmDelete
          stream={stream}
          busy={busy === "delete"}
          onClose={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            act("delete");
          }}
        />
      )}
    </li>
  );
}

/** The owner's event streams on `/team`: list, add, test, rotate, deliveries, retry, replay, delete. */
export function EventStreams() {
  const streams = useStreams();
  const password = useConfirmPassword();
  const change = useStreamAction(password.guard);
  const [secret, setSecret] = useState<{ value: string; rotated: boolean } | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function act(id: string, action: StreamAction) {
    setError(null);
    try {
      const rotated = await change.mutateAsync({ id, action });
      if (rotated) setSecret({ value: rotated, rotated: true });
      if (action === "test") toast.success("Test event sent");
      if (action === "delete") toast.success("Event stream deleted");
    } catch (e) {
      setError(errorMessage(e));
    }
  }
  const busyOf = (id: string) => (change.isPending && change.variables.id === id ? change.variables.action : null);

  return (
    // The paused-stream mail links to this section's anchor (`/team#team-streams`).
    <Section id="team-streams" title="Event streams" icon={<RadioTower aria-hidden className="h-5 w-5" />}>
      <p className="mt-2 text-slate-700">{HOW_IT_WORKS}</p>
      {password.dialog}
      {secret && <Secret secret={secret.value} rotated={secret.rotated} />}
      {error && <Problem className="mt-4">{error}</Problem>}
      {streams.isPending && (
        <p role="status" className="mt-4 flex items-center gap-2 text-slate-600">
          <Spinner /> Loading event streams...
        </p>
      )}
      {streams.isError && <Problem className="mt-4">Could not load the event streams.</Problem>}
      {streams.data?.length === 0 && <p className="mt-4 text-slate-600">No event streams yet.</p>}
      {streams.data && streams.data.length > 0 && (
        <ul aria-label="Event streams" className="mt-4 divide-y divide-slate-200">
          {streams.data.map((s) => (
            <StreamRow
              key={s.id}
              stream={s}
              busy={busyOf(s.id)}
              guard={password.guard}
              act={(action) => void act(s.id, action)}
            />
          ))}
        </ul>
      )}
      <AddStream guard={password.guard} onSecret={(value) => setSecret({ value, rotated: false })} />
    </Section>
  );
}
