//! Sudo mode on the web: an action the API refuses with `403 reauthentication_required` (approving a
//! device, allowing the app, handing over a team) asks for the password in place, re-enters it on the
//! session (`POST /api/auth/reauthenticate`) and runs the action again. An account with a second
//! factor is asked for it too (the API answers `mfa_required` to the password alone, with the methods):
//! the app's code or a recovery code, or "Use a passkey" (a step-up challenge the browser answers).

import { useRef, useState, type FormEvent, type ReactNode } from "react";
import { reauthenticate } from "../../lib/api/auth";
import { ApiError, type MfaMethod } from "../../lib/api/client";
import { stepUpChallenge } from "../../lib/api/mfa";
import { useAuthManager } from "../../lib/auth/AuthProvider";
import { cancelled, getPasskey, passkeysSupported } from "../../lib/webauthn";
import { Button } from "../ui/Button";
import { Modal } from "../ui/Modal";
import { PasswordField, TextField } from "../ui/TextField";

export const CONFIRM_PASSWORD_TITLE = "Confirm your password";
export const REAUTHENTICATION_REQUIRED = "reauthentication_required";
export const STEP_UP_CODE_PROMPT = "Enter the 6-digit code from your authenticator app, or a recovery code.";
export const STEP_UP_PASSKEY_PROMPT = "Confirm with one of your passkeys.";
export const USE_A_PASSKEY = "Use a passkey";
const NO_PASSKEYS_HERE = "Your second factor is a passkey, and this browser cannot use passkeys. Try another browser or device.";

const needsPassword = (error: unknown) => error instanceof ApiError && error.code === REAUTHENTICATION_REQUIRED;

/** The password form: on success the session may take sensitive actions for 15 minutes. */
export function ConfirmPasswordForm({ onDone }: { onDone: (confirmed: boolean) => void }) {
  const auth = useAuthManager();
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  /** Set once the API asked for the second factor too: the methods it offers. */
  const [methods, setMethods] = useState<MfaMethod[] | null>(null);
  const [code, setCode] = useState("");
  const [codeError, setCodeError] = useState<string | null>(null);
  const asksCode = methods !== null && methods.includes("totp");
  const offersPasskey = methods !== null && methods.includes("passkey") && passkeysSupported();

  /** The checks before a request: the password, and a signed-in session; its token. */
  function ready(): string | null {
    if (!password) {
      setError("Password is required");
      return null;
    }
    const token = auth.accessToken();
    if (!token) setError("Please sign in to continue");
    return token;
  }

  async function send(attempt: () => Promise<unknown>) {
    setBusy(true);
    setError(null);
    setCodeError(null);
    try {
      await attempt();
      onDone(true);
    } catch (e) {
      setBusy(false);
      if (e instanceof ApiError && e.code === "mfa_required") setMethods(e.mfa.methods ?? ["totp"]);
      else if (e instanceof ApiError && ["invalid_code", "invalid_passkey", "challenge_expired"].includes(e.code))
        setCodeError(e.message);
      else if (!cancelled(e)) setError(e instanceof ApiError ? e.message : "An unexpected error occurred");
    }
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (offersPasskey && !asksCode) return confirmWithPasskey();
    if (asksCode && !code.trim() && ready()) {
      setCodeError("Code is required");
      return;
    }
    const token = ready();
    if (!token) return;
    void send(() => reauthenticate(password, token, code.trim().replace(/\s/g, "") || undefined));
  }

  function confirmWithPasskey() {
    const token = ready();
    if (!token) return;
    void send(async () => {
      const { challenge_id, options } = await stepUpChallenge(token);
      const credential = await getPasskey(options);
      await reauthenticate(password, token, undefined, { challenge_id, credential });
    });
  }

  return (
    <form noValidate onSubmit={(e) => void onSubmit(e)} className="space-y-4">
      <p className="text-slate-700">For your security, enter your password again to continue.</p>
      <PasswordField
        label="Password"
        autoComplete="current-password"
        value={password}
        error={error}
        onChange={(e) => setPassword(e.target.value)}
      />
      {asksCode && (
        <>
          <p className="text-slate-700">{STEP_UP_CODE_PROMPT}</p>
          <TextField
            label="Authentication code"
            autoComplete="one-time-code"
            value={code}
            error={codeError}
            onChange={(e) => setCode(e.target.value)}
          />
        </>
      )}
      {offersPasskey && !asksCode && <p className="text-slate-700">{STEP_UP_PASSKEY_PROMPT}</p>}
      {methods !== null && !asksCode && !offersPasskey && (
        <p role="alert" className="text-sm text-red-600">
          {NO_PASSKEYS_HERE}
        </p>
      )}
      {!asksCode && codeError && (
        <p role="alert" className="text-sm text-red-600">
          {codeError}
        </p>
      )}
      <div className="flex flex-wrap justify-end gap-3">
        {offersPasskey && (
          <Button variant="secondary" disabled={busy} onClick={confirmWithPasskey}>
            {USE_A_PASSKEY}
          </Button>
        )}
        <Button variant="secondary" onClick={() => onDone(false)}>
          Cancel
        </Button>
        <Button type="submit" disabled={busy} aria-busy={busy}>
          {busy ? "Confirming..." : "Confirm"}
        </Button>
      </div>
    </form>
  );
}

/**
 * `guard(action)` runs `action`; when the API answers `reauthentication_required`, it asks for the
 * password (`dialog`, a modal, or `form`, to show inside a dialog already open), then runs it once
 * more. Cancelling rejects with the API's error, whose message says why.
 */
export function useConfirmPassword() {
  const waiting = useRef<((confirmed: boolean) => void) | null>(null);
  const [asking, setAsking] = useState(false);

  async function guard<T>(action: () => Promise<T>): Promise<T> {
    try {
      return await action();
    } catch (error) {
      if (!needsPassword(error)) throw error;
      const confirmed = await new Promise<boolean>((resolve) => {
        waiting.current = resolve;
        setAsking(true);
      });
      if (!confirmed) throw error;
      return action();
    }
  }

  function done(confirmed: boolean) {
    setAsking(false);
    waiting.current?.(confirmed);
    waiting.current = null;
  }

  const form: ReactNode = asking ? (
    <section aria-label={CONFIRM_PASSWORD_TITLE}>
      <h3 className="mb-2 font-semibold text-slate-900">{CONFIRM_PASSWORD_TITLE}</h3>
      <ConfirmPasswordForm onDone={done} />
    </section>
  ) : null;
  const dialog: ReactNode = (
    <Modal open={asking} onClose={() => done(false)} title={CONFIRM_PASSWORD_TITLE}>
      <ConfirmPasswordForm onDone={done} />
    </Modal>
  );
  return { guard, asking, form, dialog };
}
