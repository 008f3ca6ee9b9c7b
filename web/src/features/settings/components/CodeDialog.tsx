//! A dialog that asks a code (from the authenticator app, or a recovery code where `recovery`) and
//! runs an action with it; a sensitive action asks the password first, in the dialog (sudo mode).

import { useState, type FormEvent, type ReactNode } from "react";
import { useConfirmPassword } from "../../../components/account/ConfirmPassword";
import { Button } from "../../../components/ui/Button";
import { Modal } from "../../../components/ui/Modal";
import { TextField } from "../../../components/ui/TextField";
import { ApiError } from "../../../lib/api/client";

export function CodeDialog({
  title,
  children,
  action,
  danger = false,
  recovery = false,
  run,
  onClose,
}: {
  title: string;
  children: ReactNode;
  action: string;
  danger?: boolean;
  /** A recovery code is accepted too. */
  recovery?: boolean;
  run: (code: string) => Promise<void>;
  onClose: () => void;
}) {
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const password = useConfirmPassword();

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const value = code.trim().replace(/\s/g, "");
    if (!value) {
      setError("Code is required");
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await password.guard(() => run(value));
    } catch (e) {
      setError(e instanceof ApiError ? e.message : "An unexpected error occurred");
      setBusy(false);
    }
  }

  return (
    <Modal open onClose={onClose} title={title}>
      {password.asking ? (
        password.form
      ) : (
        <form noValidate onSubmit={(e) => void onSubmit(e)} className="space-y-4">
          <div className="text-slate-700">{children}</div>
          <TextField
            label={recovery ? "Code or recovery code" : "Authentication code"}
            autoComplete="one-time-code"
            value={code}
            error={error}
            onChange={(e) => setCode(e.target.value)}
          />
          <div className="flex flex-wrap justify-end gap-3">
            <Button variant="secondary" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" variant={danger ? "danger" : "primary"} disabled={busy} aria-busy={busy}>
              {action}
            </Button>
          </div>
        </form>
      )}
    </Modal>
  );
}
