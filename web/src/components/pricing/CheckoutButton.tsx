import { useEffect, useRef, useState } from "react";
import toast from "react-hot-toast";
import { Link, useNavigate, useSearchParams } from "react-router";
import { track } from "../../lib/analytics";
import { createCheckout } from "../../lib/api/billing";
import { ApiError } from "../../lib/api/client";
import { useEntitlements, usePlan } from "../../lib/api/queries";
import type { Product } from "../../lib/api/types";
import { useAuth } from "../../lib/auth/AuthProvider";
import {
  CHECKOUT_MESSAGES,
  CHECKOUT_SIGN_IN_TOAST,
  checkoutIntent,
  checkoutLabel,
  checkoutUrls,
  LOADING_LABEL,
  SIGNED_OUT_LABEL,
  signUpHref,
} from "../../lib/billing/rules";
import { redirect } from "../../lib/redirect";
import { teamPlanName } from "../../lib/team/format";
import { buttonStyles } from "../ui/Button";
import { cn } from "../ui/cn";

export function CheckoutButton({ product, className }: { product: Product; className?: string }) {
  const auth = useAuth();
  const plan = usePlan();
  const entitlements = useEntitlements();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [busy, setBusy] = useState(false);
  // The server's reason when the link's promotion code cannot be used; the next click goes on without it.
  const [promoRefused, setPromoRefused] = useState<string | null>(null);
  const intentStarted = useRef(false);
  const promo = params.get("promo")?.trim() || null;

  const signedIn = auth.status === "signedIn";
  // The server decides (`Plan.checkout`, a seat in a paid team included); the team's name comes
  // from the entitlements, for the note under the button.
  const viaTeam = signedIn && entitlements.data?.source === "team" ? entitlements.data.team : null;
  const loading = busy || auth.status === "loading" || (signedIn && (plan.isPending || entitlements.isPending));
  const offer = plan.data?.checkout;
  const label = loading || !offer ? LOADING_LABEL : checkoutLabel(offer, product.mode);
  const disabled = loading || !offer || offer === "current_plan";
  // Where a signed-out visitor comes back to after sign-up, verification and sign-in: this page, ready to pay.
  // A promotion code from a `/pricing?promo=CODE` link travels with it.
  const intent = checkoutIntent(product.priceId, promo);
  const wantsCheckout = params.get("checkout") === product.priceId;
  const ready = !disabled && offer === "available";

  async function start() {
    setBusy(true);
    try {
      const code = promo && !promoRefused ? { promotion_code: promo } : {};
      const { url } = await createCheckout({
        price_id: product.priceId,
        mode: product.mode,
        ...checkoutUrls(window.location.origin),
        ...code,
      });
      if (!url) {
        toast.error(CHECKOUT_MESSAGES.noUrl);
        track("checkout_error", { reason: "no_url" });
        setBusy(false);
        return;
      }
      redirect.to(url);
    } catch (error) {
      if (error instanceof ApiError && error.code === "invalid_promotion_code") {
        setPromoRefused(error.message);
        track("checkout_error", { reason: error.code, message: error.message });
        setBusy(false);
        return;
      }
      const message = error instanceof ApiError ? error.message : CHECKOUT_MESSAGES.failed;
      toast.error(message);
      track("checkout_error", { reason: error instanceof ApiError ? error.code : "network", message });
      setBusy(false);
    }
  }

  // Back from sign-in with the intent: start that checkout once (a paid or unverified user just sees the button).
  useEffect(() => {
    if (!wantsCheckout || !ready || intentStarted.current) return;
    intentStarted.current = true;
    void start();
  });

  async function onClick() {
    track("pricing_interaction", { action: "checkout_click", product: product.id, label });
    if (!signedIn) {
      toast.error(CHECKOUT_MESSAGES.signIn);
      void navigate(`/signin?next=${encodeURIComponent(intent)}`);
      return;
    }
    if (offer === "verify_email") {
      toast.error(CHECKOUT_MESSAGES.verify);
      return;
    }
    await start();
  }

  // Signed out, or the session check not yet done (the prerendered HTML): a working link to sign-up
  // with the intent. A signed-in visitor sees the real state as soon as the check ends.
  if (auth.status !== "signedIn") {
    const signedOutLabel = SIGNED_OUT_LABEL;
    return (
      <Link
        to={signUpHref(intent)}
        data-pricing="signup"
        onClick={() => {
          track("pricing_interaction", { action: "checkout_click", product: product.id, label: signedOutLabel });
          toast.error(CHECKOUT_MESSAGES.signIn, { id: CHECKOUT_SIGN_IN_TOAST });
        }}
        className={buttonStyles("primary", className)}
      >
        {signedOutLabel}
      </Link>
    );
  }

  // A plan that cannot be read is an error to retry, not a button loading forever.
  if (plan.isError && !plan.data)
    return (
      <div className="text-center">
        <p role="alert" className="text-sm text-red-700">
          Could not load your plan.
        </p>
        <button
          type="button"
          onClick={() => void plan.refetch()}
          disabled={plan.isFetching}
          aria-busy={plan.isFetching}
          className={buttonStyles("secondary", cn("mt-2", className))}
        >
          Try again
        </button>
      </div>
    );

  const button = (
    <button
      type="button"
      onClick={() => void onClick()}
      disabled={disabled}
      aria-busy={loading}
      className={buttonStyles("primary", className)}
    >
      {label}
    </button>
  );
  const refusal = promoRefused && (
    <p role="alert" className="mt-2 text-center text-sm text-red-700">
      {promoRefused} You can subscribe without it.
    </p>
  );
  if (!viaTeam || plan.data?.paid)
    return refusal ? (
      <>
        {button}
        {refusal}
      </>
    ) : (
      button
    );
  return (
    <>
      {button}
      {refusal}
      <p className="mt-2 text-center text-sm text-slate-600">You have {teamPlanName(viaTeam.name)}.</p>
    </>
  );
}
