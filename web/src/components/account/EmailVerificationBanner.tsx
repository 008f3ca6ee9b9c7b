import { MailWarning, X } from "lucide-react";
import { ResendVerification } from "./ResendVerification";

/** The verification reminder, with an optional dismiss button. */
export function EmailVerificationBanner({ email, onDismiss }: { email: string; onDismiss?: () => void }) {
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
          <ResendVerification email={email} className="hover:text-amber-950 focus-visible:outline-amber-700" />
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
