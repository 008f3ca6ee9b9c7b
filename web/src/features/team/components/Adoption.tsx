import { useInfiniteQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Address } from "../../../components/ui/Address";
import { Button } from "../../../components/ui/Button";
import { Modal } from "../../../components/ui/Modal";
import { useAuthManager } from "../../../lib/auth/AuthProvider";
import { type AdoptionMember, downloadExport, getTeamAdoption, type ReclaimAnswer } from "../../../lib/api/teamAdoption";
import type { BillingInterval, Team } from "../../../lib/api/types";
import { intervalAdjective } from "../../../lib/billing/rules";
import { count, formatMoney, moneyDue, reclaimSummary } from "../../../lib/team/format";
import { adoptionKey, useReclaimSeats } from "../api/teamMutations";
import { Cell, cardTable } from "../../../components/ui/CardTable";
import { errorMessage, Problem, Section } from "./TeamParts";

const when = (t: string | null | undefined) => (t ? new Date(t).toLocaleDateString("en-US", { dateStyle: "medium" }) : "Never");

/** A member's mark beside their address: New (joined in the last 30 days) or Idle; an active seat has none. */
function SeatMark({ state }: { state: AdoptionMember["state"] }) {
  if (state === "new") return <span className="rounded bg-sky-100 px-1 text-xs text-sky-900">New</span>;
  if (state === "idle") return <span className="rounded bg-amber-100 px-1 text-xs text-amber-900">Idle</span>;
  return null;
}

/** The owner's Reclaim: the idle members' seats, priced by Stripe's preview, then confirmed. */
function Reclaim({
  teamId,
  userIds,
  seats,
  totalSeats,
  saving,
  interval,
}: {
  teamId: string;
  userIds: string[];
  seats: number;
  /** The seats now, and what the offer saves a month: the same numbers as the line beside the button. */
  totalSeats: number;
  saving: { unused: number; text: string };
  /** The team's subscription's: the new total is per month or per year. */
  interval: BillingInterval | null | undefined;
}) {
  const reclaim = useReclaimSeats(teamId);
  const [preview, setPreview] = useState<ReclaimAnswer | null>(null);
  const busy = reclaim.isPending;
  const error = reclaim.isError ? errorMessage(reclaim.error) : null;

  function run(dryRun: boolean) {
    reclaim.mutate(
      {
        user_ids: userIds,
        seats,
        dry_run: dryRun,
        proration_date: dryRun ? undefined : (preview?.preview?.proration_date ?? undefined),
      },
      // The team and the adoption report are in the cache already (useReclaimSeats); the dialog closes.
      { onSuccess: (answer) => setPreview(dryRun ? answer : null) },
    );
  }

  const p = preview?.preview;
  return (
    <>
      <Button variant="secondary" disabled={busy} onClick={() => run(true)}>
        Reclaim idle seats
      </Button>
      {error && <Problem className="mt-2">{error}</Problem>}
      <Modal open={preview !== null} onClose={() => setPreview(null)} title="Reclaim idle seats">
        {preview && p && (
          <div className="space-y-3 text-sm text-slate-700">
            <p>
              Remove {preview.removed.map((m) => m.email).join(", ") || "nobody"} and lower the seats from {totalSeats} to{" "}
              {preview.seats}
              {saving.unused > 0 ? ` (${count(saving.unused, "unused seat")} included)` : ""}.
            </p>
            <p>Saves {saving.text} a month.</p>
            <p>
              Due now: {moneyDue(p.amount_due_now, p.currency)}. Next {intervalAdjective(interval)} total:{" "}
              {formatMoney(p.next_total, p.currency)}.
            </p>
            <div className="flex gap-2">
              <Button disabled={busy} onClick={() => run(false)}>
                Confirm reclaim
              </Button>
              <Button variant="secondary" onClick={() => setPreview(null)}>
                Cancel
              </Button>
            </div>
          </div>
        )}
      </Modal>
    </>
  );
}

/**
 * `/team` → Adoption (whoever `may.view_adoption`): members' calls and minutes a page at a time (Show more),
 * New and Idle marks (the API's `state`), the team's totals, CSV, Reclaim. Totals, the savings line and whom Reclaim removes
 * are the whole team's, as the API answers them with every page.
 */
export function Adoption({ team }: { team: Team }) {
  const auth = useAuthManager();
  const adoption = useInfiniteQuery({
    queryKey: adoptionKey(team.id),
    queryFn: ({ pageParam }) => getTeamAdoption({ cursor: pageParam }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    enabled: team.may.view_adoption,
  });
  const [error, setError] = useState<string | null>(null);
  if (!team.may.view_adoption) return null;
  const pages = adoption.data?.pages ?? [];
  // The newest page's totals (every page carries the team's); the members of every page so far.
  const last = pages.at(-1);
  const u = last && { ...last, members: pages.flatMap((p) => p.members) };
  const idle = u?.reclaim.user_ids ?? [];
  return (
    <Section id="team-adoption" title="Adoption">
      {adoption.isPending && <p className="mt-3 text-sm text-slate-600">Loading adoption...</p>}
      {adoption.isError && <Problem className="mt-3">{errorMessage(adoption.error)}</Problem>}
      {u && (
        <div className="mt-4 space-y-4">
          {/* On a phone each row is a card (CardTable.tsx); the months head their calls and minutes. */}
          <table className={cardTable.table}>
            <caption className="sr-only">Adoption of {team.name}</caption>
            <thead className={cardTable.head}>
              <tr>
                <th scope="col" rowSpan={2} className={cardTable.th}>
                  Member
                </th>
                <th scope="col" rowSpan={2} className={cardTable.th}>
                  Last active
                </th>
                <th scope="colgroup" colSpan={2} className={`${cardTable.th} text-center`}>
                  {u.month}
                </th>
                <th scope="colgroup" colSpan={2} className={`${cardTable.th} text-center`}>
                  {u.previous_month}
                </th>
                <th scope="col" rowSpan={2} className={cardTable.th}>
                  Devices
                </th>
                <th scope="col" rowSpan={2} className={cardTable.th}>
                  Second factor
                </th>
              </tr>
              <tr>
                <th scope="col" className={cardTable.th}>
                  Calls
                </th>
                <th scope="col" className={cardTable.th}>
                  Minutes
                </th>
                <th scope="col" className={cardTable.th}>
                  Calls
                </th>
                <th scope="col" className={cardTable.th}>
                  Minutes
                </th>
              </tr>
            </thead>
            <tbody className={cardTable.body}>
              {u.members.map((m) => (
                <tr key={m.user_id} className={cardTable.row}>
                  <Cell className={cardTable.lead}>
                    <Address email={m.email} /> <SeatMark state={m.state} />
                  </Cell>
                  <Cell label="Last active">{when(m.last_active_at)}</Cell>
                  <Cell label={`Calls ${u.month}`}>{m.calls_this_month}</Cell>
                  <Cell label={`Minutes ${u.month}`}>{m.minutes_this_month}</Cell>
                  <Cell label={`Calls ${u.previous_month}`}>{m.calls_last_month}</Cell>
                  <Cell label={`Minutes ${u.previous_month}`}>{m.minutes_last_month}</Cell>
                  <Cell label="Devices">{m.devices}</Cell>
                  <Cell label="Second factor">{m.second_factor ? "On" : "Off"}</Cell>
                </tr>
              ))}
            </tbody>
            <tfoot className="border-t border-slate-200 font-semibold">
              <tr className={cardTable.row}>
                <Cell className={cardTable.lead}>
                  Total ({count(u.totals.members, "member")}, {u.totals.idle} idle{u.totals.new > 0 && `, ${u.totals.new} new`})
                </Cell>
                <td className="max-sm:hidden" />
                <Cell label={`Calls ${u.month}`}>{u.totals.calls_this_month}</Cell>
                <Cell label={`Minutes ${u.month}`}>{u.totals.minutes_this_month}</Cell>
                <Cell label={`Calls ${u.previous_month}`}>{u.totals.calls_last_month}</Cell>
                <Cell label={`Minutes ${u.previous_month}`}>{u.totals.minutes_last_month}</Cell>
                <Cell label="Devices">{u.totals.devices}</Cell>
                <Cell label="Second factor">{u.totals.second_factor}</Cell>
              </tr>
            </tfoot>
          </table>
          {adoption.hasNextPage && (
            <Button variant="secondary" disabled={adoption.isFetchingNextPage} onClick={() => void adoption.fetchNextPage()}>
              Show more
            </Button>
          )}
          <div className="flex flex-wrap items-center gap-3">
            <Button
              variant="secondary"
              onClick={() =>
                void downloadExport(
                  `/api/team/adoption.csv?month=${u.month}`,
                  `team-adoption-${u.month}.csv`,
                  auth.accessToken(),
                ).catch((e: unknown) => setError(errorMessage(e)))
              }
            >
              Export CSV
            </Button>
            {u.may_reclaim && idle.length > 0 && (
              <>
                <p className="text-sm text-slate-700">{reclaimSummary(u.reclaim, u.seats.total)}</p>
                <Reclaim
                  teamId={team.id}
                  userIds={idle}
                  seats={u.reclaim.seats}
                  totalSeats={u.seats.total}
                  saving={{
                    unused: Math.max(0, u.reclaim.seats_freed - u.reclaim.idle_members),
                    text: formatMoney(u.reclaim.monthly_saving, u.reclaim.currency),
                  }}
                  interval={team.subscription?.interval}
                />
              </>
            )}
          </div>
          {error && <Problem>{error}</Problem>}
        </div>
      )}
    </Section>
  );
}
