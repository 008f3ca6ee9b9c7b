import { ArrowLeft, KeyRound, LogOut, Trash2 } from "lucide-react";
import { useState, type FormEvent } from "react";
import toast from "react-hot-toast";
import { Link, useNavigate } from "react-router";
import { Button } from "../../../components/ui/Button";
import { Modal } from "../../../components/ui/Modal";
import { PasswordField } from "../../../components/ui/TextField";
import { changePassword, deleteAccount } from "../../../lib/api/auth";
import { ApiError } from "../../../lib/api/client";
import type { User } from "../../../lib/api/types";
import { useAuth } from "../../../lib/auth/AuthProvider";
import { checkNewPassword } from "../../../lib/auth/password";
import { Devices } from "./Devices";
import { Security } from "./Security";

const message = (error: unknown) => (error instanceof ApiError ? error.message : "An unexpected error occurred");

function ChangePassword() {
  const [current, setCurrent] = useState("");
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [errors, setErrors] = useState<{ current?: string; password?: string; confirm?: string }>({});
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const next: typeof errors = checkNewPassword(password, confirm);
    if (!current) next.current = "Current password is required";
    setErrors(next);
    if (Object.keys(next).length) return;
    setBusy(true);
    try {
      await changePassword({ current_password: current, password });
      toast.success("Password updated");
      setCurrent("");
      setPassword("");
      setConfirm("");
    } catch (error) {
      if (error instanceof ApiError && error.code === "invalid_credentials") setErrors({ current: error.message });
      else toast.error(message(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="password-title" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id="password-title" className="flex items-center gap-2 text-lg font-semibold text-slate-900">
        <KeyRound aria-hidden className="h-5 w-5" /> Change password
      </h2>
      <form noValidate onSubmit={(e) => void onSubmit(e)} className="mt-4 max-w-md space-y-4">
        <PasswordField
          label="Current password"
          autoComplete="current-password"
          value={current}
          error={errors.current}
          onChange={(e) => setCurrent(e.target.value)}
        />
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
        <Button type="submit" disabled={busy}>
          {busy ? "Saving..." : "Update password"}
        </Button>
      </form>
    </section>
  );
}

function SignOutEverywhere() {
  const { manager } = useAuth();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  async function run() {
    setBusy(true);
    try {
      await manager.signOut("global");
      toast.success("Signed out on all devices");
      void navigate("/");
    } catch {
      toast.error("Error signing out");
      setBusy(false);
    }
  }
  return (
    <section aria-labelledby="sessions-title" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id="sessions-title" className="flex items-center gap-2 text-lg font-semibold text-slate-900">
        <LogOut aria-hidden className="h-5 w-5" /> Sessions
      </h2>
      <p className="mt-2 text-slate-600">Signs you out on every browser and device, including the desktop app.</p>
      <Button variant="secondary" className="mt-4" disabled={busy} onClick={() => void run()}>
        Sign out everywhere
      </Button>
    </section>
  );
}

function DeleteAccount() {
  const { manager } = useAuth();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // Every way out of the dialog (Cancel, Escape, the backdrop) forgets what was typed.
  function close() {
    setOpen(false);
    setPassword("");
    setError(null);
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!password) {
      setError("Password is required");
      return;
    }
    setBusy(true);
    try {
      await deleteAccount(password);
      setOpen(false);
      manager.clear();
      toast.success("Your account has been deleted");
      void navigate("/");
    } catch (e) {
      if (e instanceof ApiError && e.code === "invalid_credentials") setError(e.message);
      else toast.error(message(e));
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="delete-title" className="rounded-2xl border border-red-200 bg-white p-6 shadow-sm">
      <h2 id="delete-title" className="flex items-center gap-2 text-lg font-semibold text-red-700">
        <Trash2 aria-hidden className="h-5 w-5" /> Delete account
      </h2>
      <p className="mt-2 text-slate-600">Permanently deletes your account and its data, and cancels your subscription.</p>
      <Button variant="danger" className="mt-4" onClick={() => setOpen(true)}>
        Delete account
      </Button>
      <Modal open={open} onClose={close} title="Delete your account?">
        <p className="text-slate-700">
          This permanently deletes your account and cancels your subscription. It cannot be undone. Enter your password to
          confirm.
        </p>
        <form noValidate onSubmit={(e) => void onSubmit(e)} className="mt-4 space-y-4">
          <PasswordField
            label="Password"
            autoComplete="current-password"
            value={password}
            error={error}
            onChange={(e) => setPassword(e.target.value)}
          />
          <div className="flex flex-wrap justify-end gap-3">
            <Button variant="secondary" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" variant="danger" disabled={busy}>
              {busy ? "Deleting..." : "Delete my account"}
            </Button>
          </div>
        </form>
      </Modal>
    </section>
  );
}

export function Settings({ user }: { user: User }) {
  return (
    <div className="mx-auto max-w-3xl space-y-6 px-4 py-8 sm:px-6 lg:px-8">
      <Link
        to="/dashboard"
        className="inline-flex items-center gap-1 rounded text-sm font-medium text-slate-600 hover:text-slate-900"
      >
        <ArrowLeft aria-hidden className="h-4 w-4" /> Back to Dashboard
      </Link>
      <div>
        <h1 className="text-3xl font-bold tracking-tight text-slate-900">Settings</h1>
        <p className="mt-1 text-slate-600">Signed in as {user.email}</p>
      </div>
      <ChangePassword />
      <Security user={user} />
      <Devices />
      <SignOutEverywhere />
      <DeleteAccount />
    </div>
  );
}
