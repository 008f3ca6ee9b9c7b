import { cn } from "../ui/cn";
import { useResendVerification } from "../../lib/auth/useResendVerification";

/**
 * The one resend control (sign-in's notice, Check Your Email, the dashboard's banner): the spec's
 * toasts, one label, and the wait before the next mail as a countdown on the button itself.
 */
export function ResendVerification({ email, next, className }: { email: string; next?: string | null; className?: string }) {
  const { resend, label, disabled } = useResendVerification();
  return (
    <button
      type="button"
      disabled={disabled}
      onClick={() => void resend(email, next)}
      className={cn(
        "font-medium underline disabled:no-underline disabled:opacity-70 focus-visible:outline focus-visible:outline-2",
        className ?? "text-blue-700 hover:text-blue-900 focus-visible:outline-blue-600",
      )}
    >
      {label}
    </button>
  );
}
