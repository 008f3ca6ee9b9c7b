//! Settings → Security → passkeys: "Add a passkey" (named; WebAuthn `navigator.credentials.create`
//! with the server's options), the list with created and last used, Remove (a sensitive action).

import { useState, type FormEvent } from "react";
import toast from "react-hot-toast";
import { useConfirmPassword } from "../../../components/account/ConfirmPassword";
import { Button } from "../../../components/ui/Button";
import { Modal } from "../../../components/ui/Modal";
import { Spinner } from "../../../components/ui/Spinner";
import { TextField } from "../../../components/ui/TextField";
import { ApiError } from "../../../lib/api/client";
import { deletePasskey, finishPasskeyRegistration, startPasskeyRegistration } from "../../../lib/api/mfa";
import { usePasskeys } from "../../../lib/api/queries";
import type { Passkey } from "../../../lib/api/types";
import { absoluteTime } from "../../../lib/devices";
import { cancelled, createPasskey, passkeysSupported } from "../../../lib/webauthn";

const message = (error: unknown) => (error instanceof ApiError ? error.message : "An unexpected error occurred");

function AddPasskey({ onClose, onAdded }: { onClose: () => void; onAdded: () => Promise<void> }) {
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) {
      setError("Name is required");
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const { challenge_id, options } = await startPasskeyRegistration(trimmed);
      const credential = await createPasskey(options);
      await finishPasskeyRegistration({ challenge_id, name: trimmed, credential });
      toast.success("Passkey added");
      await onAdded();
      onClose();
    } catch (e) {
      // The browser's own refusal (e.g. SecurityError for an address that cannot be a relying party) says why.
      setError(cancelled(e) ? "The passkey was not created." : e instanceof DOMException ? e.message : message(e));
      setBusy(false);
    }
  }
  return (
    <Modal open onClose={onClose} title="Add a passkey">
      <form noValidate onSubmit={(e) => void onSubmit(e)} className="space-y-4">
        <p className="text-slate-700">Give it a name you will recognise, such as the device or the password manager.</p>
        <TextField label="Passkey name" value={name} error={error} maxLength={64} onChange={(e) => setName(e.target.value)} />
        <div className="flex flex-wrap justify-end gap-3">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy} aria-busy={busy}>
            {busy ? "Waiting for your device..." : "Continue"}
          </Button>
        </div>
      </form>
    </Modal>
  );
}

function RemovePasskey({
  passkey,
  onClose,
  onRemoved,
}: {
  passkey: Passkey;
  onClose: () => void;
  onRemoved: () => Promise<void>;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const password = useConfirmPassword();
  async function remove() {
    setBusy(true);
    setError(null);
    try {
      await password.guard(() => deletePasskey(passkey.id));
      toast.success(`${passkey.name} removed`);
    } catch (e) {
      // Already gone (404 passkey_not_found): the list is read again either way.
      if (!(e instanceof ApiError && e.code === "passkey_not_found")) {
        setError(message(e));
        setBusy(false);
        return;
      }
    }
    await onRemoved();
    onClose();
  }
  return (
    <Modal open onClose={onClose} title="Remove this passkey?">
      {password.asking ? (
        password.form
      ) : (
        <>
          <p className="text-slate-700">{passkey.name} will no longer sign you in.</p>
          {error && (
            <p role="alert" className="mt-2 text-sm text-red-600">
              {error}
            </p>
          )}
          <div className="mt-6 flex flex-wrap justify-end gap-3">
            <Button variant="secondary" onClick={onClose}>
              Cancel
            </Button>
            <Button variant="danger" disabled={busy} onClick={() => void remove()}>
              {busy ? "Removing..." : "Remove"}
            </Button>
          </div>
        </>
      )}
    </Modal>
  );
}

export function Passkeys({ onChanged }: { onChanged: () => Promise<void> }) {
  const passkeys = usePasskeys();
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<Passkey | null>(null);
  const supported = passkeysSupported();
  return (
    <div>
      <h3 className="font-semibold text-slate-900">Passkeys</h3>
      <p className="mt-1 text-slate-600">Sign in with your fingerprint, face or screen lock instead of a password.</p>
      {passkeys.isPending ? (
        <Spinner />
      ) : passkeys.data && passkeys.data.length > 0 ? (
        <ul aria-label="Passkeys" className="mt-2 divide-y divide-slate-200">
          {passkeys.data.map((p) => (
            <li key={p.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
              <div>
                <p className="font-medium text-slate-900">{p.name}</p>
                <p className="text-sm text-slate-600">
                  Created <time dateTime={p.created_at}>{absoluteTime(p.created_at)}</time> ·{" "}
                  {p.last_used_at ? (
                    <>
                      Last used <time dateTime={p.last_used_at}>{absoluteTime(p.last_used_at)}</time>
                    </>
                  ) : (
                    "Never used"
                  )}
                </p>
              </div>
              <Button variant="secondary" aria-label={`Remove ${p.name}`} onClick={() => setRemoving(p)}>
                Remove
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
      {supported ? (
        <Button className="mt-3" variant="secondary" onClick={() => setAdding(true)}>
          Add a passkey
        </Button>
      ) : (
        <p className="mt-3 text-sm text-slate-600">This browser cannot create passkeys.</p>
      )}
      {adding && <AddPasskey onClose={() => setAdding(false)} onAdded={onChanged} />}
      {removing && <RemovePasskey passkey={removing} onClose={() => setRemoving(null)} onRemoved={onChanged} />}
    </div>
  );
}
