import { useState } from "react";
import toast from "react-hot-toast";
import { resendVerification } from "../api/auth";
import { ApiError } from "../api/client";

/** Resends the verification mail in place, with the spec's toasts. */
export function useResendVerification() {
  const [sending, setSending] = useState(false);
  /** `next`: where the link in the mail leads on to after sign-in (see `signUp`). */
  async function resend(email: string, next?: string | null): Promise<boolean> {
    if (!email.trim()) {
      toast.error("Please enter your email address");
      return false;
    }
    setSending(true);
    try {
      await resendVerification(email.trim(), next ?? undefined);
      toast.success("Verification email sent! Check your inbox.");
      return true;
    } catch (error) {
      // The service's message says why (e.g. the 60 s limit); without one, the spec's generic text.
      if (error instanceof ApiError) toast.error(error.message || "Failed to resend verification email");
      else toast.error("An error occurred while resending verification email");
      return false;
    } finally {
      setSending(false);
    }
  }
  return { resend, sending };
}
