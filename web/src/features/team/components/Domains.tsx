import { useQuery } from "@tanstack/react-query";
import { Copy, ShieldCheck } from "lucide-react";
import { useState, type FormEvent } from "react";
import toast from "react-hot-toast";
import { useConfirmPassword } from "../../../components/account/ConfirmPassword";
import { Button } from "../../../components/ui/Button";
import { TextField } from "../../../components/ui/TextField";
import { listDomains } from "../../../lib/api/team";
import type { Team, TeamDomain } from "../../../lib/api/types";
import { domainsKey, useAddDomain, useDomainAction } from "../api/mutations";
import { errorMessage, Problem, Section } from "./TeamParts";

const HOW_IT_WORKS =
  "Prove your team owns its company domain: add it, publish the TXT record we give you at your DNS provider, then verify. A verified domain is what domain join, single sign-on and provisioning trust. We re-check it daily; a record gone for 7 days un-verifies it.";

function CopyButton({ label, value }: { label: string; value: string }) {
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      toast.success(`${label} copied`);
    } catch {
      toast.error("Could not copy; select the text instead");
    }
  }
  return (
    <Button variant="secondary" aria-label={`Copy ${label.toLowerCase()}`} onClick={() => void copy()}>
      <Copy aria-hidden className="h-4 w-4" />
    </Button>
  );
}

function StatusBadge({ status }: { status: TeamDomain["status"] }) {
  const verified = status === "verified";
  return (
    <span
      className={`rounded-full px-2 py-0.5 text-xs font-medium ${verified ? "bg-green-100 text-green-800" : "bg-amber-100 text-amber-900"}`}
    >
      {verified ? "Verified" : "Pending"}
    </span>
  );
}

function DomainRow({ domain, teamId }: { domain: TeamDomain; teamId: string }) {
  const password = useConfirmPassword();
  const change = useDomainAction(teamId, password.guard);
  const busy = change.isPending ? change.variables.action : null;
  const [error, setError] = useState<string | null>(null);

  async function run(action: "verify" | "remove") {
    setError(null);
    try {
      await change.mutateAsync({ id: domain.id, action });
      toast.success(action === "verify" ? `${domain.domain} is verified` : `${domain.domain} was removed`);
    } catch (e) {
      setError(errorMessage(e));
    }
  }

  return (
    <li className="space-y-2 py-4" aria-label={domain.domain}>
      {password.dialog}
      <div className="flex flex-wrap items-center gap-3">
        <span className="font-medium text-slate-900">{domain.domain}</span>
        <StatusBadge status={domain.status} />
        <span className="ml-auto flex gap-2">
          {domain.status === "pending" && (
            <Button disabled={busy !== null} aria-busy={busy === "verify"} onClick={() => void run("verify")}>
              {busy === "verify" ? "Verifying..." : "Verify"}
            </Button>
          )}
          <Button variant="secondary" disabled={busy !== null} onClick={() => void run("remove")}>
            {busy === "remove" ? "Removing..." : "Remove"}
          </Button>
        </span>
      </div>
      {domain.status === "pending" && (
        <div className="rounded-xl bg-slate-50 p-3 text-sm text-slate-700">
          <p>Publish this TXT record at your DNS provider, then choose Verify:</p>
          <dl className="mt-2 space-y-1">
            <div className="flex items-center gap-2">
              <dt className="w-12 shrink-0 font-medium">Name</dt>
              <dd className="break-all font-mono">{domain.txt_name}</dd>
              <CopyButton label="Record name" value={domain.txt_name} />
            </div>
            <div className="flex items-center gap-2">
              <dt className="w-12 shrink-0 font-medium">Value</dt>
              <dd className="break-all font-mono">{domain.txt_value}</dd>
              <CopyButton label="Record value" value={domain.txt_value} />
            </div>
          </dl>
        </div>
      )}
      {error && <Problem>{error}</Problem>}
    </li>
  );
}

function AddDomain({ teamId }: { teamId: string }) {
  const [domain, setDomain] = useState("");
  const [fieldError, setFieldError] = useState<string | null>(null);
  const password = useConfirmPassword();
  const add = useAddDomain(teamId, password.guard);
  const busy = add.isPending;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setFieldError(null);
    const value = domain.trim();
    if (!value) return setFieldError("Please enter your company's domain.");
    try {
      await add.mutateAsync(value);
      setDomain("");
    } catch (e) {
      setFieldError(errorMessage(e));
    }
  }

  return (
    <form noValidate onSubmit={(e) => void onSubmit(e)} className="mt-4 flex flex-wrap items-end gap-3">
      {password.dialog}
      <TextField
        label="Company domain"
        name="team-domain"
        autoComplete="off"
        placeholder="northwind.example"
        className="max-w-md"
        value={domain}
        error={fieldError}
        onChange={(e) => setDomain(e.target.value)}
      />
      <Button type="submit" disabled={busy} aria-busy={busy}>
        {busy ? "Adding..." : "Add domain"}
      </Button>
    </form>
  );
}

/** `/team` → Security: the owner's verified company domains (the server says who is the owner). */
export function Domains({ team }: { team: Team }) {
  const domains = useQuery({ queryKey: domainsKey(team.id), queryFn: async () => (await listDomains()).domains });
  return (
    <Section id="team-security-title" title="Security" icon={<ShieldCheck aria-hidden className="h-5 w-5" />}>
      <h3 className="mt-3 font-medium text-slate-900">Verified domains</h3>
      <p className="mt-1 text-slate-600">{HOW_IT_WORKS}</p>
      {domains.isError && <Problem>Could not load your domains.</Problem>}
      {domains.data && domains.data.length > 0 && (
        <ul className="mt-2 divide-y divide-slate-200">
          {domains.data.map((d) => (
            <DomainRow key={d.id} domain={d} teamId={team.id} />
          ))}
        </ul>
      )}
      <AddDomain teamId={team.id} />
    </Section>
  );
}
