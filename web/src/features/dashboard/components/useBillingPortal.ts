import { useState } from "react";
import toast from "react-hot-toast";
import { openBillingPortal } from "../../../lib/api/billing";
import { ApiError } from "../../../lib/api/client";
import { redirect } from "../../../lib/redirect";

/** Opens Stripe's billing portal, coming back to the dashboard; the service's message on failure. */
export function useBillingPortal() {
  const [opening, setOpening] = useState(false);
  async function open() {
    setOpening(true);
    try {
      const { url } = await openBillingPortal(`${window.location.origin}/dashboard`);
      redirect.to(url);
    } catch (error) {
      toast.error(error instanceof ApiError ? error.message : "An unexpected error occurred");
      setOpening(false);
    }
  }
  return { open, opening };
}
