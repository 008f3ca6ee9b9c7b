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
import { usePasskeys } from "../../../lib/api/queries";
import type { Passkey } from "../../../lib/api/types";
import { absoluteTime } from "../../../lib/devices";
import { cancelled, passkeysSupported } from "../../../lib/webauthn";
import { useAddPasskey, useRemovePasskey } from "../api/mutations";

const message = (error: unknown) => (error instanceof ApiError ? error.message : "An unexpected error occurred");

function AddPasskey({ onClose }: { onClose: () => void }) {
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const password = useConfirmPassword();
  const add = useAddPasskey(password.guard);
  const busy = add.isPending;
  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) {
      setError("Name is required");
      return;
    }
    setError(null);
    try {
      await add.mutateAsync(trimmed);
      toast.success("Passkey added");
      onClose();
    } catch (e) {
      // The browser's own refusal (e.g. SecurityError for an address that cannot be a relying party) says why.
      setError(cancelled(e) ? "The passkey was not created." : e instanceof DOMException ? e.message : message(e));
    }
  }
  return (
    <Modal open onClose={onClose} title="Add a passkey">
      {password.asking ? (
        password.form
      ) : (
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
      )}
    </Modal>
  );
}

function RemovePasskey({ passkey, onClose }: { passkey: Passkey; onClose: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const password = useConfirmPassword();
  const removal = useRemovePasskey(password.guard);
  const busy = removal.isPending;
  async function remove() {
    setError(null);
    try {
      // Already gone (404 passkey_not_found) closes the dialog too: the list is read again either way.
      if ((await removal.mutateAsync(passkey.id)) === "removed") toast.success(`${passkey.name} removed`);
      onClose();
    } catch (e) {
      setError(message(e));
    }
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

export function Passkeys() {
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
      {adding && <AddPasskey onClose={() => setAdding(false)} />}
      {removing && <RemovePasskey passkey={removing} onClose={() => setRemoving(null)} />}
    </div>
  );
}
