import { useQuery } from "@tanstack/react-query";
import { ShieldCheck } from "lucide-react";
import { useState, type FormEvent } from "react";
import toast from "react-hot-toast";
import { useConfirmPassword } from "../../../components/account/ConfirmPassword";
import { Button } from "../../../components/ui/Button";
import { Choice } from "../../../components/ui/Choice";
import { getTeamPolicy } from "../../../lib/api/team";
import type { Team, TeamPolicy } from "../../../lib/api/types";
import { policyKey, useSaveTeamPolicy } from "../api/ruleMutations";
import { ConsentNoticeFields } from "./ConsentNoticeFields";
import { PolicyAdoption } from "./PolicyAdoption";
import { errorMessage, Problem, Section, SelectField } from "./TeamParts";

const APPS = [
  ["zoom", "Zoom"],
  ["meet", "Google Meet"],
  ["teams", "Microsoft Teams"],
  ["phone", "Phone dialers"],
] as const;
const HINTS = [
  ["objections", "Objection handling"],
  ["replies", "Suggested replies"],
  ["follow_ups", "Follow-up drafts"],
] as const;

function Check({
  label,
  checked,
  disabled,
  onChange,
}: {
  label: string;
  checked: boolean;
  disabled?: boolean;
  onChange: (on: boolean) => void;
}) {
  return <Choice label={label} checked={checked} disabled={disabled} onChange={(e) => onChange(e.target.checked)} />;
}

/**
 * What the desktop app does in calls. The policy's `require_mfa` and `require_sso` are the switches
 * under Security ("Require a second factor", "Require SSO"), changed there only: the form sends them
 * back as it read them, and is read again when either changes (its key).
 */
function PolicyForm({ teamId, initial }: { teamId: string; initial: TeamPolicy }) {
  const [p, setP] = useState(initial);
  const password = useConfirmPassword();
  const save = useSaveTeamPolicy(teamId, password.guard);
  const busy = save.isPending;
  const error = save.isError ? errorMessage(save.error) : null;
  const apps = new Set<string>(p.allowed_apps);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    // The saved policy's refetch gives the form a new key (it remounts), and `mutate`'s own callbacks
    // are skipped once the form unmounts: the toast follows the mutation's promise instead.
    save.mutateAsync(p).then(
      () => void toast.success("Policy saved"),
      () => undefined, // shown from save.error
    );
  }

  return (
    <form noValidate onSubmit={onSubmit} className="mt-4 space-y-5">
      {password.dialog}
      <ConsentNoticeFields notice={p.consent_notice} onChange={(consent_notice) => setP({ ...p, consent_notice })} />
      <fieldset className="space-y-1">
        <legend className="font-medium text-slate-900">Meeting apps the assistant may attach to</legend>
        {APPS.map(([id, label]) => (
          <Check
            key={id}
            label={label}
            checked={apps.has(id)}
            onChange={(on) => setP({ ...p, allowed_apps: APPS.map(([a]) => a).filter((a) => (a === id ? on : apps.has(a))) })}
          />
        ))}
      </fieldset>
      <fieldset className="space-y-1">
        <legend className="font-medium text-slate-900">Hints</legend>
        {HINTS.map(([id, label]) => (
          <Check
            key={id}
            label={label}
            checked={p.hint_categories[id] ?? true}
            onChange={(on) => setP({ ...p, hint_categories: { ...p.hint_categories, [id]: on } })}
          />
        ))}
      </fieldset>
      <SelectField
        label="Transcripts on the laptop"
        className="max-w-xs"
        value={String(p.retention_days)}
        onChange={(e) => setP({ ...p, retention_days: Number(e.target.value) as TeamPolicy["retention_days"] })}
      >
        <option value="0">Not kept</option>
        <option value="7">7 days</option>
        <option value="30">30 days</option>
        <option value="90">90 days</option>
      </SelectField>
      {error && <Problem>{error}</Problem>}
      <Button type="submit" disabled={busy} aria-busy={busy}>
        {busy ? "Saving..." : "Save policy"}
      </Button>
    </form>
  );
}

/** `/team` → Policies (whoever `may.set_policy`): what the desktop app does in calls, signed into its entitlement. */
export function Policies({ team }: { team: Team }) {
  const policy = useQuery({ queryKey: policyKey(team.id), queryFn: getTeamPolicy, enabled: team.may.set_policy });
  if (!team.may.set_policy) return null;
  return (
    <Section id="policies-title" title="Policies" icon={<ShieldCheck aria-hidden className="h-5 w-5" />}>
      {policy.isPending && <p className="mt-2 text-slate-600">Loading the policy...</p>}
      {policy.isError && <Problem className="mt-2">Could not load the policy.</Problem>}
      {policy.data && (
        <>
          <PolicyAdoption adoption={policy.data.adoption} />
          <PolicyForm
            key={`${policy.data.policy_version}-${policy.data.updated_at ?? ""}-${policy.data.policy.require_mfa}-${policy.data.policy.require_sso}`}
            teamId={team.id}
            initial={policy.data.policy}
          />
        </>
      )}
    </Section>
  );
}
