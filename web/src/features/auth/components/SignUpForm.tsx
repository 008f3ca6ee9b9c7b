import { MailCheck } from "lucide-react";
import { useEffect, useState, type FormEvent } from "react";
import toast from "react-hot-toast";
import { Link, useNavigate } from "react-router";
import { ResendVerification } from "../../../components/account/ResendVerification";
import { LegalNotice } from "../../../components/layout/LegalNotice";
import { useHydrated } from "../../../components/ui/useHydrated";
import { Button, buttonStyles } from "../../../components/ui/Button";
import { FormError } from "../../../components/ui/FormError";
import { PasswordField, TextField } from "../../../components/ui/TextField";
import { signUp } from "../../../lib/api/auth";
import { ApiError, failureMessage } from "../../../lib/api/client";
import { track } from "../../../lib/analytics";
import { useAuth } from "../../../lib/auth/AuthProvider";
import { checkNewPassword, MIN_PASSWORD_LENGTH } from "../../../lib/auth/password";
import { CHECKOUT_MESSAGES, CHECKOUT_SIGN_IN_TOAST } from "../../../lib/billing/rules";
import { AuthCard } from "./AuthCard";
import { useEmailParam, useNextPath, withNext } from "./next";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

interface Errors {
  email?: string;
  password?: string;
  confirm?: string;
}

/** Section 5 of the spec, in its order: e-mail, then matching passwords, then length. */
export function validateSignUp(email: string, password: string, confirm: string): Errors {
  const errors: Errors = {};
  if (!email.trim()) errors.email = "Email is required";
  else if (!EMAIL.test(email.trim())) errors.email = "Please enter a valid email address";
  return { ...errors, ...checkNewPassword(password, confirm) };
}

function CheckYourEmail({ email, next, onTryAgain }: { email: string; next: string | null; onTryAgain: () => void }) {
  return (
    <AuthCard title="Check Your Email">
      <div className="flex flex-col items-center text-center">
        <MailCheck aria-hidden className="h-12 w-12 text-blue-600" />
        <p className="mt-4 text-slate-700">
          We&apos;ve sent a verification link to <strong className="break-all">{email}</strong>
        </p>
      </div>
      <h2 className="mt-6 text-sm font-semibold text-slate-900">Next steps</h2>
      <ol className="mt-2 list-decimal space-y-1 pl-5 text-sm text-slate-700">
        <li>Check your inbox (and your spam folder)</li>
        <li>Click the verification link in the email</li>
        <li>Return here and sign in</li>
      </ol>
      <div className="mt-6 flex flex-col gap-3">
        <Link to={withNext("/signin", next)} className={buttonStyles("primary", "w-full")}>
          Go to Sign In
        </Link>
        <Link to="/" className={buttonStyles("secondary", "w-full")}>
          Back to Home
        </Link>
      </div>
      <p className="mt-6 text-center text-sm text-slate-600">
        Didn&apos;t receive the email? <ResendVerification email={email} next={next} /> or{" "}
        <button type="button" onClick={onTryAgain} className="font-medium text-blue-700 underline hover:text-blue-900">
          Try again
        </button>
      </p>
    </AuthCard>
  );
}

export function SignUpForm() {
  const prefilled = useEmailParam();
  const [email, setEmail] = useState(prefilled);
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const hydrated = useHydrated();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const auth = useAuth();
  const navigate = useNavigate();
  const next = useNextPath();

  // A signed-out checkout sent the visitor here (from the pricing island, a full page load that
  // loses the click's toast): say why, once (the toast's id merges it with the click's own).
  useEffect(() => {
    if (next && new URL(next, "http://x").searchParams.has("checkout"))
      toast.error(CHECKOUT_MESSAGES.signIn, { id: CHECKOUT_SIGN_IN_TOAST });
  }, [next]);

  // Someone already signed in has no account to create (as on /signin).
  useEffect(() => {
    if (auth.status === "signedIn") void navigate(next ?? "/dashboard", { replace: true });
  }, [auth.status, navigate, next]);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const found = validateSignUp(email, password, confirm);
    setErrors(found);
    if (found.email || found.password || found.confirm) return;
    setBusy(true);
    setFormError(null);
    try {
      const result = await signUp(next ? { email: email.trim(), password, next } : { email: email.trim(), password });
      track("user_signed_up");
      toast.success("Account created! Please check your email to verify your account.");
      setSentTo(result.email);
    } catch (error) {
      // Once, inline: under the password it is about, else under the form.
      const message =
        error instanceof ApiError && error.message.includes("not configured")
          ? "Authentication service is not properly configured. Please contact support."
          : failureMessage(error);
      if (error instanceof ApiError && error.code === "weak_password") setErrors({ password: message });
      else setFormError(message);
    } finally {
      setBusy(false);
    }
  }

  if (sentTo) {
    return (
      <CheckYourEmail
        email={sentTo}
        next={next}
        onTryAgain={() => {
          setSentTo(null);
          setPassword("");
          setConfirm("");
        }}
      />
    );
  }

  return (
    <AuthCard
      title="Create your account"
      subtitle={
        <>
          Already have an account?{" "}
          <Link to={withNext("/signin", next, prefilled)} className="font-medium text-blue-700 underline hover:text-blue-900">
            Sign In
          </Link>
        </>
      }
    >
      <form
        noValidate
        aria-label="Create your account"
        aria-describedby={formError ? "signup-error" : undefined}
        onSubmit={(e) => void onSubmit(e)}
        className="space-y-4"
      >
        <fieldset disabled={!hydrated} className="space-y-4">
          <TextField
            label="Email"
            type="email"
            name="email"
            autoComplete="email"
            required
            value={email}
            error={errors.email}
            onChange={(e) => setEmail(e.target.value)}
          />
          <PasswordField
            label="Password"
            name="password"
            autoComplete="new-password"
            required
            minLength={MIN_PASSWORD_LENGTH}
            value={password}
            error={errors.password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <PasswordField
            label="Confirm password"
            name="confirm-password"
            autoComplete="new-password"
            required
            value={confirm}
            error={errors.confirm}
            onChange={(e) => setConfirm(e.target.value)}
          />
          <Button type="submit" className="w-full" disabled={busy} aria-busy={busy}>
            {busy ? "Creating Account..." : "Create Account"}
          </Button>
          <FormError id="signup-error" message={formError} />
          <LegalNotice className="mt-4 text-center" />
        </fieldset>
      </form>
    </AuthCard>
  );
}
