import { useEffect, useState } from "react";
import { Button } from "../../../components/ui/Button";
import { ApiError } from "../../../lib/api/client";
import { cancelSsoSwitch, continueSsoSwitch, getSsoSwitch, type SsoSwitch } from "../../../lib/api/sso";
import { redirect, safeRedirect } from "../../../lib/redirect";
import { AuthCard } from "./AuthCard";

/**
 * `/sso/confirm`: single sign-on signed in another account than the one this browser is signed in
 * to (a page may have sent the browser through an approve-at-once provider). Nothing changes until
 * the person chooses; when this browser's own session has ended meanwhile, there is nothing to
 * replace and the page continues at once. Both ways end with a full page load, so the app starts
 * again from the session the cookie now holds.
 */
export function SsoConfirm() {
  const [pending, setPending] = useState<SsoSwitch | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const failed = (e: unknown) => setError(e instanceof ApiError ? e.message : "An unexpected error occurred");

  async function choose(keep: boolean) {
    setBusy(true);
    setError(null);
    try {
      if (keep) {
        await cancelSsoSwitch();
        return redirect.to("/dashboard");
      }
      const { next } = await continueSsoSwitch();
      redirect.to(safeRedirect(next));
    } catch (e) {
      failed(e);
      setBusy(false);
    }
  }

  useEffect(() => {
    let live = true;
    const fail = (e: unknown) => {
      if (live) setError(e instanceof ApiError ? e.message : "An unexpected error occurred");
    };
    getSsoSwitch()
      .then(async (found) => {
        if (!live) return;
        // Nothing to replace (this browser's session has ended, or it is the same account).
        if (found.current_email === null || found.current_email === found.email) {
          const { next } = await continueSsoSwitch();
          redirect.to(safeRedirect(next));
        } else setPending(found);
      })
      .catch(fail);
    return () => {
      live = false;
    };
  }, []);

  return (
    <AuthCard title="Switch accounts?">
      {error && (
        <p role="alert" className="mb-4 rounded-xl border border-red-200 bg-red-50 p-4 text-sm text-red-900">
          {error}
        </p>
      )}
      {pending && (
        <div className="space-y-4">
          <p className="text-sm text-slate-700">
            You are signed in as <strong>{pending.current_email}</strong>. Continue as <strong>{pending.email}</strong>?
          </p>
          <p className="text-sm text-slate-600">
            If you did not just sign in with single sign-on as {pending.email}, cancel: a page may have tried to sign you in to
            someone else&apos;s account.
          </p>
          <div className="flex gap-3">
            <Button onClick={() => void choose(false)} disabled={busy} aria-busy={busy}>
              Continue as {pending.email}
            </Button>
            <Button variant="secondary" onClick={() => void choose(true)} disabled={busy}>
              Cancel
            </Button>
          </div>
        </div>
      )}
    </AuthCard>
  );
}
