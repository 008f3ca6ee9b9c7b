import { AlertTriangle, CreditCard, Pencil } from "lucide-react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import toast from "react-hot-toast";
import { Button } from "../../../components/ui/Button";
import { TextField } from "../../../components/ui/TextField";
import { CancelPlan } from "../../../components/billing/CancelPlan";
import { cancelTeamPlan, resumeTeamPlan } from "../../../lib/api/team";
import type { Team, TeamSubscription } from "../../../lib/api/types";
import {
  discountText,
  paymentRetryText,
  periodEnd,
  runsToPeriodEnd,
  SUBSCRIPTION_STATUS_TEXT,
  trialEndOf,
  UPDATE_CARD_HASH,
} from "../../../lib/billing/rules";
import { useOpenOnHash } from "../../../lib/billing/useOpenOnHash";
import { longDate, ROLE_NAMES, seatsLine } from "../../../lib/team/format";
import { BuySeats, ChangeSeats, ManageBilling, useTeamBillingPortal } from "./Seats";
import { useRenameTeam } from "../api/teamMutations";
import { errorMessage, Section, useTeamCache } from "./TeamParts";

function Rename({ team, onDone }: { team: Team; onDone: () => void }) {
  const rename = useRenameTeam();
  const [name, setName] = useState(team.name);
  const busy = rename.isPending;
  const error = rename.isError ? errorMessage(rename.error) : null;
  const form = useRef<HTMLFormElement>(null);
  // The field replaces the button that opened it: focus follows.
  useEffect(() => form.current?.querySelector("input")?.focus(), []);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    rename.mutate(name.trim(), {
      onSuccess: () => {
        toast.success("Team renamed");
        onDone();
      },
    });
  }

  return (
    <form ref={form} noValidate onSubmit={onSubmit} className="flex flex-wrap items-end gap-3">
      <TextField
        label="Team name"
        className="min-w-64 flex-1"
        maxLength={80}
        value={name}
        error={error}
        onChange={(e) => setName(e.target.value)}
      />
      <Button type="submit" disabled={busy} aria-busy={busy}>
        {busy ? "Saving..." : "Save name"}
      </Button>
      <Button variant="secondary" onClick={onDone}>
        Cancel
      </Button>
    </form>
  );
}

function SubscriptionState({ team }: { team: Team }) {
  const { subscription } = team;
  const period = subscription ? periodEnd(subscription) : null;
  const discount = discountText(subscription);
  return (
    <>
      <div>
        <dt className="text-sm text-slate-500">Subscription</dt>
        <dd className="font-medium text-slate-900">
          {trialEndOf(subscription) != null
            ? `Trial — ends on ${longDate(trialEndOf(subscription)!)}`
            : subscription
              ? SUBSCRIPTION_STATUS_TEXT[subscription.status]
              : "No subscription yet"}
        </dd>
      </div>
      <div>
        <dt className="text-sm text-slate-500">{period?.label ?? "Renews"}</dt>
        <dd className="font-medium text-slate-900">{period?.date ?? "—"}</dd>
      </div>
      {discount && (
        <div>
          <dt className="text-sm text-slate-500">Discount</dt>
          <dd className="font-medium text-green-800">{discount}</dd>
        </div>
      )}
    </>
  );
}

function TeamCancellation({ subscription }: { subscription: TeamSubscription }) {
  const cache = useTeamCache();
  return (
    <CancelPlan
      subscription={subscription}
      onCancel={async (reason) => cache.set((await cancelTeamPlan(reason)).team)}
      onResume={async () => cache.set((await resumeTeamPlan()).team)}
    />
  );
}

/** Past due, unpaid or paused: when Stripe tries again; the owner updates the card in the billing
 * portal (a mail's `/team#update-card` opens it), admins ask the owner. Plain members never see it. */
function PaymentFailedNotice({ team, owner }: { team: Team; owner: boolean }) {
  const retry = paymentRetryText(team.subscription);
  return (
    <div className="mt-3 flex items-start gap-2 rounded-xl border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
      <AlertTriangle aria-hidden className="mt-0.5 h-4 w-4 shrink-0" />
      <div>
        <p>
          <strong>The team&apos;s last payment failed.</strong>{" "}
          {owner
            ? "Update the payment method in Manage Billing to keep the team's paid plan."
            : "Ask the team's owner to update the payment method."}
        </p>
        {retry && <p className="mt-1">{retry}</p>}
        {owner && <UpdateCard />}
      </div>
    </div>
  );
}

function UpdateCard() {
  const { open, busy, error } = useTeamBillingPortal();
  useOpenOnHash(UPDATE_CARD_HASH, true, () => void open());
  return (
    <>
      <Button id="update-card" variant="secondary" className="mt-2" disabled={busy} aria-busy={busy} onClick={() => void open()}>
        {busy ? "Opening..." : "Update card"}
      </Button>
      {error && <p className="mt-1 text-red-700">{error}</p>}
    </>
  );
}

/** Admins invite but do not pay: the card on file is the owner's, so they are told whom to ask. */
function AskTheOwner({ team }: { team: Team }) {
  const owner = team.owner_email || "the team's owner";
  return (
    <>
      <p className="mt-2 text-sm text-slate-600">
        Seats are paid with the owner&apos;s card, so only the owner buys or changes them. Need more seats? Ask {owner}.
      </p>
    </>
  );
}

/** `/team/billing`: the owner buys or changes seats, opens the portal and cancels; admins ask the owner. */
export function TeamSeatsBilling({ team }: { team: Team }) {
  const { may } = team;
  const billing = may.buy_seats || may.change_seats;
  if (!billing && !may.invite) return null;
  return (
    <Section id="seats-billing-title" title="Seats & billing" icon={<CreditCard aria-hidden className="h-5 w-5" />}>
      {billing ? (
        <>
          {may.buy_seats ? <BuySeats team={team} /> : <ChangeSeats team={team} />}
          {may.manage_billing && team.subscription && <ManageBilling />}
          {may.manage_billing && team.subscription && runsToPeriodEnd(team.subscription.status) && (
            <TeamCancellation subscription={team.subscription} />
          )}
        </>
      ) : (
        <AskTheOwner team={team} />
      )}
    </Section>
  );
}

/** Above every section: the team's name (the owner renames it), the caller's role, seats and the subscription. */
export function TeamSummary({ team }: { team: Team }) {
  const [renaming, setRenaming] = useState(false);
  const { may } = team;
  return (
    <section aria-labelledby="team-title" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      {renaming ? (
        <>
          <h2 id="team-title" className="sr-only">
            {team.name}
          </h2>
          <Rename team={team} onDone={() => setRenaming(false)} />
        </>
      ) : (
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="team-title" className="text-2xl font-bold text-slate-900">
            {team.name}
          </h2>
          {may.rename && (
            <Button variant="ghost" onClick={() => setRenaming(true)}>
              <Pencil aria-hidden className="h-4 w-4" /> Rename team
            </Button>
          )}
        </div>
      )}
      <p className="mt-1 text-slate-600">Your role: {ROLE_NAMES[team.role]}</p>
      <dl className="mt-4 grid gap-4 sm:grid-cols-3">
        <div>
          <dt className="text-sm text-slate-500">Seats</dt>
          <dd className="font-medium text-slate-900">{seatsLine(team.seats)}</dd>
        </div>
        <SubscriptionState team={team} />
      </dl>
      {/* Above every section: the owner fixes it from wherever they are (a mail's `/team#update-card` opens the portal). */}
      {team.payment_failed && (may.buy_seats || may.change_seats || may.invite) && (
        <PaymentFailedNotice team={team} owner={may.manage_billing} />
      )}
    </section>
  );
}
