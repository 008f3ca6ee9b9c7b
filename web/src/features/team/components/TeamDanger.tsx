import { AlertTriangle } from "lucide-react";
import { useState, type FormEvent } from "react";
import toast from "react-hot-toast";
import { REAUTHENTICATION_REQUIRED, useConfirmPassword } from "../../../components/account/ConfirmPassword";
import { Button } from "../../../components/ui/Button";
import { Modal } from "../../../components/ui/Modal";
import { PasswordField } from "../../../components/ui/TextField";
import { ApiError } from "../../../lib/api/client";
import { deleteTeam, leaveTeam, transferTeam } from "../../../lib/api/team";
import type { Team } from "../../../lib/api/types";
import { useAuth } from "../../../lib/auth/AuthProvider";
import { errorMessage, Problem, Section, SelectField, TEAM_PAGE_HEADING, useTeamCache } from "./TeamParts";

type Dialog = "leave" | "transfer" | "delete" | null;

/** Where focus goes when the dialog closes and its button is gone (a new role, or no team). */
const FALLBACK_FOCUS = ["danger-title", TEAM_PAGE_HEADING];

const notInTeam = (e: unknown) => e instanceof ApiError && e.code === "team_not_found";

function Leave({ team, onClose }: { team: Team; onClose: () => void }) {
  const cache = useTeamCache();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function confirm() {
    setBusy(true);
    try {
      await leaveTeam();
      toast.success(`You left ${team.name}`);
      cache.set(null);
    } catch (e) {
      setBusy(false);
      if (notInTeam(e)) {
        // Removed meanwhile (or the team is gone): nothing to leave; the page reads the team again.
        toast.error(`You are not in ${team.name} anymore`);
        void cache.refresh();
        onClose();
        return;
      }
      setError(errorMessage(e));
      // Made the owner meanwhile: the page shows it (and the owner's actions).
      if (e instanceof ApiError && e.code === "owner_cannot_leave") void cache.refresh();
    }
  }
  return (
    <Modal open onClose={onClose} title={`Leave ${team.name}?`} fallbackFocus={FALLBACK_FOCUS}>
      <p className="text-slate-700">
        You lose your seat and the team&apos;s paid plan at once. To come back, someone in the team has to invite you again.
      </p>
      {error && <Problem className="mt-4">{error}</Problem>}
      <div className="mt-6 flex flex-wrap justify-end gap-3">
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button variant="danger" disabled={busy} aria-busy={busy} onClick={() => void confirm()}>
          {busy ? "Leaving..." : "Leave team"}
        </Button>
      </div>
    </Modal>
  );
}

function Transfer({ team, onClose }: { team: Team; onClose: () => void }) {
  const cache = useTeamCache();
  const { user } = useAuth();
  const others = team.members.filter((m) => m.user_id !== user?.id);
  const [chosen, setTarget] = useState(others[0]?.user_id ?? "");
  // Someone who left meanwhile drops out of the list when the team is read again.
  const target = others.some((m) => m.user_id === chosen) ? chosen : (others[0]?.user_id ?? "");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const password = useConfirmPassword();
  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!target) return;
    setBusy(true);
    setError(null);
    try {
      // Handing over needs the password entered on this session lately: asked here, in this dialog.
      const { team: updated } = await password.guard(() => transferTeam(target));
      toast.success(`${others.find((m) => m.user_id === target)?.email ?? "They"} own ${team.name} now`);
      cache.set(updated);
      onClose();
    } catch (e) {
      setError(errorMessage(e));
      setBusy(false);
      // Not a member (any more), or no longer the owner: the picker and the page are out of date.
      if (e instanceof ApiError && (notInTeam(e) || (e.status === 403 && e.code !== REAUTHENTICATION_REQUIRED)))
        void cache.refresh();
    }
  }
  return (
    <Modal open onClose={onClose} title="Transfer ownership" fallbackFocus={FALLBACK_FOCUS}>
      {password.asking ? (
        password.form
      ) : others.length === 0 ? (
        <p className="text-slate-700">Invite someone first: ownership goes to another member of the team.</p>
      ) : (
        <form noValidate onSubmit={(e) => void onSubmit(e)} className="space-y-4">
          <p className="text-slate-700">
            The new owner manages billing and can delete the team. You stay in the team as an admin.
          </p>
          <SelectField label="New owner" value={target} onChange={(e) => setTarget(e.target.value)}>
            {others.map((m) => (
              <option key={m.user_id} value={m.user_id}>
                {m.email}
              </option>
            ))}
          </SelectField>
          {error && <Problem>{error}</Problem>}
          <div className="flex flex-wrap justify-end gap-3">
            <Button variant="secondary" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" variant="danger" disabled={busy} aria-busy={busy}>
              {busy ? "Transferring..." : "Transfer ownership"}
            </Button>
          </div>
        </form>
      )}
    </Modal>
  );
}

function Delete({ team, onClose }: { team: Team; onClose: () => void }) {
  const cache = useTeamCache();
  const [password, setPassword] = useState("");
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    if (!password) {
      setFieldError("Password is required");
      return;
    }
    setBusy(true);
    try {
      await deleteTeam(password);
      toast.success(`${team.name} is deleted`);
      cache.set(null);
    } catch (e) {
      setBusy(false);
      if (notInTeam(e)) {
        toast.error(`You are not in ${team.name} anymore`);
        void cache.refresh();
        onClose();
        return;
      }
      if (e instanceof ApiError && e.code === "invalid_credentials") setFieldError(e.message);
      else setError(errorMessage(e));
      if (e instanceof ApiError && e.status === 403) void cache.refresh();
    }
  }
  return (
    <Modal open onClose={onClose} title={`Delete ${team.name}?`} fallbackFocus={FALLBACK_FOCUS}>
      <p className="text-slate-700">
        The team&apos;s subscription is cancelled at once, every member loses their seat and pending invitations stop working. It
        cannot be undone. Enter your password to confirm.
      </p>
      <form noValidate onSubmit={(e) => void onSubmit(e)} className="mt-4 space-y-4">
        <PasswordField
          label="Password"
          autoComplete="current-password"
          value={password}
          error={fieldError}
          onChange={(e) => setPassword(e.target.value)}
        />
        {error && <Problem>{error}</Problem>}
        <div className="flex flex-wrap justify-end gap-3">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" variant="danger" disabled={busy} aria-busy={busy}>
            {busy ? "Deleting..." : "Delete team"}
          </Button>
        </div>
      </form>
    </Modal>
  );
}

/** Leaving (admins and members), or for the owner: transfer and delete. */
export function TeamDanger({ team }: { team: Team }) {
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = () => setDialog(null);
  const owner = team.may.delete;
  return (
    <Section
      id="danger-title"
      title={owner ? "Ownership" : "Leave the team"}
      tone="danger"
      icon={<AlertTriangle aria-hidden className="h-5 w-5" />}
    >
      <p className="mt-2 text-slate-600">
        {owner
          ? "Hand the team to another member, or delete it and cancel its subscription."
          : "Leaving gives your seat back to the team."}
      </p>
      <div className="mt-4 flex flex-wrap gap-3">
        {team.may.leave && (
          <Button variant="danger" onClick={() => setDialog("leave")}>
            Leave team
          </Button>
        )}
        {team.may.transfer && (
          <Button variant="secondary" onClick={() => setDialog("transfer")}>
            Transfer ownership
          </Button>
        )}
        {owner && (
          <Button variant="danger" onClick={() => setDialog("delete")}>
            Delete team
          </Button>
        )}
      </div>
      {dialog === "leave" && <Leave team={team} onClose={close} />}
      {dialog === "transfer" && <Transfer team={team} onClose={close} />}
      {dialog === "delete" && <Delete team={team} onClose={close} />}
    </Section>
  );
}
