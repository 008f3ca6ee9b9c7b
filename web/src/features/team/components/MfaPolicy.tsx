//! The team's MFA rule on /team: who in the team has a second factor (an authenticator app or
//! a passkey), and the owner's "Require a second factor" (`PUT /api/team/mfa-policy`). A member
//! without one is sent to Settings → Security at the next sign-in and cannot approve devices until
//! they set one up.

import { ShieldCheck } from "lucide-react";
import toast from "react-hot-toast";
import { useConfirmPassword } from "../../../components/account/ConfirmPassword";
import { Choice } from "../../../components/ui/Choice";
import type { Team, TeamMember } from "../../../lib/api/types";
import { useTeamMembers } from "../api/lists";
import { useSetMfaPolicy } from "../api/ruleMutations";
import { errorMessage, Problem, Section, ShowMore } from "./TeamParts";

const factorId = (member: TeamMember) => `factor-${member.user_id}`;

export const REQUIRE_FACTOR_LABEL = "Require a second factor";
export const REQUIRED_TEXT =
  "Everyone in this team needs a second factor. Members without one are asked to set it up when they sign in and cannot approve devices until they do.";
const OPTIONAL_TEXT = "A second factor (an authenticator app or a passkey) is up to each member.";

function Toggle({ team }: { team: Team }) {
  const password = useConfirmPassword();
  const set = useSetMfaPolicy(team.id, password.guard);
  const busy = set.isPending;
  const error = set.isError ? errorMessage(set.error) : null;

  function change(required: boolean) {
    set.mutate(required, {
      onSuccess: () => void toast.success(required ? "A second factor is now required" : "A second factor is no longer required"),
    });
  }

  return (
    <div className="mt-4 space-y-2">
      {password.dialog}
      <Choice
        role="switch"
        className="font-medium text-slate-900"
        label={REQUIRE_FACTOR_LABEL}
        checked={team.mfa_required}
        disabled={busy}
        aria-busy={busy}
        onChange={(e) => change(e.target.checked)}
      />
      {error && <Problem>{error}</Problem>}
    </div>
  );
}

/**
 * Who has a second factor among the members shown (the same pages as Members), counted over the whole team:
 * the owner's and admins' view. A plain member is told the rule only (the API answers them no one's factor).
 */
export function MfaPolicy({ team }: { team: Team }) {
  return (
    <Section id="mfa-policy-title" title="Second factor" icon={<ShieldCheck aria-hidden className="h-5 w-5" />}>
      <p className="mt-2 text-slate-700">{team.mfa_required ? REQUIRED_TEXT : OPTIONAL_TEXT}</p>
      {team.may.require_mfa && <Toggle team={team} />}
      {team.members_with_mfa != null && <WhoHasOne team={team} withFactor={team.members_with_mfa} />}
    </Section>
  );
}

function WhoHasOne({ team, withFactor }: { team: Team; withFactor: number }) {
  const list = useTeamMembers(team);
  const without = team.members_count - withFactor;
  return (
    <>
      <ul aria-label="Who has a second factor" className="mt-4 divide-y divide-slate-100">
        {list.rows.map((m) => (
          <li key={m.user_id} id={factorId(m)} tabIndex={-1} className="flex items-center justify-between gap-3 py-2 text-sm">
            <span className="text-slate-900">{m.email}</span>
            <span className={m.mfa ? "text-green-700" : team.mfa_required ? "text-amber-700" : "text-slate-500"}>
              {m.mfa ? "Second factor on" : "No second factor"}
            </span>
          </li>
        ))}
      </ul>
      {team.members_next && (
        <ShowMore list={list} total={team.members_count} noun="members" label="Show more members" focusId={factorId} />
      )}
      {team.mfa_required && without > 0 && (
        <p className="mt-2 text-sm text-amber-800">
          {without === 1 ? "1 member has" : `${without} members have`} not set one up yet.
        </p>
      )}
    </>
  );
}
