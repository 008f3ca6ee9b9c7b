import {
  ArrowLeft,
  CheckCircle2,
  CreditCard,
  Crown,
  Download,
  Settings as SettingsIcon,
  ShieldAlert,
  Tag,
  Users,
} from "lucide-react";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Link } from "react-router";
import { EmailVerificationBanner } from "../../../components/account/EmailVerificationBanner";
import { DownloadButton } from "../../../components/download/DownloadButton";
import { PricingSection } from "../../../components/pricing/PricingSection";
import { Button, buttonStyles } from "../../../components/ui/Button";
import { config } from "../../../config";
import { getUser } from "../../../lib/api/auth";
import { queryKeys, useEntitlements, usePlan, useProducts, useSubscription } from "../../../lib/api/queries";
import type { Subscription, User } from "../../../lib/api/types";
import { useAuth } from "../../../lib/auth/AuthProvider";
import {
  cardBrandName,
  discountText,
  PAID_PLAN_BADGE,
  PLAN_NAMES,
  periodEnd,
  planName,
  planSummary,
  runsToPeriodEnd,
  SUBSCRIPTION_STATUS_TEXT,
  subscriptionRefetchError,
} from "../../../lib/billing/rules";
import { teamPlanName } from "../../../lib/team/format";
import { CancelPlan } from "../../../components/billing/CancelPlan";
import { cancelPlan, resumePlan } from "../../../lib/api/billing";
import { IntervalSwitch } from "./IntervalSwitch";
import { Invoices } from "./Invoices";
import { useBillingPortal } from "./useBillingPortal";
import { UsageMeter } from "./UsageMeter";

export const ACCESS_LIMITED_TEXT =
  "Some features are restricted until you verify your email address. Please check your inbox and click the verification link to unlock full access.";

/** What the dashboard shows while the session or its data loads (same size: no layout shift). */
export function DashboardSkeleton() {
  return (
    <div className="mx-auto max-w-5xl px-4 py-8 sm:px-6 lg:px-8">
      <div className="h-10" />
      <p role="status" className="mt-6 text-slate-600">
        Loading your dashboard...
      </p>
      <div aria-hidden className="mt-6 h-40 animate-pulse rounded-2xl bg-slate-200/70" />
      <div aria-hidden className="mt-6 h-56 animate-pulse rounded-2xl bg-slate-200/70" />
    </div>
  );
}

function PlanCancellation({ subscription }: { subscription: Subscription }) {
  const { user } = useAuth();
  const client = useQueryClient();
  const store = ({ subscription: changed }: { subscription: Subscription | null }) => {
    if (user) client.setQueryData(queryKeys.subscription(user.id), changed);
  };
  return (
    <CancelPlan
      subscription={subscription}
      onCancel={async (reason) => store(await cancelPlan(reason))}
      onResume={async () => store(await resumePlan())}
    />
  );
}

function SubscriptionManagement({ subscription, error }: { subscription: Subscription | null; error: string | null }) {
  const portal = useBillingPortal();
  const period = subscription ? periodEnd(subscription) : null;
  return (
    <section aria-labelledby="subscription-title" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id="subscription-title" className="flex items-center gap-2 text-lg font-semibold text-slate-900">
        <CreditCard aria-hidden className="h-5 w-5" /> Subscription Management
      </h2>
      <dl className="mt-4 grid gap-4 sm:grid-cols-3">
        <div>
          <dt className="text-sm text-slate-500">Status</dt>
          <dd className="font-medium text-slate-900">
            {subscription ? SUBSCRIPTION_STATUS_TEXT[subscription.subscription_status] : "Active"}
          </dd>
        </div>
        <div>
          <dt className="text-sm text-slate-500">{period?.label ?? "Renews"}</dt>
          <dd className="font-medium text-slate-900">{period?.date ?? "—"}</dd>
        </div>
        <div>
          <dt className="text-sm text-slate-500">Payment method</dt>
          <dd className="font-medium text-slate-900">
            {subscription?.payment_method_brand && subscription.payment_method_last4 ? (
              <>
                {cardBrandName(subscription.payment_method_brand)} <span aria-hidden>••••</span>
                <span className="sr-only">ending in</span> {subscription.payment_method_last4}
              </>
            ) : (
              "—"
            )}
          </dd>
        </div>
      </dl>
      {error && (
        <p role="status" className="mt-4 text-sm text-red-700">
          {error}
        </p>
      )}
      <Button variant="secondary" className="mt-6" disabled={portal.opening} onClick={() => void portal.open()}>
        {portal.opening ? "Opening..." : "Manage Billing"}
      </Button>
      {subscription && <IntervalSwitch subscription={subscription} />}
      {subscription && runsToPeriodEnd(subscription.subscription_status) && <PlanCancellation subscription={subscription} />}
    </section>
  );
}

function InstallGuideLink() {
  return (
    <Link to="/download" className="font-medium text-blue-700 underline hover:text-blue-900">
      Installation guide and system requirements
    </Link>
  );
}

function PaidPanels({
  subscription,
  error,
  personal,
}: {
  subscription: Subscription | null;
  error: string | null;
  /** Paid by the user's own subscription (not only through a team's seat). */
  personal: boolean;
}) {
  return (
    <>
      <section aria-labelledby="all-set-title" className="rounded-2xl border border-green-200 bg-green-50 p-6">
        <h2 id="all-set-title" className="flex items-center gap-2 text-lg font-semibold text-green-900">
          <CheckCircle2 aria-hidden className="h-5 w-5" /> You&apos;re All Set!
        </h2>
        <p className="mt-2 text-green-900">
          Your subscription is active. Download {config.productName} for your Mac and get unlimited live hints on every call.
        </p>
        <div className="mt-4 flex flex-wrap items-center gap-4">
          <DownloadButton />
          <InstallGuideLink />
        </div>
      </section>
      <UsageMeter />
      {personal && <SubscriptionManagement subscription={subscription} error={error} />}
      {personal && <Invoices />}
    </>
  );
}

function FreePanels() {
  return (
    <>
      <section aria-labelledby="download-title" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
        <h2 id="download-title" className="flex items-center gap-2 text-lg font-semibold text-slate-900">
          <Download aria-hidden className="h-5 w-5" /> Download {config.productName}
        </h2>
        <p className="mt-2 text-slate-600">
          Get the desktop app to see live hints, objection handling and follow-up drafts during your sales calls. Installing takes
          about 2 minutes; your Free Trial includes 5 calls of 5 minutes each.
        </p>
        <div className="mt-4 flex flex-wrap items-center gap-4">
          <DownloadButton />
          <InstallGuideLink />
        </div>
      </section>
      <UsageMeter />
      <PricingSection
        id="upgrade"
        title={`Upgrade to ${PLAN_NAMES.monthly}`}
        subtitle="Unlimited usage, advanced AI insights, priority support and CRM integrations."
        className="rounded-2xl bg-white"
        onDashboard
      />
    </>
  );
}

/** The entitlements could not be read: whether a team's seat makes the user paid is not known. */
function PlanUnknown({ retrying, onRetry, email }: { retrying: boolean; onRetry: () => void; email: string }) {
  return (
    <section aria-labelledby="plan-title" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id="plan-title" className="text-sm font-medium uppercase tracking-wide text-slate-500">
        Your Plan
      </h2>
      <p role="alert" className="mt-2 rounded-xl border border-red-300 bg-red-50 p-3 text-sm text-red-900">
        Could not load your plan.
      </p>
      <Button variant="secondary" className="mt-3" disabled={retrying} aria-busy={retrying} onClick={onRetry}>
        Try again
      </Button>
      <p className="mt-3 text-sm text-slate-500">Signed in as {email}</p>
    </section>
  );
}

function PlanCard({
  user,
  paid,
  personal,
  viaTeam,
  subscription,
}: {
  user: User;
  paid: boolean;
  personal: boolean;
  viaTeam: { id: string; name: string } | null;
  /** The user's own subscription: its interval prices the summary, its discount is said under it. */
  subscription: Subscription | null;
}) {
  const catalogue = useProducts();
  const discount = personal ? discountText(subscription) : null;
  return (
    <section aria-labelledby="plan-title" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id="plan-title" className="text-sm font-medium uppercase tracking-wide text-slate-500">
        Your Plan
      </h2>
      <div className="mt-2 flex flex-wrap items-center gap-3">
        <p className="text-2xl font-bold text-slate-900">{viaTeam ? teamPlanName(viaTeam.name) : planName(paid)}</p>
        {paid && (
          <span className="inline-flex items-center gap-1 rounded-full bg-blue-600 px-3 py-1 text-xs font-semibold text-white">
            <Crown aria-hidden className="h-3.5 w-3.5" /> {PAID_PLAN_BADGE}
          </span>
        )}
      </div>
      <p className="mt-1 text-slate-600">
        {viaTeam && !personal
          ? "Unlimited usage through your team's subscription."
          : planSummary(paid, catalogue.data, personal ? subscription?.interval : null)}
      </p>
      {discount && (
        <p className="mt-1 inline-flex items-center gap-1 text-sm font-medium text-green-800">
          <Tag aria-hidden className="h-4 w-4" /> {discount}
        </p>
      )}
      {viaTeam && (
        <Link to="/team" className="mt-1 inline-block text-sm font-medium text-blue-700 underline hover:text-blue-900">
          View {viaTeam.name}
        </Link>
      )}
      <p className="mt-1 text-sm text-slate-500">Signed in as {user.email}</p>
    </section>
  );
}

/** "Upgrade Now": to the pricing block, smoothly unless the visitor asks for reduced motion, and focus with it. */
function goToUpgrade() {
  const block = document.getElementById("upgrade");
  if (!block) return;
  const reduce = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  block.scrollIntoView({ behavior: reduce ? "auto" : "smooth", block: "start" });
  if (!block.hasAttribute("tabindex")) block.tabIndex = -1;
  block.focus({ preventScroll: true });
}

/** The link may be opened on another device: look again when the user comes back to this tab. */
function useRecheckVerification(user: User) {
  const { manager } = useAuth();
  const verified = Boolean(user.email_confirmed_at);
  useEffect(() => {
    if (verified) return;
    const recheck = () => {
      if (document.visibilityState !== "visible") return;
      getUser()
        .then(({ user: fresh }) => {
          if (fresh.email_confirmed_at) manager.updateUser(fresh);
        })
        .catch((error: unknown) => console.warn("Could not re-check the e-mail verification", error));
    };
    window.addEventListener("focus", recheck);
    document.addEventListener("visibilitychange", recheck);
    return () => {
      window.removeEventListener("focus", recheck);
      document.removeEventListener("visibilitychange", recheck);
    };
  }, [verified, manager]);
}

export function DashboardContent({ user }: { user: User }) {
  useRecheckVerification(user);
  const plan = usePlan();
  const subscription = useSubscription();
  const entitlements = useEntitlements();
  const [bannerDismissed, setBannerDismissed] = useState(false);

  // The entitlements say whether a team's seat makes the user paid: until they are in, the plan is
  // not known. A retry after a failure (Try again, or the meter mounting) is not a first load.
  const failed = entitlements.data === undefined && entitlements.errorUpdateCount > 0;
  // A plan that cannot be read is not a free plan: it is an error with Try again.
  const planFailed = plan.data === undefined && plan.errorUpdateCount > 0;
  if ((plan.isPending && !planFailed) || (entitlements.isPending && !failed)) return <DashboardSkeleton />;

  // The server decides (`Plan.paid`): the plan, or the user's own subscription.
  const personal = plan.data?.paid ?? false;
  // Only the user's own subscription is known: offer no free-plan upgrade to someone a team may pay for.
  const unknown = planFailed || (failed && !personal);
  const retry = () => {
    if (planFailed) void plan.refetch();
    if (failed) void entitlements.refetch();
  };
  // A seat in a paid team gives the paid plan too (docs/teams.md: entitlements' `source`).
  const viaTeam = entitlements.data?.source === "team" ? (entitlements.data.team ?? null) : null;
  const paid = personal || viaTeam !== null;
  const team = entitlements.data?.team;
  const verified = Boolean(user.email_confirmed_at);

  return (
    <div className="mx-auto max-w-5xl space-y-6 px-4 py-8 sm:px-6 lg:px-8">
      <div className="flex min-h-10 flex-wrap items-center justify-between gap-3">
        <Link
          to="/"
          className="inline-flex items-center gap-1 rounded text-sm font-medium text-slate-600 hover:text-slate-900 focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600"
        >
          <ArrowLeft aria-hidden className="h-4 w-4" /> Back to Home
        </Link>
        <div className="flex flex-wrap items-center gap-2">
          {team !== undefined && (
            <Link to="/team" className={buttonStyles("ghost")}>
              <Users aria-hidden className="h-4 w-4" /> {team ? "Your team" : "Create a team"}
            </Link>
          )}
          <Link to="/settings" className={buttonStyles("ghost")}>
            <SettingsIcon aria-hidden className="h-4 w-4" /> Account settings
          </Link>
          {!paid && !unknown && (
            <Button onClick={goToUpgrade}>
              <Crown aria-hidden className="h-4 w-4" /> Upgrade Now
            </Button>
          )}
        </div>
      </div>

      <h1 className="text-3xl font-bold tracking-tight text-slate-900">Dashboard</h1>

      {!verified && !bannerDismissed && <EmailVerificationBanner email={user.email} onDismiss={() => setBannerDismissed(true)} />}
      {!verified && (
        <div className="flex items-start gap-3 rounded-xl border border-red-300 bg-red-50 p-4 text-red-900">
          <ShieldAlert aria-hidden className="mt-0.5 h-5 w-5 shrink-0" />
          <p className="text-sm">
            <strong>Account Access Limited:</strong> {ACCESS_LIMITED_TEXT}
          </p>
        </div>
      )}

      {unknown ? (
        <PlanUnknown retrying={plan.isFetching || entitlements.isFetching} onRetry={retry} email={user.email} />
      ) : (
        <PlanCard user={user} paid={paid} personal={personal} viaTeam={viaTeam} subscription={subscription.data ?? null} />
      )}

      {unknown ? null : paid ? (
        <PaidPanels subscription={subscription.data ?? null} error={subscriptionRefetchError(subscription)} personal={personal} />
      ) : (
        <FreePanels />
      )}
    </div>
  );
}
