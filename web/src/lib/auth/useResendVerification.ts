import { useEffect, useState } from "react";
import toast from "react-hot-toast";
import { resendVerification } from "../api/auth";
import { ApiError } from "../api/client";

/** The one label of every resend control (the spec's sign-in notice calls it so). */
export const RESEND_LABEL = "Resend verification email";
/** The API sends at most one verification mail a minute per address. */
export const RESEND_INTERVAL_SECONDS = 60;

/** What a resend control says: sending, the wait left (`Retry-After`, or the minute after a send), or the label. */
export function resendLabel(sending: boolean, secondsLeft: number): string {
  if (secondsLeft > 0) return `${RESEND_LABEL} in ${secondsLeft}s`;
  return sending ? "Sending..." : RESEND_LABEL;
}

/**
 * Resends the verification mail in place, with the spec's toasts, then counts down the wait before
 * the next one may go: the minute after a send, or the server's `Retry-After` when it refuses.
 * `label` and `disabled` are what every resend control shows.
 */
export function useResendVerification() {
  const [sending, setSending] = useState(false);
  const [waitUntil, setWaitUntil] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const secondsLeft = Math.max(0, Math.ceil((waitUntil - now) / 1000));

  useEffect(() => {
    if (waitUntil <= Date.now()) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [waitUntil]);

  function wait(seconds: number) {
    const at = Date.now();
    setNow(at);
    setWaitUntil(at + seconds * 1000);
  }

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
      wait(RESEND_INTERVAL_SECONDS);
      return true;
    } catch (error) {
      // The service's message says why (e.g. the 60 s limit); without one, the spec's generic text.
      if (error instanceof ApiError) {
        toast.error(error.message || "Failed to resend verification email");
        if (error.retryAfter) wait(error.retryAfter);
      } else toast.error("An error occurred while resending verification email");
      return false;
    } finally {
      setSending(false);
    }
  }
  return { resend, sending, secondsLeft, label: resendLabel(sending, secondsLeft), disabled: sending || secondsLeft > 0 };
}
