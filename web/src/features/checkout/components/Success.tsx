import { useQuery, useQueryClient } from "@tanstack/react-query";
import { CheckCircle2, XCircle } from "lucide-react";
import { useEffect } from "react";
import toast from "react-hot-toast";
import { Link, useSearchParams } from "react-router";
import { buttonStyles } from "../../../components/ui/Button";
import { Spinner } from "../../../components/ui/Spinner";
import { config } from "../../../config";
import { confirmCheckout } from "../../../lib/api/billing";
import { ApiError } from "../../../lib/api/client";
import { queryKeys, subscriptionQuery } from "../../../lib/api/queries";
import type { User } from "../../../lib/api/types";
import { PLAN_NAMES } from "../../../lib/billing/rules";

/** The spec: the subscription is fetched again 1 s after a successful activation. */
export const SUBSCRIPTION_REFETCH_DELAY_MS = 1000;
const FAILED = "Plan activation failed, but you can contact support.";

type State = "activating" | "retrying" | "done" | "failed";

/**
 * Waits between activation attempts that failed for a reason that may pass (Stripe unavailable, the
 * payment or its webhook not in yet, our service or the network down): about a minute in all.
 */
export const activationRetry = { delaysMs: [2000, 4000, 8000, 16000, 30000] };

/** A session that is unknown or someone else's will not become activatable by waiting. */
function mayPass(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  return !["session_not_found", "session_not_yours", "not_signed_in", "invalid_token"].includes(error.code);
}

function Support() {
  return (
    <p className="mt-8 text-sm text-slate-600">
      Questions? Contact us at{" "}
      <a href={`mailto:${config.supportEmail}`} className="font-medium text-blue-700 underline hover:text-blue-900">
        {config.supportEmail}
      </a>
    </p>
  );
}

function Actions() {
  return (
    <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
      <Link to="/dashboard" className={buttonStyles("primary")}>
        Go to Dashboard
      </Link>
      <Link to="/" className={buttonStyles("secondary")}>
        Back to Home
      </Link>
    </div>
  );
}

/**
 * The activation as a query keyed by the session: asked once however often the page mounts (React
 * StrictMode mounts it twice in development), retried with `activationRetry` while the failure may pass.
 */
function useActivation(sessionId: string, userId: string) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: ["checkout-confirm", userId, sessionId],
    enabled: Boolean(sessionId),
    queryFn: async () => {
      const { plan, subscription } = await confirmCheckout(sessionId);
      // Only a verified address pays, so the answer is the verified user's plan.
      queryClient.setQueryData(queryKeys.plan(userId, true), plan);
      queryClient.setQueryData(queryKeys.subscription(userId), subscription);
      return plan;
    },
    retry: (failures, error) => failures < activationRetry.delaysMs.length && mayPass(error),
    retryDelay: (failures) => activationRetry.delaysMs[failures] ?? 0,
    staleTime: Infinity,
    refetchOnMount: false,
    refetchOnReconnect: false,
    refetchOnWindowFocus: false,
  });
}

export function Success({ user }: { user: User }) {
  const [params] = useSearchParams();
  const sessionId = params.get("session_id") ?? "";
  const queryClient = useQueryClient();
  const activation = useActivation(sessionId, user.id);
  const state: State =
    !sessionId || activation.isError
      ? "failed"
      : activation.isSuccess
        ? "done"
        : activation.failureCount > 0
          ? "retrying"
          : "activating";

  useEffect(() => {
    // One toast id: a second run of this effect (StrictMode) replaces the toast instead of adding one.
    if (state === "failed") toast.error(FAILED, { id: "activation" });
    if (state !== "done") return;
    toast.success("Subscription activated successfully!", { id: "activation" });
    const timer = setTimeout(() => {
      // A failure here is logged by the query and shown on the dashboard; nothing to add on this page.
      queryClient.fetchQuery({ ...subscriptionQuery(user.id), staleTime: 0 }).catch(() => undefined);
    }, SUBSCRIPTION_REFETCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [state, queryClient, user.id]);

  return (
    <div className="mx-auto max-w-xl px-4 py-16 text-center">
      <div className="rounded-2xl border border-slate-200 bg-white p-8 shadow-sm">
        {(state === "activating" || state === "retrying") && (
          <div role="status">
            <Spinner className="mx-auto h-10 w-10 text-blue-600" />
            <h1 className="mt-4 text-2xl font-bold text-slate-900">Activating your subscription</h1>
            <p className="mt-2 text-slate-600">
              Session <span className="font-mono">…{sessionId.slice(-8)}</span>
            </p>
            {state === "retrying" && (
              <p className="mt-4 text-slate-600">
                Your payment is still being confirmed. We&apos;ll keep trying for up to a minute, so please keep this page open.
              </p>
            )}
          </div>
        )}
        {state === "done" && (
          <>
            <CheckCircle2 aria-hidden className="mx-auto h-12 w-12 text-green-600" />
            <h1 className="mt-4 text-2xl font-bold text-slate-900">Payment Successful</h1>
            <p className="mt-2 text-slate-600">Welcome aboard! Your subscription is now active.</p>
            <dl className="mx-auto mt-6 max-w-xs space-y-2 rounded-xl bg-slate-50 p-4 text-left text-sm">
              <div className="flex justify-between gap-4">
                <dt className="text-slate-500">Plan</dt>
                <dd className="font-medium text-slate-900">{PLAN_NAMES.monthly}</dd>
              </div>
              <div className="flex justify-between gap-4">
                <dt className="text-slate-500">Billing</dt>
                <dd className="font-medium text-slate-900">Monthly Plan</dd>
              </div>
              <div className="flex justify-between gap-4">
                <dt className="text-slate-500">Usage</dt>
                <dd className="font-medium text-slate-900">Unlimited Usage</dd>
              </div>
            </dl>
            <Actions />
          </>
        )}
        {state === "failed" && (
          <>
            <XCircle aria-hidden className="mx-auto h-12 w-12 text-red-600" />
            <h1 className="mt-4 text-2xl font-bold text-slate-900">We couldn&apos;t activate your plan</h1>
            <p className="mt-2 text-slate-600">
              If your payment went through, your plan is activated as soon as it reaches us. Write to us and we will sort it out.
            </p>
            <Actions />
          </>
        )}
        <Support />
      </div>
    </div>
  );
}
