import { AlertTriangle } from "lucide-react";
import { useState, type FormEvent } from "react";
import toast from "react-hot-toast";
import { useConfirmPassword } from "../../../components/account/ConfirmPassword";
import { Button } from "../../../components/ui/Button";
import { Modal } from "../../../components/ui/Modal";
import { PasswordField } from "../../../components/ui/TextField";
import { ApiError } from "../../../lib/api/client";
import type { Team } from "../../../lib/api/types";
import { useAuth } from "../../../lib/auth/AuthProvider";
import { useAllTeamMembers } from "../api/lists";
import { useEndMembership, useTransferTeam } from "../api/teamMutations";
import { errorMessage, Problem, Section, SelectField, TEAM_PAGE_HEADING } from "./TeamParts";

type Dialog = "leave" | "transfer" | "delete" | null;

/** Where focus goes when the dialog closes and its button is gone (a new role, or no team). */
const FALLBACK_FOCUS = ["danger-title", TEAM_PAGE_HEADING];

const notInTeam = (e: unknown) => e instanceof ApiError && e.code === "team_not_found";

function Leave({ team, onClose }: { team: Team; onClose: () => void }) {
  const leave = useEndMembership();
  const busy = leave.isPending;
  const error = leave.isError && !notInTeam(leave.error) ? errorMessage(leave.error) : null;
  function confirm() {
    // Made the owner meanwhile: the page shows it (useEndMembership reads the team again).
    // The promise, not mutate's own callbacks: those are skipped once this dialog unmounts, which
    // the team's new state does at once.
    leave.mutateAsync({ action: "leave" }).then(
      () => void toast.success(`You left ${team.name}`),
      (e: unknown) => {
        if (!notInTeam(e)) return;
        // Removed meanwhile (or the team is gone): nothing to leave; the page reads the team again.
        toast.error(`You are not in ${team.name} anymore`);
        onClose();
      },
    );
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
        <Button variant="danger" disabled={busy} aria-busy={busy} onClick={confirm}>
          {busy ? "Leaving..." : "Leave team"}
        </Button>
      </div>
    </Modal>
  );
}

function Transfer({ team, onClose }: { team: Team; onClose: () => void }) {
  const { user } = useAuth();
  // Any member may become the owner: past the team's first page, the picker reads them all.
  const everyone = useAllTeamMembers(team);
  const others = (everyone.members ?? []).filter((m) => m.user_id !== user?.id);
  const [chosen, setTarget] = useState(others[0]?.user_id ?? "");
  // Someone who left meanwhile drops out of the list when the team is read again.
  const target = others.some((m) => m.user_id === chosen) ? chosen : (others[0]?.user_id ?? "");
  const password = useConfirmPassword();
  // Handing over needs the password entered on this session lately: asked here, in this dialog.
  // Not a member (any more), or no longer the owner: useTransferTeam reads the team again.
  const transfer = useTransferTeam(password.guard);
  const busy = transfer.isPending;
  const error = transfer.isError ? errorMessage(transfer.error) : null;
  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!target) return;
    transfer.mutate(target, {
      onSuccess: () => {
        toast.success(`${others.find((m) => m.user_id === target)?.email ?? "They"} own ${team.name} now`);
        onClose();
      },
    });
  }
  return (
    <Modal open onClose={onClose} title="Transfer ownership" fallbackFocus={FALLBACK_FOCUS}>
      {password.asking ? (
        password.form
      ) : everyone.loading ? (
        <p role="status" className="text-slate-700">
          Loading the members...
        </p>
      ) : everyone.error ? (
        <Problem>{errorMessage(everyone.error)}</Problem>
      ) : others.length === 0 ? (
        <p className="text-slate-700">Invite someone first: ownership goes to another member of the team.</p>
      ) : (
        <form noValidate onSubmit={onSubmit} className="space-y-4">
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
  const remove = useEndMembership();
  const [password, setPassword] = useState("");
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const busy = remove.isPending;
  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    if (!password) {
      setFieldError("Password is required");
      return;
    }
    // Not in the team, or no longer its owner: useEndMembership reads the team again.
    // The promise, not mutate's own callbacks (skipped once this dialog unmounts).
    remove.mutateAsync({ action: "delete", password }).then(
      () => void toast.success(`${team.name} is deleted`),
      (e: unknown) => {
        if (notInTeam(e)) {
          toast.error(`You are not in ${team.name} anymore`);
          onClose();
        } else if (e instanceof ApiError && e.code === "invalid_credentials") setFieldError(e.message);
        else setError(errorMessage(e));
      },
    );
  }
  return (
    <Modal open onClose={onClose} title={`Delete ${team.name}?`} fallbackFocus={FALLBACK_FOCUS}>
      <p className="text-slate-700">
        The team&apos;s subscription is cancelled at once, every member loses their seat and pending invitations stop working. It
        cannot be undone. Enter your password to confirm.
      </p>
      <form noValidate onSubmit={onSubmit} className="mt-4 space-y-4">
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
