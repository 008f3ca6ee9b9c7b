import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "../../../components/ui/Button";
import { changeInterval, previewInterval } from "../../../lib/api/billing";
import { ApiError } from "../../../lib/api/client";
import { queryKeys } from "../../../lib/api/queries";
import type { BillingInterval, IntervalPreview, Subscription } from "../../../lib/api/types";
import { useAuth } from "../../../lib/auth/AuthProvider";
import { INTERVAL_NAMES } from "../../../lib/billing/rules";
import { formatMoney } from "../../../lib/team/format";

const ADVERB: Record<BillingInterval, string> = { month: "monthly", year: "yearly" };

/**
 * Switching the subscription between monthly and yearly: Stripe's price of the switch first (what is
 * charged now, the new total), then the switch at that preview's proration date.
 */
export function IntervalSwitch({ subscription }: { subscription: Subscription }) {
  const { user } = useAuth();
  const client = useQueryClient();
  const [preview, setPreview] = useState<IntervalPreview | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!subscription.interval || subscription.cancel_at_period_end) return null;
  const to: BillingInterval = subscription.interval === "year" ? "month" : "year";

  async function run(step: () => Promise<void>) {
    setBusy(true);
    setError(null);
    try {
      await step();
    } catch (e) {
      setError(e instanceof ApiError ? e.message : "An unexpected error occurred");
    } finally {
      setBusy(false);
    }
  }

  const ask = () => run(async () => setPreview(await previewInterval(to)));
  const confirm = (p: IntervalPreview) =>
    run(async () => {
      const { subscription: changed } = await changeInterval(p.interval, p.proration_date);
      if (user) client.setQueryData(queryKeys.subscription(user.id), changed);
      setPreview(null);
    });

  return (
    <div className="mt-6 space-y-3">
      {!preview ? (
        <Button variant="secondary" disabled={busy} aria-busy={busy} onClick={() => void ask()}>
          {busy ? "Pricing..." : `Switch to ${ADVERB[to]} billing`}
        </Button>
      ) : (
        <div className="space-y-3 rounded-xl bg-slate-50 p-4 text-sm">
          <dl aria-live="polite" className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2">
            <dt className="text-slate-500">Due now</dt>
            <dd className="font-medium text-slate-900">
              {formatMoney(preview.amount_due_now, preview.currency)}
              {preview.amount_due_now < 0 && " (a credit on your next invoice)"}
            </dd>
            <dt className="text-slate-500">New {ADVERB[preview.interval]} total</dt>
            <dd className="font-medium text-slate-900">{formatMoney(preview.next_total, preview.currency)}</dd>
          </dl>
          <div className="flex gap-3">
            <Button disabled={busy} aria-busy={busy} onClick={() => void confirm(preview)}>
              {busy ? "Switching..." : `Switch to ${INTERVAL_NAMES[preview.interval]}`}
            </Button>
            <Button variant="secondary" disabled={busy} onClick={() => setPreview(null)}>
              Cancel
            </Button>
          </div>
        </div>
      )}
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
