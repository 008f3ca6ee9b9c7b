import { useEffect, useState } from "react";
import toast from "react-hot-toast";
import { resendVerification } from "../../../lib/api/auth";
import { ApiError } from "../../../lib/api/client";

/** The API sends at most one verification mail a minute per address. */
export const RESEND_INTERVAL_SECONDS = 60;

/** "Resend email" on the Check Your Email screen: the spec's messages, then the wait as a countdown. */
export function ResendEmail({ email, next }: { email: string; next: string | null }) {
  const [sending, setSending] = useState(false);
  const [waitUntil, setWaitUntil] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const left = Math.max(0, Math.ceil((waitUntil - now) / 1000));

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

  async function onClick() {
    setSending(true);
    try {
      await resendVerification(email, next ?? undefined);
      toast.success("Verification email sent! Check your inbox.");
      wait(RESEND_INTERVAL_SECONDS);
    } catch (error) {
      if (error instanceof ApiError) {
        toast.error(error.message);
        if (error.retryAfter) wait(error.retryAfter);
      } else {
        toast.error("An error occurred while resending verification email");
      }
    } finally {
      setSending(false);
    }
  }

  return (
    <button
      type="button"
      disabled={sending || left > 0}
      onClick={() => void onClick()}
      className="font-medium text-blue-700 underline hover:text-blue-900 disabled:text-slate-500 disabled:no-underline"
    >
      {left > 0 ? `Resend email in ${left}s` : sending ? "Sending..." : "Resend email"}
    </button>
  );
}
