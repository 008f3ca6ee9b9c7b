import { useState, type FormEvent } from "react";
import toast from "react-hot-toast";
import { Link } from "react-router";
import { Button } from "../../../components/ui/Button";
import { TextField } from "../../../components/ui/TextField";
import { requestPasswordReset } from "../../../lib/api/auth";
import { ApiError } from "../../../lib/api/client";
import { AuthCard } from "./AuthCard";

export function ForgotPassword() {
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!email.trim()) {
      setError("Email is required");
      return;
    }
    setError(null);
    setBusy(true);
    try {
      await requestPasswordReset(email.trim());
      setSentTo(email.trim());
    } catch (e) {
      toast.error(e instanceof ApiError ? e.message : "An unexpected error occurred");
    } finally {
      setBusy(false);
    }
  }

  if (sentTo) {
    return (
      <AuthCard title="Check Your Email">
        <p role="status" className="text-slate-700">
          If an account exists for <strong className="break-all">{sentTo}</strong>, we&apos;ve sent a link to reset your password.
          The link is valid for 1 hour.
        </p>
        <p className="mt-6 text-center text-sm">
          <Link to="/signin" className="font-medium text-blue-700 underline hover:text-blue-900">
            Back to Sign In
          </Link>
        </p>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Reset your password" subtitle="Enter the email address of your account and we'll send you a reset link.">
      <form noValidate onSubmit={(e) => void onSubmit(e)} className="space-y-4">
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          required
          value={email}
          error={error}
          onChange={(e) => setEmail(e.target.value)}
        />
        <Button type="submit" className="w-full" disabled={busy}>
          {busy ? "Sending..." : "Send reset link"}
        </Button>
      </form>
      <p className="mt-4 text-center text-sm">
        <Link to="/signin" className="font-medium text-blue-700 underline hover:text-blue-900">
          Back to Sign In
        </Link>
      </p>
    </AuthCard>
  );
}
