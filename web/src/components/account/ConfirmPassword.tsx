//! Sudo mode on the web: an action the API refuses with `403 reauthentication_required` (approving a
//! device, allowing the app, handing over a team) asks for the password in place, re-enters it on the
//! session (`POST /api/auth/reauthenticate`) and runs the action again. An account with an
//! authenticator app is asked its code too (the API answers `mfa_required` to the password alone).

import { useRef, useState, type FormEvent, type ReactNode } from "react";
import { reauthenticate } from "../../lib/api/auth";
import { ApiError } from "../../lib/api/client";
import { useAuthManager } from "../../lib/auth/AuthProvider";
import { Button } from "../ui/Button";
import { Modal } from "../ui/Modal";
import { PasswordField, TextField } from "../ui/TextField";

export const CONFIRM_PASSWORD_TITLE = "Confirm your password";
export const REAUTHENTICATION_REQUIRED = "reauthentication_required";
export const STEP_UP_CODE_PROMPT = "Enter the 6-digit code from your authenticator app, or a recovery code.";

const needsPassword = (error: unknown) => error instanceof ApiError && error.code === REAUTHENTICATION_REQUIRED;

/** The password form: on success the session may take sensitive actions for 15 minutes. */
export function ConfirmPasswordForm({ onDone }: { onDone: (confirmed: boolean) => void }) {
  const auth = useAuthManager();
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  /** Set once the API asked for the second factor too. */
  const [code, setCode] = useState<string | null>(null);
  const [codeError, setCodeError] = useState<string | null>(null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!password) {
      setError("Password is required");
      return;
    }
    if (code !== null && !code.trim()) {
      setCodeError("Code is required");
      return;
    }
    const token = auth.accessToken();
    if (!token) {
      setError("Please sign in to continue");
      return;
    }
    setBusy(true);
    setError(null);
    setCodeError(null);
    try {
      await reauthenticate(password, token, code?.trim().replace(/\s/g, "") || undefined);
      onDone(true);
    } catch (e) {
      setBusy(false);
      if (e instanceof ApiError && e.code === "mfa_required") setCode("");
      else if (e instanceof ApiError && e.code === "invalid_code") setCodeError(e.message);
      else setError(e instanceof ApiError ? e.message : "An unexpected error occurred");
    }
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
      {code !== null && (
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
      <div className="flex flex-wrap justify-end gap-3">
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
