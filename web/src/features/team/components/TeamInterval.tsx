import { useState } from "react";
import { Button } from "../../../components/ui/Button";
import { changeTeamInterval, previewTeamInterval } from "../../../lib/api/team";
import type { BillingInterval, IntervalPreview, Team } from "../../../lib/api/types";
import { INTERVAL_NAMES } from "../../../lib/billing/rules";
import { formatMoney } from "../../../lib/team/format";
import { errorMessage, Problem, useTeamCache } from "./TeamParts";

/** The owner switches the team's seats between monthly and yearly billing: Stripe's price of it first. */
export function TeamInterval({ team }: { team: Team }) {
  const cache = useTeamCache();
  const [preview, setPreview] = useState<IntervalPreview | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const current = team.subscription?.interval;
  if (!current || team.subscription?.cancel_at_period_end) return null;
  const to: BillingInterval = current === "year" ? "month" : "year";

  async function run(step: () => Promise<void>) {
    setBusy(true);
    setError(null);
    try {
      await step();
    } catch (e) {
      setPreview(null);
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="mt-3 space-y-3 text-sm">
      {preview ? (
        <div className="space-y-3 rounded-xl bg-slate-50 p-4">
          <p>
            {INTERVAL_NAMES[preview.interval]} billing: {formatMoney(preview.amount_due_now, preview.currency)} due now, then{" "}
            {formatMoney(preview.next_total, preview.currency)} a {preview.interval}.
          </p>
          <div className="flex gap-3">
            <Button
              disabled={busy}
              aria-busy={busy}
              onClick={() =>
                void run(async () => {
                  cache.set((await changeTeamInterval(preview.interval, preview.proration_date)).team);
                  setPreview(null);
                })
              }
            >
              {`Switch to ${INTERVAL_NAMES[preview.interval]}`}
            </Button>
            <Button variant="secondary" disabled={busy} onClick={() => setPreview(null)}>
              Cancel
            </Button>
          </div>
        </div>
      ) : (
        <Button
          variant="secondary"
          disabled={busy}
          aria-busy={busy}
          onClick={() => void run(async () => setPreview(await previewTeamInterval(to)))}
        >
          {`Switch to ${INTERVAL_NAMES[to].toLowerCase()} billing`}
        </Button>
      )}
      {error && <Problem>{error}</Problem>}
    </div>
  );
}
