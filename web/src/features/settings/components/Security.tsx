//! Settings → Security (/settings#security): the second factors, an authenticator app and passkeys.

import { ShieldCheck } from "lucide-react";
import { Spinner } from "../../../components/ui/Spinner";
import { useMfaStatus } from "../../../lib/api/queries";
import { mustSetUpFactor } from "../../../lib/auth/afterSignIn";
import type { User } from "../../../lib/api/types";
import { AuthenticatorApp } from "./AuthenticatorApp";
import { Passkeys } from "./Passkeys";

export const FACTOR_REQUIRED = "Your team requires two-step verification: set up an authenticator app or add a passkey.";

export function Security({ user }: { user: User }) {
  const status = useMfaStatus();
  const missing = mustSetUpFactor(status.data ?? null);
  return (
    <section
      id="security"
      aria-labelledby="security-title"
      className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h2 id="security-title" className="flex items-center gap-2 text-lg font-semibold text-slate-900">
        <ShieldCheck aria-hidden className="h-5 w-5" /> Security
      </h2>
      {missing && (
        <p role="status" className="mt-3 rounded-xl border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
          {FACTOR_REQUIRED}
        </p>
      )}
      {status.isPending ? (
        <Spinner />
      ) : status.data ? (
        <div className="mt-4 space-y-6">
          <AuthenticatorApp status={status.data} email={user.email} />
          <Passkeys />
        </div>
      ) : (
        <p role="alert" className="mt-2 text-red-600">
          Could not load your security settings.
        </p>
      )}
    </section>
  );
}
