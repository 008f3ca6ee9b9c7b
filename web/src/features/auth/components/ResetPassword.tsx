import { useState, type FormEvent } from "react";
import toast from "react-hot-toast";
import { Link, useNavigate, useSearchParams } from "react-router";
import { Button } from "../../../components/ui/Button";
import { PasswordField } from "../../../components/ui/TextField";
import { resetPassword } from "../../../lib/api/auth";
import { ApiError } from "../../../lib/api/client";
import { AuthCard } from "./AuthCard";

export function ResetPassword() {
  const [params] = useSearchParams();
  const token = params.get("token");
  const navigate = useNavigate();
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [errors, setErrors] = useState<{ password?: string; confirm?: string }>({});
  const [linkError, setLinkError] = useState<string | null>(token ? null : "This reset link is invalid.");
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!token) return;
    const next: typeof errors = {};
    if (password !== confirm) next.confirm = "Passwords do not match";
    else if (password.length < 6) next.password = "Password must be at least 6 characters";
    setErrors(next);
    if (next.password || next.confirm) return;
    setBusy(true);
    try {
      await resetPassword({ token, password });
      toast.success("Password updated! Please sign in with your new password.");
      void navigate("/signin", { replace: true });
    } catch (e) {
      if (e instanceof ApiError && e.code.startsWith("token_")) setLinkError(e.message);
      else if (e instanceof ApiError && e.code === "weak_password") setErrors({ password: e.message });
      else toast.error(e instanceof ApiError ? e.message : "An unexpected error occurred");
    } finally {
      setBusy(false);
    }
  }

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

  return (
    <AuthCard title="Choose a new password">
      <form noValidate onSubmit={(e) => void onSubmit(e)} className="space-y-4">
        <PasswordField
          label="New password"
          autoComplete="new-password"
          value={password}
          error={errors.password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <PasswordField
          label="Confirm new password"
          autoComplete="new-password"
          value={confirm}
          error={errors.confirm}
          onChange={(e) => setConfirm(e.target.value)}
        />
        <Button type="submit" className="w-full" disabled={busy}>
          {busy ? "Saving..." : "Reset password"}
        </Button>
      </form>
    </AuthCard>
  );
}
