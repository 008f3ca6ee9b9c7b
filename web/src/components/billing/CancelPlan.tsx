//! Cancelling a plan at the end of its period, with an optional reason, and taking it back:
//! "Cancel plan" opens a dialog with the reasons the server lists; a plan set to end says
//! "Your plan ends on …" with "Resume plan" until that date. The caller supplies the calls
//! (the user's own plan or the team's).

import { useId, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { getCancellationReasons } from "../../lib/api/billing";
import { ApiError } from "../../lib/api/client";
import type { CancellationReason } from "../../lib/api/types";
import { Button } from "../ui/Button";
import { Modal } from "../ui/Modal";
import { Select } from "../ui/Select";

export type Cancellable = {
  cancel_at_period_end: boolean;
  current_period_end?: number | null;
  cancellation_reason?: CancellationReason | null;
};

/** "March 3, 2027": the day the period ends. */
export function endDate(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric" });
}

function useReasons() {
  return useQuery({ queryKey: ["cancellation-reasons"], queryFn: getCancellationReasons, staleTime: Infinity });
}

function message(e: unknown): string {
  return e instanceof ApiError ? e.message : "An unexpected error occurred";
}

export function CancelPlan({
  subscription,
  onCancel,
  onResume,
}: {
  subscription: Cancellable;
  onCancel: (reason: CancellationReason | null) => Promise<unknown>;
  onResume: () => Promise<unknown>;
}) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const end = subscription.current_period_end;

  async function run(step: () => Promise<unknown>) {
    setBusy(true);
    setError(null);
    try {
      await step();
      return true;
    } catch (e) {
      setError(message(e));
      return false;
    } finally {
      setBusy(false);
    }
  }

  if (subscription.cancel_at_period_end) {
    return (
      <div className="mt-6 space-y-3 rounded-xl bg-amber-50 p-4 text-sm text-amber-900">
        <p className="font-medium">{end ? `Your plan ends on ${endDate(end)}.` : "Your plan ends at the end of this period."}</p>
        <Button variant="secondary" disabled={busy} aria-busy={busy} onClick={() => void run(onResume)}>
          {busy ? "Resuming..." : "Resume plan"}
        </Button>
        {error && (
          <p role="alert" className="text-red-700">
            {error}
          </p>
        )}
      </div>
    );
  }

  return (
    <div className="mt-6">
      <Button variant="ghost" onClick={() => setOpen(true)}>
        Cancel plan
      </Button>
      {open && (
        <CancelDialog
          end={end ?? null}
          busy={busy}
          error={error}
          onClose={() => {
            setOpen(false);
            setError(null);
          }}
          onConfirm={(reason) => {
            void run(() => onCancel(reason)).then((done) => done && setOpen(false));
          }}
        />
      )}
    </div>
  );
}

function CancelDialog({
  end,
  busy,
  error,
  onClose,
  onConfirm,
}: {
  end: number | null;
  busy: boolean;
  error: string | null;
  onClose: () => void;
  onConfirm: (reason: CancellationReason | null) => void;
}) {
  const reasons = useReasons();
  const [reason, setReason] = useState<CancellationReason | "">("");
  const selectId = useId();
  return (
    <Modal open onClose={onClose} title="Cancel your plan?">
      <p className="text-slate-700">
        {end
          ? `Your plan stays active until ${endDate(end)}, then your account moves to the free plan. You can resume it any time before then.`
          : "Your plan stays active until the end of this period, then your account moves to the free plan. You can resume it any time before then."}
      </p>
      <div className="mt-4">
        <label htmlFor={selectId} className="mb-1 block text-sm font-medium text-slate-700">
          Why are you cancelling? (optional)
        </label>
        <Select
          id={selectId}
          value={reason}
          onChange={(e) => setReason(e.target.value as CancellationReason | "")}
          className="w-full py-2.5"
        >
          <option value="">Choose a reason</option>
          {(reasons.data?.reasons ?? []).map((r) => (
            <option key={r.reason} value={r.reason}>
              {r.label}
            </option>
          ))}
        </Select>
      </div>
      {error && (
        <p role="alert" className="mt-4 text-sm text-red-700">
          {error}
        </p>
      )}
      <div className="mt-6 flex flex-wrap justify-end gap-3">
        <Button variant="secondary" onClick={onClose}>
          Keep plan
        </Button>
        <Button variant="danger" disabled={busy} aria-busy={busy} onClick={() => onConfirm(reason || null)}>
          {busy ? "Cancelling..." : "Cancel plan"}
        </Button>
      </div>
    </Modal>
  );
}
