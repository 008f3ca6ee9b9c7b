import { AlertTriangle } from "lucide-react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import toast from "react-hot-toast";
import { Link, useNavigate, useSearchParams } from "react-router";
import { useHydrated } from "../../../components/ui/useHydrated";
import { Button } from "../../../components/ui/Button";
import { FormError } from "../../../components/ui/FormError";
import { PasswordField, TextField } from "../../../components/ui/TextField";
import { ApiError, failureMessage, type MfaMethod } from "../../../lib/api/client";
import { track } from "../../../lib/analytics";
import { useAuth } from "../../../lib/auth/AuthProvider";
import { ResendVerification } from "../../../components/account/ResendVerification";
import { afterSignIn } from "../../../lib/auth/afterSignIn";
import { AuthCard } from "./AuthCard";
import { MfaStep } from "./MfaStep";
import { SsoSignIn } from "./SsoSignIn";
import { useEmailParam, useNextPath, withNext } from "./next";
import { usePasskeySignIn } from "./usePasskeySignIn";

/** `/signin?sso=1` with the address and `next` carried. */
function ssoLink(next: string | null, email: string) {
  const path = withNext("/signin", next, email);
  return `${path}${path.includes("?") ? "&" : "?"}sso=1`;
}

export function SignInForm() {
  const [params] = useSearchParams();
  return params.get("sso") === "1" ? <SsoSignIn /> : <PasswordSignIn />;
}

function PasswordSignIn() {
  const auth = useAuth();
  const navigate = useNavigate();
  const next = useNextPath();
  const target = next ?? "/dashboard";
  const prefilled = useEmailParam();
  const [email, setEmail] = useState(prefilled);
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<{ email?: string; password?: string }>({});
  const emailField = useRef<HTMLInputElement>(null);
  const passwordField = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const hydrated = useHydrated();
  const [needsVerification, setNeedsVerification] = useState(false);
  const [mfa, setMfa] = useState<{ token: string; methods: MfaMethod[] } | null>(null);
  // Every way of signing in ends signed in; the effect below then leads on (`afterSignIn`).
  const signedIn = () => undefined;
  const passkey = usePasskeySignIn({ enabled: hydrated && !mfa, onSignedIn: signedIn, onError: setFormError });

  // Someone signed in has nothing to do here: on to where they were going, or to set up a factor
  // their team requires.
  useEffect(() => {
    if (auth.status !== "signedIn" || busy || passkey.busy) return;
    let live = true;
    void afterSignIn(target).then((to) => live && navigate(to, { replace: true }));
    return () => {
      live = false;
    };
  }, [auth.status, busy, passkey.busy, navigate, target]);

  // After a refused sign-in, back to the password (the disabled button had left focus on the page),
  // once the form is enabled again.
  const refocus = useRef(false);
  useEffect(() => {
    if (busy || !refocus.current) return;
    refocus.current = false;
    passwordField.current?.focus();
    passwordField.current?.select();
  }, [busy]);

  const toSso = () => ssoLink(next, email.trim());

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const next: typeof errors = {};
    if (!email.trim()) next.email = "Email is required";
    if (!password) next.password = "Password is required";
    setErrors(next);
    if (next.email || next.password) {
      (next.email ? emailField : passwordField).current?.focus();
      return;
    }

    setBusy(true);
    setFormError(null);
    try {
      await auth.manager.signIn(email.trim(), password);
      track("user_signed_in");
      toast.success("Signed in successfully!");
    } catch (error) {
      if (error instanceof ApiError && error.code === "mfa_required" && error.mfa.mfaToken) {
        setPassword("");
        setMfa({ token: error.mfa.mfaToken, methods: error.mfa.methods ?? ["totp", "recovery_code"] });
      } else if (error instanceof ApiError && error.code === "sso_required") {
        toast.error(error.message);
        void navigate(toSso());
      } else if (error instanceof ApiError && error.message.includes("Email not confirmed")) {
        toast.error("Please verify your email address before signing in");
        setNeedsVerification(true);
      } else {
        // Once, under the form it belongs to (announced there): no toast besides.
        setFormError(failureMessage(error));
        refocus.current = true;
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthCard
      title="Sign in to your account"
      subtitle={
        <>
          Don&apos;t have an account?{" "}
          <Link to={withNext("/signup", next, prefilled)} className="font-medium text-blue-700 underline hover:text-blue-900">
            Sign up
          </Link>
        </>
      }
    >
      {needsVerification && (
        <div role="status" className="mb-6 rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900">
          <p className="flex items-center gap-2 font-semibold">
            <AlertTriangle aria-hidden className="h-4 w-4" /> Email Verification Required
          </p>
          <p className="mt-1">Please check your inbox and click the verification link before signing in. Didn&apos;t get it?</p>
          <ResendVerification
            email={email}
            next={next}
            className="mt-2 block hover:text-amber-950 focus-visible:outline-amber-700"
          />
        </div>
      )}
      {mfa && (
        <MfaStep
          mfaToken={mfa.token}
          methods={mfa.methods}
          beforePasskey={passkey.stopAutofill}
          onSignedIn={signedIn}
          onRestart={() => setMfa(null)}
        />
      )}
      {!mfa && (
        <form
          noValidate
          aria-label="Sign in"
          aria-describedby={formError ? "signin-error" : undefined}
          onSubmit={(e) => void onSubmit(e)}
          className="space-y-4"
        >
          <fieldset disabled={!hydrated} className="space-y-4">
            <TextField
              label="Email"
              type="email"
              name="email"
              autoComplete="username webauthn"
              required
              ref={emailField}
              value={email}
              error={errors.email}
              onChange={(e) => setEmail(e.target.value)}
            />
            <PasswordField
              label="Password"
              name="password"
              autoComplete="current-password"
              required
              ref={passwordField}
              value={password}
              error={errors.password}
              onChange={(e) => setPassword(e.target.value)}
            />
            <div className="flex justify-end">
              <Link to="/forgot-password" className="text-sm font-medium text-blue-700 underline hover:text-blue-900">
                Forgot password?
              </Link>
            </div>
            <Button type="submit" className="w-full" disabled={busy} aria-busy={busy}>
              {busy ? "Signing In..." : "Sign In"}
            </Button>
            <FormError id="signin-error" message={formError} />
            <Link to={toSso()} className="block text-center text-sm font-medium text-blue-700 underline hover:text-blue-900">
              Continue with SSO
            </Link>
            {passkey.supported && (
              <Button
                variant="secondary"
                className="w-full"
                disabled={passkey.busy}
                aria-busy={passkey.busy}
                onClick={() => void passkey.signIn()}
              >
                Sign in with a passkey
              </Button>
            )}
          </fieldset>
        </form>
      )}
    </AuthCard>
  );
}
