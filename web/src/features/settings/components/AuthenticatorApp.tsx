//! Settings → Security → the authenticator app (TOTP): set it up (a QR code of the `otpauth://` URI, the same URI as a
//! link for the phone that holds the app, the secret written out with a copy button, a code to confirm), the recovery
//! codes shown once, "Generate new codes",
//! "Turn off".

import { lazy, Suspense, useState, type FormEvent } from "react";
import { Copy } from "lucide-react";
import toast from "react-hot-toast";
import { useConfirmPassword } from "../../../components/account/ConfirmPassword";
import { Button, buttonStyles } from "../../../components/ui/Button";
import { Spinner } from "../../../components/ui/Spinner";
import { TextField } from "../../../components/ui/TextField";
import { ApiError } from "../../../lib/api/client";
import type { MfaStatus, TotpEnrolment } from "../../../lib/api/types";
import { useConfirmTotp, useDisableTotp, useRegenerateRecoveryCodes, useStartTotp } from "../api/mutations";
import { CodeDialog } from "./CodeDialog";
import { RecoveryCodes } from "./RecoveryCodes";

// The QR encoder is downloaded only when someone sets up an app.
const Qr = lazy(() => import("./Qr"));

const message = (error: unknown) => (error instanceof ApiError ? error.message : "An unexpected error occurred");
/** The secret in groups of four, easier to type. */
const grouped = (secret: string) => secret.replace(/(.{4})(?=.)/g, "$1 ");

function SetUp({
  enrolment,
  onConfirmed,
  onCancel,
}: {
  enrolment: TotpEnrolment;
  onConfirmed: (codes: string[]) => void;
  onCancel: () => void;
}) {
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const password = useConfirmPassword();
  const confirm = useConfirmTotp(password.guard);
  // Stays busy once confirmed: the recovery codes take this form's place.
  const busy = confirm.isPending || confirm.isSuccess;

  async function copyKey() {
    try {
      await navigator.clipboard.writeText(enrolment.secret);
      toast.success("Key copied");
    } catch {
      toast.error("Could not copy the key: select it and copy it instead");
    }
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const value = code.replace(/\s/g, "");
    if (!/^\d{6}$/.test(value)) {
      setError("Enter the 6 digits your app shows");
      return;
    }
    setError(null);
    try {
      onConfirmed((await confirm.mutateAsync(value)).recovery_codes);
    } catch (e) {
      setError(message(e));
    }
  }

  return (
    <div className="mt-4 space-y-4">
      {password.asking && password.dialog}
      <p className="text-slate-700">Scan this QR code with your authenticator app, then enter the 6-digit code it shows.</p>
      <Suspense fallback={<Spinner />}>
        <Qr value={enrolment.otpauth_uri} label="QR code for your authenticator app" />
      </Suspense>
      <p className="text-sm text-slate-700">
        Can&apos;t scan it? Enter this key in the app:{" "}
        <code data-testid="totp-secret" className="rounded bg-slate-100 px-1 font-mono">
          {grouped(enrolment.secret)}
        </code>
      </p>
      {/* On the phone that holds the authenticator, the QR code cannot be scanned: the link opens the
          app with the account filled in, and the key can be pasted. */}
      <div className="flex flex-wrap gap-3">
        <a href={enrolment.otpauth_uri} className={buttonStyles("secondary", "min-h-11")}>
          Open in your authenticator app
        </a>
        <Button variant="secondary" className="min-h-11" onClick={() => void copyKey()}>
          <Copy aria-hidden className="h-4 w-4" /> Copy key
        </Button>
      </div>
      <form noValidate onSubmit={(e) => void onSubmit(e)} className="max-w-xs space-y-4">
        <TextField
          label="Authentication code"
          inputMode="numeric"
          autoComplete="one-time-code"
          value={code}
          error={error}
          onChange={(e) => setCode(e.target.value)}
        />
        <div className="flex gap-3">
          <Button type="submit" disabled={busy} aria-busy={busy}>
            {busy ? "Verifying..." : "Turn on"}
          </Button>
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        </div>
      </form>
    </div>
  );
}

/** The status is read again after every change here (features/settings/api/mutations.ts). */
export function AuthenticatorApp({ status, email }: { status: MfaStatus; email: string }) {
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [dialog, setDialog] = useState<"regenerate" | "off" | null>(null);
  const password = useConfirmPassword();
  const start = useStartTotp(password.guard);
  const regenerate = useRegenerateRecoveryCodes();
  const disable = useDisableTotp();
  const busy = start.isPending;

  function begin() {
    start.mutate(undefined, { onSuccess: setEnrolment, onError: (e) => toast.error(message(e)) });
  }

  function confirmed(recovery: string[]) {
    setEnrolment(null);
    setCodes(recovery);
    toast.success("Authenticator app turned on");
  }

  return (
    <div>
      {password.asking && password.dialog}
      <h3 className="font-semibold text-slate-900">Authenticator app</h3>
      {codes ? (
        <RecoveryCodes codes={codes} email={email} onDone={() => setCodes(null)} />
      ) : status.totp ? (
        <>
          <p className="mt-1 text-slate-600">On. {status.recovery_codes_remaining} of 10 recovery codes left.</p>
          <div className="mt-3 flex flex-wrap gap-3">
            <Button variant="secondary" onClick={() => setDialog("regenerate")}>
              Generate new codes
            </Button>
            <Button variant="danger" onClick={() => setDialog("off")}>
              Turn off
            </Button>
          </div>
        </>
      ) : enrolment ? (
        <SetUp enrolment={enrolment} onConfirmed={confirmed} onCancel={() => setEnrolment(null)} />
      ) : (
        <>
          <p className="mt-1 text-slate-600">Sign in with a code from an app on your phone as well as your password.</p>
          <Button className="mt-3" disabled={busy} aria-busy={busy} onClick={begin}>
            Set up an authenticator app
          </Button>
        </>
      )}
      {dialog === "regenerate" && (
        <CodeDialog
          title="Generate new recovery codes"
          action="Generate new codes"
          onClose={() => setDialog(null)}
          run={async (code) => {
            const next = await regenerate.mutateAsync(code);
            setDialog(null);
            setCodes(next.recovery_codes);
          }}
        >
          Enter a code from your authenticator app. Your old recovery codes stop working.
        </CodeDialog>
      )}
      {dialog === "off" && (
        <CodeDialog
          title="Turn off the authenticator app?"
          action="Turn off"
          danger
          recovery
          onClose={() => setDialog(null)}
          run={async (code) => {
            await disable.mutateAsync(code);
            setDialog(null);
            toast.success("Authenticator app turned off");
          }}
        >
          Enter a code from your authenticator app, or one of your recovery codes.
        </CodeDialog>
      )}
    </div>
  );
}
