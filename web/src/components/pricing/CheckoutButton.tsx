import { useState } from "react";
import toast from "react-hot-toast";
import { useNavigate } from "react-router";
import { createCheckout } from "../../lib/api/billing";
import { ApiError } from "../../lib/api/client";
import { isPaid, usePlan, useSubscription } from "../../lib/api/queries";
import type { Product } from "../../lib/api/types";
import { track } from "../../lib/analytics";
import { useAuth } from "../../lib/auth/AuthProvider";
import { redirect } from "../../lib/redirect";
import { buttonStyles } from "../ui/Button";

export type CheckoutLabel =
  | "Loading..."
  | "Sign In Required"
  | "Verify Email First"
  | "Current Plan"
  | "Start Subscription"
  | "Buy Now";


export function CheckoutButton({ product, className }: { product: Product; className?: string }) {
  const auth = useAuth();
  const plan = usePlan();
  const subscription = useSubscription();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);

  const signedIn = auth.status === "signedIn";
  const loading = auth.status === "loading" || (signedIn && (plan.isPending || subscription.isPending));
  const verified = signedIn && Boolean(auth.user.email_confirmed_at);
  const current = signedIn && isPaid(plan.data, subscription.data);

  let label: CheckoutLabel;
  if (busy || loading) label = "Loading...";
  else if (!signedIn) label = "Sign In Required";
  else if (!verified) label = "Verify Email First";
  else if (current) label = "Current Plan";
  else label = product.mode === "subscription" ? "Start Subscription" : "Buy Now";

  async function onClick() {
    track("pricing_interaction", { action: "checkout_click", product: product.id, label });
    if (!signedIn) {
      toast.error("Please sign in to continue");
      navigate(`/signin?redirect=${encodeURIComponent("/pricing")}`);
      return;
    }
    if (!verified) {
      toast.error("Please verify your email address before subscribing");
      return;
    }
    setBusy(true);
    try {
      const origin = window.location.origin;
      const { url } = await createCheckout({
        price_id: product.priceId,
        mode: product.mode,
        success_url: `${origin}/success?session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${origin}/pricing`,
      });
      if (!url) {
        toast.error("No checkout URL received");
        track("checkout_error", { reason: "no_url" });
        setBusy(false);
        return;
      }
      redirect.to(url);
    } catch (error) {
      const message = error instanceof ApiError ? error.message : "Failed to start checkout process";
      toast.error(message);
      track("checkout_error", { reason: error instanceof ApiError ? error.code : "network", message });
      setBusy(false);
    }
  }

  return (
    <button
      type="button"
      onClick={() => void onClick()}
      disabled={busy || loading || label === "Current Plan"}
      aria-busy={busy || loading}
      className={buttonStyles("primary", className)}
    >
      {label}
    </button>
  );
}
