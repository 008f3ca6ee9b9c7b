//! The sign-in's second step, after the password answered `mfa_required`: a code from the
//! authenticator app, a recovery code, or a passkey, finishing with `grant_type=mfa` (or `passkey`).

import { useEffect, useRef, useState, type FormEvent } from "react";
import toast from "react-hot-toast";
import { Button } from "../../../components/ui/Button";
import { TextField } from "../../../components/ui/TextField";
import { ApiError, type MfaMethod } from "../../../lib/api/client";
import { passkeyChallenge, signInWithMfa, signInWithPasskey } from "../../../lib/api/mfa";
import { track } from "../../../lib/analytics";
import { useAuthManager } from "../../../lib/auth/AuthProvider";
import { cancelled, getPasskey, passkeysSupported } from "../../../lib/webauthn";

export const CODE_PROMPT = "Enter the 6-digit code from your authenticator app";
export const RECOVERY_PROMPT = "Enter one of your recovery codes";

export function MfaStep({
  mfaToken,
  methods,
  beforePasskey,
  onSignedIn,
  onRestart,
}: {
  mfaToken: string;
  methods: MfaMethod[];
  /** Stops the e-mail field's pending passkey autofill: one WebAuthn request at a time. */
  beforePasskey: () => void;
  onSignedIn: () => void;
  /** The token is spent or expired: back to the password. */
  onRestart: () => void;
}) {
  const auth = useAuthManager();
  const hasTotp = methods.includes("totp");
  const [mode, setMode] = useState<"totp" | "recovery_code">(hasTotp ? "totp" : "recovery_code");
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const codeField = useRef<HTMLInputElement>(null);
  // The step opens on its code field, and goes back to it when the kind of code changes.
  useEffect(() => codeField.current?.focus(), [mode]);
  // A refused code leaves focus in the field (the disabled button had dropped it on the page).
  useEffect(() => {
    if (!busy && error) codeField.current?.focus();
  }, [busy, error]);
  const offerPasskey = methods.includes("passkey") && passkeysSupported();
  const offerCode = hasTotp || methods.includes("recovery_code");

  function failed(e: unknown) {
    if (e instanceof ApiError && e.code === "invalid_mfa_token") {
      toast.error(e.message);
      onRestart();
    } else if (e instanceof ApiError) setError(e.message);
    else toast.error("An unexpected error occurred");
  }

  function done(method: MfaMethod) {
    track("mfa_verified", { method });
    track("user_signed_in", { method });
    toast.success("Signed in successfully!");
    onSignedIn();
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const value = code.trim();
    if (!value) {
      setError(mode === "totp" ? "Code is required" : "Recovery code is required");
      return;
    }
    if (mode === "totp" && !/^\d{6}$/.test(value.replace(/\s/g, ""))) {
      setError("Enter the 6 digits your app shows");
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await auth.signInWith(() => signInWithMfa({ mfa_token: mfaToken, code: value.replace(/\s/g, "") }), { mfa: true });
      done(mode);
    } catch (e) {
      failed(e);
      setBusy(false);
    }
  }

  async function withPasskey() {
    beforePasskey();
    setBusy(true);
    setError(null);
    try {
      const { challenge_id, options } = await passkeyChallenge(mfaToken);
      const credential = await getPasskey(options);
      await auth.signInWith(() => signInWithPasskey({ challenge_id, credential, mfa_token: mfaToken }), { mfa: true });
      done("passkey");
    } catch (e) {
      if (!cancelled(e)) failed(e);
      setBusy(false);
    }
  }

  function switchTo(next: "totp" | "recovery_code") {
    setMode(next);
    setCode("");
    setError(null);
  }

  return (
    <section aria-labelledby="mfa-title" className="space-y-4">
      <h2 id="mfa-title" className="text-lg font-semibold text-slate-900">
        Two-step verification
      </h2>
      {offerCode && (
        <form noValidate onSubmit={(e) => void onSubmit(e)} className="space-y-4">
          <p className="text-slate-700">{mode === "totp" ? CODE_PROMPT : RECOVERY_PROMPT}</p>
          <TextField
            key={mode}
            label={mode === "totp" ? "Authentication code" : "Recovery code"}
            name="code"
            autoComplete="one-time-code"
            ref={codeField}
            inputMode={mode === "totp" ? "numeric" : "text"}
            value={code}
            error={error}
            onChange={(e) => setCode(e.target.value)}
          />
          <Button type="submit" className="w-full" disabled={busy} aria-busy={busy}>
            {busy ? "Verifying..." : "Verify"}
          </Button>
        </form>
      )}
      {!offerCode && error && (
        <p role="alert" className="text-sm text-red-600">
          {error}
        </p>
      )}
      <div className="flex flex-col items-start gap-2 text-sm">
        {mode === "totp" && methods.includes("recovery_code") && (
          <button type="button" className="font-medium text-blue-700 underline" onClick={() => switchTo("recovery_code")}>
            Use a recovery code instead
          </button>
        )}
        {mode === "recovery_code" && hasTotp && (
          <button type="button" className="font-medium text-blue-700 underline" onClick={() => switchTo("totp")}>
            Use your authenticator app instead
          </button>
        )}
        {offerPasskey && (
          <Button variant="secondary" className="w-full" disabled={busy} onClick={() => void withPasskey()}>
            Use a passkey
          </Button>
        )}
        <button type="button" className="font-medium text-slate-600 underline" onClick={onRestart}>
          Start over
        </button>
      </div>
    </section>
  );
}
