import { Globe } from "lucide-react";
import { useState, type FormEvent } from "react";
import toast from "react-hot-toast";
import { Button } from "../../../components/ui/Button";
import { TextField } from "../../../components/ui/TextField";
import { ApiError } from "../../../lib/api/client";
import type { Team } from "../../../lib/api/types";
import { useSetDomainJoin } from "../api/ruleMutations";
import { errorMessage, Problem, Section } from "./TeamParts";

const HOW_IT_WORKS =
  "People who verify an address at that domain can ask to join; an admin approves each request, and each new member needs a free seat.";

const NOTHING_TO_OFFER =
  "Domain join needs a verified domain of your team: add your company's domain under Security and verify it first. Public mail providers' domains (Gmail, Outlook, Orange and thousands more) cannot be verified.";

/**
 * The owner's form: a company domain and Allow, or Turn off while it is on. The domain offered is
 * the server's `domain_join_offer` (one of the team's verified domains); none: why not.
 */
function DomainJoinForm({ team }: { team: Team }) {
  const set = useSetDomainJoin();
  const [domain, setDomain] = useState(team.domain_join_offer ?? "");
  const [fieldError, setFieldError] = useState<string | null>(null);
  const busy = set.isPending;
  const refused = set.error instanceof ApiError && set.error.code === "domain_not_allowed";
  const error = set.isError && !refused ? errorMessage(set.error) : null;

  function save(next: string | null) {
    setFieldError(null);
    set.mutate(next, {
      onSuccess: () => void toast.success(next ? `Domain join is on for ${next}` : "Domain join is off"),
      onError: (e) => {
        if (e instanceof ApiError && e.code === "domain_not_allowed") setFieldError(e.message);
      },
    });
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const value = domain.trim();
    if (!value) return setFieldError("Please enter your company's domain.");
    save(value);
  }

  if (team.join_domain)
    return (
      <div className="mt-4 space-y-3">
        <p className="font-medium text-slate-900">Domain join is on for {team.join_domain}.</p>
        {error && <Problem>{error}</Problem>}
        <Button variant="secondary" disabled={busy} aria-busy={busy} onClick={() => save(null)}>
          {busy ? "Turning off..." : "Turn off domain join"}
        </Button>
      </div>
    );
  if (!team.domain_join_offer) return <p className="mt-3 text-slate-700">{NOTHING_TO_OFFER}</p>;
  return (
    <form noValidate onSubmit={onSubmit} className="mt-4 space-y-3">
      <TextField
        label="Company domain"
        name="join-domain"
        autoComplete="off"
        placeholder="northwind.example"
        className="max-w-md"
        value={domain}
        error={fieldError}
        onChange={(e) => setDomain(e.target.value)}
      />
      {error && <Problem>{error}</Problem>}
      <Button type="submit" disabled={busy} aria-busy={busy}>
        {busy ? "Saving..." : "Allow domain join"}
      </Button>
    </form>
  );
}

/** Domain join: the owner turns it on for the company's domain or off; the others see whether it is on. */
export function DomainJoin({ team }: { team: Team }) {
  return (
    <Section id="domain-join-title" title="Domain join" icon={<Globe aria-hidden className="h-5 w-5" />}>
      <p className="mt-2 text-slate-600">{HOW_IT_WORKS}</p>
      {team.may.configure_domain_join ? (
        <DomainJoinForm team={team} />
      ) : (
        <p className="mt-3 text-slate-700">
          {team.join_domain ? `Domain join is on for ${team.join_domain}.` : "Domain join is off. The owner can turn it on."}
        </p>
      )}
    </Section>
  );
}
