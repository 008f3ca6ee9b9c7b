import { AlertTriangle, PhoneCall } from "lucide-react";
import { Link } from "react-router";
import { Button } from "../../../components/ui/Button";
import { useEntitlements, useSubscription } from "../../../lib/api/queries";
import type { Entitlements } from "../../../lib/api/types";
import { paymentRetryText, UPDATE_CARD_HASH } from "../../../lib/billing/rules";
import { useOpenOnHash } from "../../../lib/billing/useOpenOnHash";
import { useBillingPortal } from "./useBillingPortal";

export const usedUpText = (limit: number) => `You have used your ${limit} free calls. Upgrade to keep getting live hints.`;

/** The team's payment failed: only its owner can fix it, on /team (never the member's own portal). */
function TeamPaymentFailed() {
  return (
    <div role="alert" className="mt-4 rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900">
      <p className="flex items-start gap-2">
        <AlertTriangle aria-hidden className="mt-0.5 h-4 w-4 shrink-0" />
        <span>
          Your team&apos;s last payment failed. The team&apos;s owner can update the payment method on the{" "}
          <Link to="/team" className="font-medium underline hover:text-amber-950">
            Team page
          </Link>
          .
        </span>
      </p>
    </div>
  );
}

/** The user's own payment failed: when Stripe tries again, and the card updated in the portal. */
function PaymentFailed() {
  const portal = useBillingPortal();
  const subscription = useSubscription();
  const retry = paymentRetryText(subscription.data);
  useOpenOnHash(UPDATE_CARD_HASH, true, () => void portal.open());
  return (
    <div role="alert" className="mt-4 rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900">
      <p className="flex items-start gap-2">
        <AlertTriangle aria-hidden className="mt-0.5 h-4 w-4 shrink-0" />
        Your last payment failed. Update your payment method to keep getting live hints.
      </p>
      {retry && <p className="mt-1 pl-6">{retry}</p>}
      <Button id="update-card" variant="secondary" className="mt-3" disabled={portal.opening} onClick={() => void portal.open()}>
        {portal.opening ? "Opening..." : "Update payment method"}
      </Button>
    </div>
  );
}

function FreeCalls({ calls }: { calls: NonNullable<Entitlements["calls"]> }) {
  const used = Math.min(calls.used, calls.limit);
  const text = `${used} of ${calls.limit} free calls used`;
  return (
    <>
      <p className="text-2xl font-bold text-slate-900">{text}</p>
      <div
        role="progressbar"
        aria-label="Free calls used"
        aria-valuemin={0}
        aria-valuemax={calls.limit}
        aria-valuenow={used}
        aria-valuetext={text}
        className="mt-3 h-2.5 overflow-hidden rounded-full bg-slate-200"
      >
        <div
          className={calls.remaining === 0 ? "h-full bg-amber-500" : "h-full bg-blue-600"}
          style={{ width: `${calls.limit ? (used / calls.limit) * 100 : 100}%` }}
        />
      </div>
      <p className="mt-2 text-sm text-slate-600">
        {calls.remaining === 0 ? usedUpText(calls.limit) : "Each free call lasts up to 5 minutes."}
      </p>
    </>
  );
}

function Body() {
  const entitlements = useEntitlements();
  if (entitlements.isPending)
    return (
      <p role="status" className="text-slate-600">
        Loading your call usage...
      </p>
    );
  if (entitlements.isError) return <p className="text-slate-600">Your call usage cannot be shown right now.</p>;
  const { data } = entitlements;
  const count = data.calls_this_month;
  return (
    <>
      {data.calls ? (
        <FreeCalls calls={data.calls} />
      ) : (
        <p className="text-2xl font-bold text-slate-900">
          {count} {count === 1 ? "call" : "calls"} this month
        </p>
      )}
      {data.warning === "payment_failed" && (data.source === "team" ? <TeamPaymentFailed /> : <PaymentFailed />)}
    </>
  );
}

/** The desktop app's calls: the Free Trial's meter, or this month's count on a paid plan. */
export function UsageMeter() {
  return (
    <section aria-labelledby="usage-title" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id="usage-title" className="mb-3 flex items-center gap-2 text-sm font-medium uppercase tracking-wide text-slate-500">
        <PhoneCall aria-hidden className="h-4 w-4" /> Calls
      </h2>
      <Body />
    </section>
  );
}
