import { useState, type FormEvent } from "react";
import { Link } from "react-router";
import { Button } from "../../../components/ui/Button";
import { PasswordField } from "../../../components/ui/TextField";
import { chooseVerifiedPassword } from "../../../lib/api/auth";
import { ApiError } from "../../../lib/api/client";
import type { User } from "../../../lib/api/types";
import { AuthCard } from "./AuthCard";

/**
 * The verification link's second step when the address was signed up for more than once: none of
 * the passwords typed at those sign-ups is the account's (docs/api.md `choose_password`), so the
 * person who read the mail chooses it here.
 */
export function ChoosePassword({
  email,
  passwordToken,
  onChosen,
}: {
  email: string;
  passwordToken: string;
  onChosen: (user: User) => void;
}) {
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [errors, setErrors] = useState<{ password?: string; confirm?: string }>({});
  const [linkError, setLinkError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const next: typeof errors = {};
    if (password !== confirm) next.confirm = "Passwords do not match";
    else if (password.length < 6) next.password = "Password must be at least 6 characters";
    setErrors(next);
    if (next.password || next.confirm) return;
    setBusy(true);
    try {
      const { user } = await chooseVerifiedPassword({ password_token: passwordToken, password });
      onChosen(user);
    } catch (e) {
      if (e instanceof ApiError && e.code.startsWith("token_")) setLinkError(e.message);
      else if (e instanceof ApiError && e.code === "weak_password") setErrors({ password: e.message });
      else setErrors({ password: e instanceof ApiError ? e.message : "An unexpected error occurred" });
    } finally {
      setBusy(false);
    }
  }

  if (linkError) {
    return (
      <AuthCard title="Choose your password">
        <p role="alert" className="text-slate-700">
          {linkError}
        </p>
        <p className="mt-4 text-sm text-slate-600">Your email address is verified: set a password with a reset link.</p>
        <Link to="/forgot-password" className="mt-6 inline-block font-medium text-blue-700 underline hover:text-blue-900">
          Forgot password?
        </Link>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Choose your password">
      <p className="text-slate-700">
        Your email address has been verified. It was used to sign up more than once, so no password is set yet: choose the
        password for <strong>{email}</strong>.
      </p>
      <form noValidate onSubmit={(e) => void onSubmit(e)} className="mt-6 space-y-4">
        {/* Lets password managers file the new password under the right account. */}
        <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
        <PasswordField
          label="Password"
          autoComplete="new-password"
          value={password}
          error={errors.password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <PasswordField
          label="Confirm password"
          autoComplete="new-password"
          value={confirm}
          error={errors.confirm}
          onChange={(e) => setConfirm(e.target.value)}
        />
        <Button type="submit" className="w-full" disabled={busy}>
          {busy ? "Saving..." : "Set password"}
        </Button>
      </form>
    </AuthCard>
  );
}
