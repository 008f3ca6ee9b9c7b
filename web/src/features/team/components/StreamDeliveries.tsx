import { type FormEvent, useState } from "react";
import { Button } from "../../../components/ui/Button";
import { Spinner } from "../../../components/ui/Spinner";
import { TextField } from "../../../components/ui/TextField";
import type { Guard } from "../../../lib/api/mutations";
import type { EventStreamDelivery } from "../../../lib/api/types";
import { useDeliveries, useReplay } from "../api/streams";
import { errorMessage, Problem } from "./TeamParts";

const time = (iso: string) => new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" });

function DeliveryRow({ d }: { d: EventStreamDelivery }) {
  return (
    <tr className="border-t border-slate-200">
      <td className="py-1 pr-3">{time(d.attempted_at)}</td>
      <td className="py-1 pr-3">{d.status === "delivered" ? "Delivered" : "Failed"}</td>
      <td className="py-1 pr-3">{d.events}</td>
      <td className="py-1 pr-3">{d.latency_ms} ms</td>
      <td className="py-1 pr-3">{d.response_code ?? (d.error ? `— ${d.error}` : "—")}</td>
      <td className="py-1">{d.next_retry_at ? time(d.next_retry_at) : "—"}</td>
    </tr>
  );
}

/** A stream's last 100 deliveries, newest first. */
export function StreamDeliveries({ id }: { id: string }) {
  const deliveries = useDeliveries(id, true);
  if (deliveries.isPending)
    return (
      <p role="status" className="mt-3 flex items-center gap-2 text-sm text-slate-600">
        <Spinner /> Loading deliveries...
      </p>
    );
  if (deliveries.isError) return <Problem className="mt-3">Could not load the deliveries.</Problem>;
  if (deliveries.data.length === 0) return <p className="mt-3 text-sm text-slate-600">No deliveries yet.</p>;
  return (
    <div className="mt-3 overflow-x-auto">
      <table aria-label="Deliveries" className="w-full text-left text-sm text-slate-700">
        <thead>
          <tr>
            <th className="pr-3 font-medium">Attempted</th>
            <th className="pr-3 font-medium">Status</th>
            <th className="pr-3 font-medium">Events</th>
            <th className="pr-3 font-medium">Latency</th>
            <th className="pr-3 font-medium">Response</th>
            <th className="font-medium">Next retry</th>
          </tr>
        </thead>
        <tbody>
          {deliveries.data.map((d) => (
            <DeliveryRow key={d.id} d={d} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** "Replay from" a date: the stream's events since then are queued again, in order. */
export function ReplayFrom({ id, guard }: { id: string; guard: Guard }) {
  const replay = useReplay(guard);
  const [since, setSince] = useState("");
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    setDone(null);
    try {
      const events = await replay.mutateAsync({ id, since });
      setDone(`${events} ${events === 1 ? "event" : "events"} queued again.`);
    } catch (caught) {
      setError(errorMessage(caught));
    }
  }

  return (
    <form noValidate onSubmit={(e) => void onSubmit(e)} className="mt-3 flex flex-wrap items-end gap-2">
      <TextField label="Replay from" type="date" value={since} error={error} onChange={(e) => setSince(e.target.value)} />
      <Button type="submit" variant="secondary" disabled={replay.isPending || !since} aria-busy={replay.isPending}>
        {replay.isPending ? "Replaying..." : "Replay"}
      </Button>
      {done && (
        <p role="status" className="text-sm text-slate-700">
          {done}
        </p>
      )}
    </form>
  );
}
