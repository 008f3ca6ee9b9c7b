//! `/reset-password?token=…`: a new password from the mail's link. A reset ends every session but
//! removes no second factor (that takes a sign-in with one, or support), so when the account has
//! passkeys — one may be someone else's — or desktop apps were signed out, the page lists them and
//! offers the one step that removes a passkey: signing in straight to Settings → Security.

import { useState } from "react";
import toast from "react-hot-toast";
import { Link, useNavigate, useSearchParams } from "react-router";
import { resetPassword } from "../../../lib/api/auth";
import type { PasswordReset } from "../../../lib/api/types";
import { AuthCard } from "./AuthCard";
import { NewPasswordForm } from "./NewPasswordForm";
import { withNext } from "./next";

export const RESET_DONE = "Password updated! Please sign in with your new password.";
export const REVIEW_PASSKEYS = "Sign in to remove passkeys";
/** Settings → Security, where each passkey has its Remove button. */
const SECURITY = "/settings#security";

const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: "medium" });

/** What the reset left: the passkeys that still sign in, the desktop apps it signed out. */
function Review({ done }: { done: PasswordReset }) {
  return (
    <AuthCard title="Password updated">
      <p className="text-slate-700">Every browser and desktop app was signed out.</p>
      {done.devices_signed_out.length > 0 && (
        <>
          <h2 className="mt-4 font-semibold text-slate-900">Desktop apps signed out</h2>
          <ul aria-label="Desktop apps signed out" className="mt-1 list-disc pl-5 text-slate-700">
            {done.devices_signed_out.map((d, i) => (
              <li key={i}>
                {d.name} ({d.platform})
              </li>
            ))}
          </ul>
        </>
      )}
      {done.passkeys.length > 0 && (
        <>
          <h2 className="mt-4 font-semibold text-slate-900">Passkeys that still sign in</h2>
          <p className="mt-1 text-slate-700">
            A new password does not remove passkeys. If you do not recognise one, remove it now.
          </p>
          <ul aria-label="Passkeys that still sign in" className="mt-2 list-disc pl-5 text-slate-700">
            {done.passkeys.map((p) => (
              <li key={p.id}>
                {p.name}, added {day(p.created_at)}
              </li>
            ))}
          </ul>
          <Link
            to={withNext("/signin", SECURITY)}
            className="mt-4 inline-block rounded-md bg-blue-700 px-4 py-2 font-medium text-white hover:bg-blue-800"
          >
            {REVIEW_PASSKEYS}
          </Link>
          <p className="mt-3 text-sm text-slate-600">
            If signing in asks for a passkey that is not yours, contact support: they can remove it.
          </p>
        </>
      )}
      <Link to="/signin" className="mt-6 block font-medium text-blue-700 underline hover:text-blue-900">
        Continue to sign in
      </Link>
    </AuthCard>
  );
}

export function ResetPassword() {
  const [params] = useSearchParams();
  const token = params.get("token");
  const navigate = useNavigate();
  const [linkError, setLinkError] = useState<string | null>(token ? null : "This reset link is invalid.");
  const [done, setDone] = useState<PasswordReset | null>(null);

  if (linkError) {
    return (
      <AuthCard title="Reset link problem">
        <p role="alert" className="text-slate-700">
          {linkError}
        </p>
        <Link to="/forgot-password" className="mt-6 inline-block font-medium text-blue-700 underline hover:text-blue-900">
          Request a new link
        </Link>
      </AuthCard>
    );
  }

  if (done) return <Review done={done} />;

  return (
    <AuthCard title="Choose a new password">
      <NewPasswordForm
        labels={{ password: "New password", confirm: "Confirm new password" }}
        submitLabel="Reset password"
        submit={async (password) => {
          if (!token) return;
          const answer = await resetPassword({ token, password });
          toast.success(RESET_DONE);
          if (answer.passkeys.length > 0 || answer.devices_signed_out.length > 0) setDone(answer);
          else void navigate("/signin", { replace: true });
        }}
        onLinkError={setLinkError}
        onOtherError={(message) => toast.error(message)}
      />
    </AuthCard>
  );
}
