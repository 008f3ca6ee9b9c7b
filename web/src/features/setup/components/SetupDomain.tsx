import { useState, type FormEvent } from "react";
import toast from "react-hot-toast";
import { Button } from "../../../components/ui/Button";
import { TextField } from "../../../components/ui/TextField";
import type { TeamDomain } from "../../../lib/api/types";
import { useAddDomain, useVerifyDomain } from "../api/setup";
import { CopyValue, errorMessage, Problem } from "./SetupParts";

function DomainRow({ token, domain }: { token: string; domain: TeamDomain }) {
  const verify = useVerifyDomain(token);
  const [error, setError] = useState<string | null>(null);
  const verified = domain.status === "verified";

  async function check() {
    setError(null);
    try {
      await verify.mutateAsync(domain.id);
      toast.success(`${domain.domain} is verified`);
    } catch (e) {
      setError(errorMessage(e));
    }
  }

  return (
    <li className="space-y-3 py-4" aria-label={domain.domain}>
      <div className="flex flex-wrap items-center gap-3">
        <span className="font-medium text-slate-900">{domain.domain}</span>
        <span
          className={`rounded-full px-2 py-0.5 text-xs font-medium ${verified ? "bg-green-100 text-green-800" : "bg-amber-100 text-amber-900"}`}
        >
          {verified ? "Verified" : "Pending"}
        </span>
      </div>
      {!verified && (
        <>
          <p className="text-sm text-slate-700">
            Publish this TXT record at your DNS provider, then choose Check now. DNS changes can take a few minutes to show.
          </p>
          <dl className="space-y-2">
            <CopyValue label="Record name" value={domain.txt_name} />
            <CopyValue label="Record value" value={domain.txt_value} />
          </dl>
          <Button disabled={verify.isPending} aria-busy={verify.isPending} onClick={() => void check()}>
            {verify.isPending ? "Checking..." : "Check now"}
          </Button>
        </>
      )}
      {error && <Problem>{error}</Problem>}
    </li>
  );
}

/** Step 1: add the company domain, publish its TXT record, "Check now". No removal through the link. */
export function SetupDomain({ token, domains }: { token: string; domains: TeamDomain[] }) {
  const add = useAddDomain(token);
  const [domain, setDomain] = useState("");
  const [fieldError, setFieldError] = useState<string | null>(null);

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
    <>
      <p className="text-slate-700">
        Prove the company owns its domain: single sign-on and provisioning trust the addresses at a verified domain only.
      </p>
      {domains.length > 0 && (
        <ul aria-label="Domains" className="divide-y divide-slate-200">
          {domains.map((d) => (
            <DomainRow key={d.id} token={token} domain={d} />
          ))}
        </ul>
      )}
      <form noValidate onSubmit={(e) => void onSubmit(e)} className="flex flex-wrap items-end gap-3">
        <TextField
          label="Company domain"
          name="setup-domain"
          autoComplete="off"
          placeholder="northwind.example"
          className="w-full max-w-md"
          value={domain}
          error={fieldError}
          onChange={(e) => setDomain(e.target.value)}
        />
        <Button type="submit" disabled={add.isPending} aria-busy={add.isPending}>
          {add.isPending ? "Adding..." : "Add domain"}
        </Button>
      </form>
    </>
  );
}
