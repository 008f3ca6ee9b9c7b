import { UsersRound } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import toast from "react-hot-toast";
import { Address } from "../../../components/ui/Address";
import { Button } from "../../../components/ui/Button";
import { Modal } from "../../../components/ui/Modal";
import { Select } from "../../../components/ui/Select";
import type { InviteRole, Team, TeamMember } from "../../../lib/api/types";
import { useAuth } from "../../../lib/auth/AuthProvider";
import { ROLE_CHOICES, ROLE_NAMES, roleWithArticle } from "../../../lib/team/format";
import { useTeamMembers } from "../api/lists";
import { useRemoveMember, useSetMemberRole } from "../api/mutations";
import { Cell, cardTable, RowHeader } from "../../../components/ui/CardTable";
import { errorMessage, Problem, Section, shortDate, ShowMore, TEAM_PAGE_HEADING } from "./TeamParts";

const HEADING = "members-title";

function ConfirmRemove({
  team,
  member,
  onClose,
  onRemoved,
}: {
  team: Team;
  member: TeamMember;
  onClose: () => void;
  onRemoved: () => void;
}) {
  const removal = useRemoveMember(onRemoved);
  const busy = removal.isPending;
  const [error, setError] = useState<string | null>(null);
  async function confirm() {
    setError(null);
    try {
      // Resolves once the list has been read again: the dialog closes on the updated list.
      await removal.mutateAsync(member.user_id);
      toast.success(`${member.email} was removed from ${team.name}`);
      onClose();
    } catch (e) {
      // Gone already or no longer allowed: the list is read again either way (api/mutations.ts).
      setError(errorMessage(e));
    }
  }
  return (
    <Modal open onClose={onClose} title={`Remove ${member.email}?`} fallbackFocus={[HEADING, TEAM_PAGE_HEADING]}>
      <p className="text-slate-700">
        {member.email} loses their seat and the team&apos;s paid plan at once. Their seat becomes free for someone else.
      </p>
      {error && <Problem className="mt-4">{error}</Problem>}
      <div className="mt-6 flex flex-wrap justify-end gap-3">
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button variant="danger" disabled={busy} aria-busy={busy} onClick={() => void confirm()}>
          {busy ? "Removing..." : "Remove"}
        </Button>
      </div>
    </Modal>
  );
}

function RoleCell({ member }: { member: TeamMember }) {
  const roleChange = useSetMemberRole();
  const busy = roleChange.isPending;
  if (!member.may_change_role) return <>{ROLE_NAMES[member.role]}</>;
  async function change(role: InviteRole) {
    try {
      await roleChange.mutateAsync({ userId: member.user_id, role });
      toast.success(`${member.email} is ${roleWithArticle(role)} now`);
    } catch (e) {
      toast.error(errorMessage(e));
    }
  }
  return (
    <Select
      aria-label={`Role of ${member.email}`}
      value={member.role}
      disabled={busy}
      aria-busy={busy}
      onChange={(e) => void change(e.target.value as InviteRole)}
      className="px-2 py-1.5 text-sm"
    >
      {ROLE_CHOICES.map((role) => (
        <option key={role} value={role}>
          {ROLE_NAMES[role]}
        </option>
      ))}
    </Select>
  );
}

const rowId = (member: TeamMember) => `member-${member.user_id}`;

/** Everyone in the team; the owner and admins act on the rows `teams::may_remove` allows. */
export function Members({ team }: { team: Team }) {
  const { user } = useAuth();
  const list = useTeamMembers(team);
  const members = list.rows;
  const [removing, setRemoving] = useState<TeamMember | null>(null);
  const actions = team.may.remove_members;
  // The Remove button goes with the row: once the row is gone, focus moves to the list's heading.
  const removed = useRef<string | null>(null);
  useEffect(() => {
    if (removed.current && !members.some((m) => m.user_id === removed.current)) {
      removed.current = null;
      document.getElementById(HEADING)?.focus();
    }
  }, [members]);
  return (
    <Section id={HEADING} title="Members" icon={<UsersRound aria-hidden className="h-5 w-5" />}>
      {/* On a phone each row is a card (CardTable.tsx): nothing scrolls sideways. */}
      <table className={`mt-4 ${cardTable.table}`}>
        <caption className="sr-only">Members of {team.name}</caption>
        <thead className={cardTable.head}>
          <tr>
            <th scope="col" className={cardTable.th}>
              E-mail
            </th>
            <th scope="col" className={cardTable.th}>
              Role
            </th>
            <th scope="col" className={cardTable.th}>
              Joined
            </th>
            <th scope="col" className={cardTable.th}>
              Calls this month
            </th>
            {actions && (
              <th scope="col" className={cardTable.th}>
                <span className="sr-only">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody className={cardTable.body}>
          {members.map((member) => (
            <tr key={member.user_id} className={cardTable.row}>
              <RowHeader id={rowId(member)}>
                <Address email={member.email} />
                {member.user_id === user?.id && <span className="ml-2 text-xs font-normal text-slate-500">(you)</span>}
              </RowHeader>
              <Cell label={member.may_change_role ? undefined : "Role"}>
                <RoleCell member={member} />
              </Cell>
              <Cell label="Joined">
                <time dateTime={member.joined_at}>{shortDate(member.joined_at)}</time>
              </Cell>
              <Cell label="Calls this month">{member.calls_this_month}</Cell>
              {actions && (
                <Cell className="text-right max-sm:ml-auto">
                  {member.may_remove && (
                    <Button variant="secondary" aria-label={`Remove ${member.email}`} onClick={() => setRemoving(member)}>
                      Remove
                    </Button>
                  )}
                </Cell>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {team.members_next && (
        <ShowMore list={list} total={team.members_count} noun="members" label="Show more members" focusId={rowId} />
      )}
      {removing && (
        <ConfirmRemove
          team={team}
          member={removing}
          onClose={() => setRemoving(null)}
          onRemoved={() => (removed.current = removing.user_id)}
        />
      )}
    </Section>
  );
}
