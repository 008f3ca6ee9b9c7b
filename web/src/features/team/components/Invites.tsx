import { MailPlus } from "lucide-react";
import { useState, type FormEvent } from "react";
import toast from "react-hot-toast";
import { Button } from "../../../components/ui/Button";
import { TextField } from "../../../components/ui/TextField";
import { ApiError } from "../../../lib/api/client";
import type { InviteRole, Team, TeamInvite } from "../../../lib/api/types";
import { ROLE_NAMES } from "../../../lib/team/format";
import { useTeamInvites } from "../api/lists";
import { useInvite, useInviteAction } from "../api/mutations";
import { errorMessage, Problem, Section, SelectField, shortDate, ShowMore } from "./TeamParts";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const inviteId = (invite: TeamInvite) => `invite-${invite.id}`;

function InviteForm({ roles }: { roles: InviteRole[] }) {
  const invite = useInvite();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<InviteRole>("member");
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const busy = invite.isPending;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const address = email.trim();
    const problem = !address ? "Email is required" : EMAIL.test(address) ? null : "Please enter a valid email address";
    setFieldError(problem);
    setError(null);
    if (problem) return;
    try {
      // The pending invitations are read again before the form empties (api/mutations.ts).
      await invite.mutateAsync({ email: address, role });
      toast.success(`Invitation sent to ${address}`);
      setEmail("");
    } catch (e) {
      if (e instanceof ApiError && e.code === "invalid_email") setFieldError(e.message);
      else setError(errorMessage(e));
    }
  }

  return (
    <form noValidate onSubmit={(e) => void onSubmit(e)} className="mt-4 space-y-3">
      <h3 className="text-sm font-semibold text-slate-900">Invite someone</h3>
      <div className="flex flex-wrap items-start gap-3">
        <TextField
          label="Email"
          type="email"
          name="invite-email"
          autoComplete="off"
          className="min-w-64 flex-1"
          value={email}
          error={fieldError}
          onChange={(e) => setEmail(e.target.value)}
        />
        {roles.length > 1 && (
          <SelectField label="Role" className="w-36" value={role} onChange={(e) => setRole(e.target.value as InviteRole)}>
            {roles.map((r) => (
              <option key={r} value={r}>
                {ROLE_NAMES[r]}
              </option>
            ))}
          </SelectField>
        )}
      </div>
      {roles.length === 1 && <p className="text-sm text-slate-600">Invited as members.</p>}
      {error && <Problem>{error}</Problem>}
      <Button type="submit" disabled={busy} aria-busy={busy}>
        {busy ? "Sending..." : "Send invitation"}
      </Button>
    </form>
  );
}

function InviteRow({ invite }: { invite: TeamInvite }) {
  const change = useInviteAction();
  const busy = change.isPending ? change.variables.action : null;
  async function run(action: "resend" | "revoke") {
    try {
      await change.mutateAsync({ id: invite.id, action });
      toast.success(action === "resend" ? `Invitation sent to ${invite.email} again` : `Invitation to ${invite.email} revoked`);
    } catch (e) {
      toast.error(errorMessage(e));
    }
  }
  return (
    <li id={inviteId(invite)} tabIndex={-1} className="flex flex-wrap items-center justify-between gap-3 py-3">
      <div>
        <p className="break-all font-medium text-slate-900">{invite.email}</p>
        <p className="text-sm text-slate-600">
          {ROLE_NAMES[invite.role]} ·{" "}
          {invite.expired ? (
            <span className="font-medium text-amber-800">Expired</span>
          ) : (
            <>
              Expires <time dateTime={invite.expires_at}>{shortDate(invite.expires_at)}</time>
            </>
          )}{" "}
          · Sent <time dateTime={invite.last_sent_at}>{shortDate(invite.last_sent_at)}</time>
        </p>
      </div>
      <div className="flex gap-2">
        <Button
          variant="secondary"
          aria-label={`Resend invitation to ${invite.email}`}
          disabled={busy !== null}
          aria-busy={busy === "resend"}
          onClick={() => void run("resend")}
        >
          {busy === "resend" ? "Sending..." : "Resend"}
        </Button>
        <Button
          variant="ghost"
          aria-label={`Revoke invitation to ${invite.email}`}
          disabled={busy !== null}
          aria-busy={busy === "revoke"}
          onClick={() => void run("revoke")}
        >
          {busy === "revoke" ? "Revoking..." : "Revoke"}
        </Button>
      </div>
    </li>
  );
}

/** Pending invitations with Resend and Revoke, and the invite form (owner and admins). */
export function Invites({ team }: { team: Team }) {
  const list = useTeamInvites(team);
  return (
    <Section id="invites-title" title="Invitations" icon={<MailPlus aria-hidden className="h-5 w-5" />}>
      {team.invites_count === 0 ? (
        <p className="mt-2 text-slate-600">No pending invitations.</p>
      ) : (
        <ul aria-label="Pending invitations" className="mt-2 divide-y divide-slate-100">
          {list.rows.map((invite) => (
            <InviteRow key={invite.id} invite={invite} />
          ))}
        </ul>
      )}
      {team.invites_next && (
        <ShowMore list={list} total={team.invites_count} noun="invitations" label="Show more invites" focusId={inviteId} />
      )}
      <div className="mt-4 border-t border-slate-100 pt-2">
        <InviteForm roles={team.invite_roles} />
      </div>
    </Section>
  );
}
