import { MailWarning, X } from "lucide-react";
import { useResendVerification } from "../../lib/auth/useResendVerification";

/** The verification reminder, with an optional dismiss button. */
export function EmailVerificationBanner({ email, onDismiss }: { email: string; onDismiss?: () => void }) {
  const { resend, sending } = useResendVerification();
  return (
    <div
      role="region"
      aria-label="Email verification"
      className="flex items-start gap-3 rounded-xl border border-amber-300 bg-amber-50 p-4 text-amber-900"
    >
      <MailWarning aria-hidden className="mt-0.5 h-5 w-5 shrink-0" />
      <div className="flex-1 text-sm">
        <p className="font-semibold">Please verify your email address</p>
        <p className="mt-1">
          We sent a verification link to {email}.{" "}
          <button
            type="button"
            disabled={sending}
            onClick={() => void resend(email)}
            className="font-medium underline hover:text-amber-950 disabled:opacity-60 focus-visible:outline focus-visible:outline-2 focus-visible:outline-amber-700"
          >
            Resend verification email
          </button>
        </p>
      </div>
      {onDismiss && (
        <button
          type="button"
          onClick={onDismiss}
          aria-label="Dismiss verification banner"
          className="rounded-md p-1 hover:bg-amber-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-amber-700"
        >
          <X aria-hidden className="h-4 w-4" />
        </button>
      )}
    </div>
  );
}
