import { CheckCircle2, XCircle } from "lucide-react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { Link, useSearchParams } from "react-router";
import { Button, buttonStyles } from "../../../components/ui/Button";
import { Spinner } from "../../../components/ui/Spinner";
import { TextField } from "../../../components/ui/TextField";
import { verifyEmail } from "../../../lib/api/auth";
import { ApiError } from "../../../lib/api/client";
import { useAuth } from "../../../lib/auth/AuthProvider";
import { useResendVerification } from "../../../lib/auth/useResendVerification";
import { AuthCard } from "./AuthCard";
import { ChoosePassword } from "./ChoosePassword";
import { useNextPath, withNext } from "./next";

type State =
  | { kind: "verifying" }
  | { kind: "verified" }
  | { kind: "choose"; email: string; passwordToken: string }
  | { kind: "failed"; message: string };

export function VerifyEmail() {
  const [params] = useSearchParams();
  const token = params.get("token");
  const auth = useAuth();
  const next = useNextPath();
  const [state, setState] = useState<State>(
    token ? { kind: "verifying" } : { kind: "failed", message: "This verification link is invalid." },
  );
  const started = useRef(false);
  const [email, setEmail] = useState("");
  const resending = useResendVerification();

  useEffect(() => {
    // The token is single use: never send it twice (StrictMode runs effects twice in development).
    if (!token || started.current) return;
    started.current = true;
    verifyEmail(token)
      .then((answer) => {
        if (answer.status === "choose_password") {
          setState({ kind: "choose", email: answer.user.email, passwordToken: answer.password_token ?? "" });
          return;
        }
        setState({ kind: "verified" });
        auth.manager.updateUser(answer.user);
      })
      .catch((error: unknown) =>
        setState({
          kind: "failed",
          message: error instanceof ApiError ? error.message : "An unexpected error occurred",
        }),
      );
  }, [token, auth.manager]);

  if (state.kind === "verifying") {
    return (
      <AuthCard title="Verifying your email">
        <p role="status" className="flex items-center gap-2 text-slate-600">
          <Spinner /> Verifying your email...
        </p>
      </AuthCard>
    );
  }

  if (state.kind === "choose") {
    return (
      <ChoosePassword
        email={state.email}
        passwordToken={state.passwordToken}
        onChosen={(user) => {
          setState({ kind: "verified" });
          auth.manager.updateUser(user);
        }}
      />
    );
  }

  if (state.kind === "verified") {
    const signedIn = auth.status === "signedIn";
    return (
      <AuthCard title="Email verified">
        <p className="flex items-start gap-2 text-slate-700">
          <CheckCircle2 aria-hidden className="h-5 w-5 shrink-0 text-green-600" />
          Your email address has been verified. {signedIn ? "Your account is fully unlocked." : "You can now sign in."}
        </p>
        <Link
          to={signedIn ? (next ?? "/dashboard") : withNext("/signin", next)}
          className={buttonStyles("primary", "mt-6 w-full")}
        >
          {signedIn ? (next ? "Continue" : "Go to Dashboard") : "Go to Sign In"}
        </Link>
      </AuthCard>
    );
  }

  async function onResend(event: FormEvent) {
    event.preventDefault();
    await resending.resend(email, next);
  }

  return (
    <AuthCard title="Verification failed">
      <p role="alert" className="flex items-start gap-2 text-slate-700">
        <XCircle aria-hidden className="h-5 w-5 shrink-0 text-red-600" />
        {state.message}
      </p>
      <form noValidate onSubmit={(e) => void onResend(e)} className="mt-6 space-y-4">
        <p className="text-sm text-slate-600">Enter your email address and we&apos;ll send you a new link.</p>
        <TextField label="Email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
        <Button type="submit" className="w-full" disabled={resending.disabled}>
          {resending.label}
        </Button>
      </form>
      <p className="mt-4 text-center text-sm">
        <Link to={withNext("/signin", next)} className="font-medium text-blue-700 underline hover:text-blue-900">
          Go to Sign In
        </Link>
      </p>
    </AuthCard>
  );
}
