import { useState, type FormEvent, type ReactNode } from "react";
import { Button } from "../../../components/ui/Button";
import { PasswordField } from "../../../components/ui/TextField";
import { ApiError } from "../../../lib/api/client";
import { checkNewPassword } from "../../../lib/auth/password";

/**
 * A new password typed twice and sent with a link's token: the reset page and the verification
 * link's "choose your password" step. The API's `token_*` codes are the link's fault (`onLinkError`),
 * `weak_password` the password's; anything else goes to `onOtherError`.
 */
export function NewPasswordForm({
  labels,
  submitLabel,
  submit,
  onLinkError,
  onOtherError,
  children,
}: {
  labels: { password: string; confirm: string };
  submitLabel: string;
  submit: (password: string) => Promise<void>;
  onLinkError: (message: string) => void;
  onOtherError: (message: string) => void;
  children?: ReactNode;
}) {
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [errors, setErrors] = useState<{ password?: string; confirm?: string }>({});
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const next: typeof errors = checkNewPassword(password, confirm);
    setErrors(next);
    if (next.password || next.confirm) return;
    setBusy(true);
    try {
      await submit(password);
    } catch (e) {
      if (e instanceof ApiError && e.code.startsWith("token_")) onLinkError(e.message);
      else if (e instanceof ApiError && e.code === "weak_password") setErrors({ password: e.message });
      else onOtherError(e instanceof ApiError ? e.message : "An unexpected error occurred");
    } finally {
      setBusy(false);
    }
  }

  return (
    <form noValidate onSubmit={(e) => void onSubmit(e)} className="space-y-4">
      {children}
      <PasswordField
        label={labels.password}
        autoComplete="new-password"
        value={password}
        error={errors.password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <PasswordField
        label={labels.confirm}
        autoComplete="new-password"
        value={confirm}
        error={errors.confirm}
        onChange={(e) => setConfirm(e.target.value)}
      />
      <Button type="submit" className="w-full" disabled={busy}>
        {busy ? "Saving..." : submitLabel}
      </Button>
    </form>
  );
}
