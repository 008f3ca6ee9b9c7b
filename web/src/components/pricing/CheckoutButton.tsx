import { useState } from "react";
import toast from "react-hot-toast";
import { useNavigate } from "react-router";
import { track } from "../../lib/analytics";
import { createCheckout } from "../../lib/api/billing";
import { ApiError } from "../../lib/api/client";
import { usePlan, useSubscription } from "../../lib/api/queries";
import type { Product } from "../../lib/api/types";
import { useAuth } from "../../lib/auth/AuthProvider";
import {
  CHECKOUT_MESSAGES,
  checkoutBlock,
  checkoutDisabled,
  checkoutLabel,
  checkoutUrls,
  isPaid,
  type CheckoutState,
} from "../../lib/billing/rules";
import { redirect } from "../../lib/redirect";
import { buttonStyles } from "../ui/Button";

export function CheckoutButton({ product, className }: { product: Product; className?: string }) {
  const auth = useAuth();
  const plan = usePlan();
  const subscription = useSubscription();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);

  const signedIn = auth.status === "signedIn";
  const state: CheckoutState = {
    busy,
    loading: auth.status === "loading" || (signedIn && (plan.isPending || subscription.isPending)),
    signedIn,
    verified: signedIn && Boolean(auth.user.email_confirmed_at),
    current: signedIn && isPaid(plan.data, subscription.data),
    mode: product.mode,
  };
  const label = checkoutLabel(state);

  async function onClick() {
    track("pricing_interaction", { action: "checkout_click", product: product.id, label });
    const block = checkoutBlock(state);
    if (block) {
      toast.error(block.message);
      if (block.reason === "signIn") void navigate(`/signin?redirect=${encodeURIComponent("/pricing")}`);
      return;
    }
    setBusy(true);
    try {
      const { url } = await createCheckout({
        price_id: product.priceId,
        mode: product.mode,
        ...checkoutUrls(window.location.origin),
      });
      if (!url) {
        toast.error(CHECKOUT_MESSAGES.noUrl);
        track("checkout_error", { reason: "no_url" });
        setBusy(false);
        return;
      }
      redirect.to(url);
    } catch (error) {
      const message = error instanceof ApiError ? error.message : CHECKOUT_MESSAGES.failed;
      toast.error(message);
      track("checkout_error", { reason: error instanceof ApiError ? error.code : "network", message });
      setBusy(false);
    }
  }

  return (
    <button
      type="button"
      onClick={() => void onClick()}
      disabled={checkoutDisabled(state)}
      aria-busy={state.busy || state.loading}
      className={buttonStyles("primary", className)}
    >
      {label}
    </button>
  );
}
