import { useState, type FormEvent } from "react";
import toast from "react-hot-toast";
import { Button } from "../../../components/ui/Button";
import { Choice } from "../../../components/ui/Choice";
import { Modal } from "../../../components/ui/Modal";
import { TextField } from "../../../components/ui/TextField";
import { ApiError } from "../../../lib/api/client";
import { useProducts } from "../../../lib/api/queries";
import { openTeamBillingPortal, previewSeats, startTeamCheckout } from "../../../lib/api/team";
import type { BillingInterval, SeatsPreview, Team } from "../../../lib/api/types";
import { INTERVAL_NAMES, newTotalLabel, productFor } from "../../../lib/billing/rules";
import { redirect } from "../../../lib/redirect";
import { formatMoney, longDate, seatsProblem, teamCheckoutUrls } from "../../../lib/team/format";
import { useChangeSeats } from "../api/teamMutations";
import { errorMessage, Problem, useTeamCache } from "./TeamParts";
import { TeamInterval } from "./TeamInterval";

function SeatsField({
  max,
  value,
  error,
  disabled,
  onChange,
}: {
  max: number;
  value: string;
  error?: string | null;
  disabled?: boolean;
  onChange: (value: string) => void;
}) {
  return (
    <TextField
      disabled={disabled}
      label="Seats"
      type="number"
      inputMode="numeric"
      min={1}
      max={max}
      step={1}
      className="w-32"
      value={value}
      error={error}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

/** Opens the team's Stripe billing portal, back to /team; the problem in words when it cannot. */
export function useTeamBillingPortal() {
  const cache = useTeamCache();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function open() {
    setBusy(true);
    setError(null);
    try {
      const { url } = await openTeamBillingPortal(`${window.location.origin}/team`);
      redirect.to(url);
    } catch (e) {
      setError(errorMessage(e));
      // No longer the owner, or no longer in the team: the page is out of date.
      if (e instanceof ApiError && (e.status === 403 || e.code === "team_not_found")) void cache.refresh();
      setBusy(false);
    }
  }
  return { open, busy, error };
}

/** The owner's way to the team's Stripe billing portal (card, invoices, cancelling), back to /team. */
export function ManageBilling() {
  const { open, busy, error } = useTeamBillingPortal();
  return (
    <div className="mt-3 space-y-3">
      <Button variant="secondary" disabled={busy} aria-busy={busy} onClick={() => void open()}>
        {busy ? "Opening..." : "Manage Billing"}
      </Button>
      {error && <Problem>{error}</Problem>}
    </div>
  );
}

/** No subscription yet, it ended, or its first payment was abandoned: Stripe Checkout for `seats` seats, back to /team. */
export function BuySeats({ team }: { team: Team }) {
  const products = useProducts();
  const [interval, chooseInterval] = useState<BillingInterval>("month");
  const product = productFor(products.data, interval);
  const price = product.price;
  const [seats, setSeats] = useState(String(Math.max(team.seats.used, team.seats.total, 1)));
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<"buy" | "trial" | "invoice" | null>(null);
  const cache = useTeamCache();
  const count = Number(seats);
  // The server's rule (`closewise_domain::team_purchase`): yearly, from `invoice_min_seats` seats.
  const invoiceAllowed = team.may.pay_by_invoice && interval === "year" && count >= team.invoice_min_seats;

  async function buy(how: "buy" | "trial" | "invoice") {
    const problem = seatsProblem(count, team);
    setFieldError(problem);
    setError(null);
    if (problem) return;
    setBusy(how);
    try {
      if (how === "invoice") {
        const { invoice } = await startTeamCheckout({ seats: count, interval, collection: "invoice" });
        toast.success(
          invoice?.due_date
            ? `${count} seats are active. The invoice was sent; it is due on ${longDate(invoice.due_date)}.`
            : `${count} seats are active. The invoice was sent.`,
        );
        await cache.refresh();
        setBusy(null);
        return;
      }
      const trial = how === "trial" ? { trial: true } : {};
      const { url } = await startTeamCheckout({ seats: count, interval, ...trial, ...teamCheckoutUrls(window.location.origin) });
      redirect.to(url);
    } catch (e) {
      if (e instanceof ApiError && e.code === "invalid_seats") setFieldError(e.message);
      else setError(errorMessage(e));
      if (e instanceof ApiError && ["trial_already_used", "team_already_subscribed"].includes(e.code)) void cache.refresh();
      setBusy(null);
    }
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void buy("buy");
  }

  return (
    <form noValidate onSubmit={(e) => void onSubmit(e)} className="mt-3 space-y-3">
      <p className="text-sm text-slate-600">
        {team.subscription
          ? "The team's subscription is not active. Buy seats to give every member the paid plan again."
          : "Buy a seat for each person in the team, yourself included. Everyone with a seat gets unlimited usage."}{" "}
        ${price} per seat per {interval}.
      </p>
      {team.personal_subscription && (
        <p role="note" className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
          You pay for a personal subscription. A seat in the team gives you the paid plan too: once the seats are bought, cancel
          the personal one in the billing portal, or you will be paying twice.
        </p>
      )}
      <fieldset className="flex gap-4 text-sm">
        <legend className="sr-only">Billing interval</legend>
        {(["month", "year"] as const).map((i) => (
          <Choice
            key={i}
            type="radio"
            name="interval"
            label={INTERVAL_NAMES[i]}
            checked={interval === i}
            onChange={() => chooseInterval(i)}
          />
        ))}
      </fieldset>
      <div className="flex flex-wrap items-end gap-3">
        <SeatsField
          max={team.seat_range.max}
          value={seats}
          error={fieldError}
          onChange={(value) => {
            setSeats(value);
            setFieldError(null);
          }}
        />
        <Button type="submit" disabled={busy !== null} aria-busy={busy === "buy"}>
          {busy === "buy" ? "Opening checkout..." : "Buy seats"}
        </Button>
        {invoiceAllowed && (
          <Button variant="secondary" disabled={busy !== null} aria-busy={busy === "invoice"} onClick={() => void buy("invoice")}>
            {busy === "invoice" ? "Sending the invoice..." : "Pay by invoice"}
          </Button>
        )}
      </div>
      {team.may.start_trial && (
        <div className="flex flex-wrap items-center gap-3">
          <Button variant="secondary" disabled={busy !== null} aria-busy={busy === "trial"} onClick={() => void buy("trial")}>
            {busy === "trial" ? "Opening checkout..." : "Try it with your team free for 14 days"}
          </Button>
          <span className="text-sm text-slate-600">Your card is charged when the trial ends, unless you cancel before.</span>
        </div>
      )}
      {team.may.pay_by_invoice && !invoiceAllowed && (
        <p className="text-sm text-slate-500">
          Paying by invoice is offered for {team.invoice_min_seats} seats or more, billed yearly.
        </p>
      )}
      {Number.isInteger(count) && count > 0 && !fieldError && (
        <p className="text-sm text-slate-600">
          {count} {count === 1 ? "seat" : "seats"}: ${count * price} per {interval}
        </p>
      )}
      {error && <Problem>{error}</Problem>}
    </form>
  );
}

function PreviewFigures({ preview, interval }: { preview: SeatsPreview; interval: BillingInterval | null | undefined }) {
  const credit = preview.amount_due_now < 0;
  return (
    <dl aria-live="polite" className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 rounded-xl bg-slate-50 p-4 text-sm">
      <dt className="text-slate-500">Due now</dt>
      <dd className="font-medium text-slate-900">
        {formatMoney(preview.amount_due_now, preview.currency)}
        {credit && " (a credit on your next invoice)"}
      </dd>
      <dt className="text-slate-500">{newTotalLabel(interval)}</dt>
      <dd className="font-medium text-slate-900">{formatMoney(preview.next_total, preview.currency)}</dd>
    </dl>
  );
}

function ChangeSeatsDialog({ team, onClose }: { team: Team; onClose: () => void }) {
  const cache = useTeamCache();
  const change = useChangeSeats();
  const [seats, setSeats] = useState(String(team.seats.total));
  const [preview, setPreview] = useState<SeatsPreview | null>(null);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<"preview" | "confirm" | null>(null);
  const count = Number(seats);

  /** `refresh`: a refused preview may mean the page is out of date (a refused change reads it again itself). */
  function fail(e: unknown, refresh = true) {
    // What was previewed may no longer hold: nothing is confirmed until a new preview.
    setPreview(null);
    if (e instanceof ApiError && ["invalid_seats", "seats_in_use"].includes(e.code)) setFieldError(e.message);
    else setError(errorMessage(e));
    if (refresh && e instanceof ApiError && [403, 404, 409].includes(e.status)) void cache.refresh();
    setBusy(null);
  }

  async function onPreview(event: FormEvent) {
    event.preventDefault();
    setError(null);
    const problem = count === team.seats.total ? "That is the current number of seats." : seatsProblem(count, team);
    setFieldError(problem);
    if (problem) return;
    setBusy("preview");
    try {
      setPreview(await previewSeats(count));
      setBusy(null);
    } catch (e) {
      fail(e);
    }
  }

  function onConfirm(shown: SeatsPreview) {
    setError(null);
    setBusy("confirm");
    change.mutate(
      { seats: shown.seats, prorationDate: shown.proration_date },
      {
        onSuccess: () => {
          toast.success(`The team has ${shown.seats} ${shown.seats === 1 ? "seat" : "seats"} now`);
          onClose();
        },
        onError: (e) => fail(e, false),
      },
    );
  }

  return (
    <Modal open onClose={onClose} title="Change seats">
      <p className="text-slate-700">
        {team.seats.used} of {team.seats.total} seats are in use (members and pending invitations). The change is prorated: you
        see what it costs before you confirm.
      </p>
      <form noValidate onSubmit={(e) => void onPreview(e)} className="mt-4 flex flex-wrap items-end gap-3">
        <SeatsField
          max={team.seat_range.max}
          value={seats}
          error={fieldError}
          disabled={busy !== null}
          onChange={(value) => {
            setSeats(value);
            setPreview(null);
            setFieldError(null);
          }}
        />
        <Button type="submit" variant="secondary" disabled={busy !== null} aria-busy={busy === "preview"}>
          {busy === "preview" ? "Calculating..." : "Preview"}
        </Button>
      </form>
      {preview && (
        <div className="mt-4">
          <PreviewFigures preview={preview} interval={team.subscription?.interval} />
        </div>
      )}
      {error && <Problem className="mt-4">{error}</Problem>}
      <div className="mt-6 flex flex-wrap justify-end gap-3">
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        {preview && (
          <Button disabled={busy !== null} aria-busy={busy === "confirm"} onClick={() => onConfirm(preview)}>
            {busy === "confirm" ? "Updating..." : `Confirm ${preview.seats} seats`}
          </Button>
        )}
      </div>
    </Modal>
  );
}

/** A team with a subscription that has not ended: a dialog to preview and confirm a new number of seats. */
export function ChangeSeats({ team }: { team: Team }) {
  const [open, setOpen] = useState(false);
  return (
    <div className="mt-3 flex flex-wrap items-center gap-3">
      <p className="text-sm text-slate-600">
        {team.seats.free === 0
          ? "Every seat is taken. Add seats to invite more people."
          : `${team.seats.free} ${team.seats.free === 1 ? "seat is" : "seats are"} free.`}
      </p>
      <Button variant="secondary" onClick={() => setOpen(true)}>
        Change seats
      </Button>
      {open && <ChangeSeatsDialog team={team} onClose={() => setOpen(false)} />}
      <TeamInterval team={team} />
    </div>
  );
}
