import { useQuery } from "@tanstack/react-query";
import { KeyRound } from "lucide-react";
import { useId, useState, type FormEvent } from "react";
import toast from "react-hot-toast";
import { useSearchParams } from "react-router";
import { useConfirmPassword } from "../../../components/account/ConfirmPassword";
import { Button } from "../../../components/ui/Button";
import { Choice } from "../../../components/ui/Choice";
import { TextField } from "../../../components/ui/TextField";
import { getSso, testConnectionUrl, type TeamSso } from "../../../lib/api/sso";
import type { Team } from "../../../lib/api/types";
import { ssoKey, useSsoAction } from "../api/ruleMutations";
import { errorMessage, Problem, Section } from "./TeamParts";

const HOW_IT_WORKS =
  "People at your verified domains sign in through your company's identity provider (OpenID Connect). Their first sign-in makes them members and takes a seat.";

const NO_DOMAIN = "Verify a company domain first: single sign-on signs in addresses at your verified domains.";
const NO_CONNECTION = "Save the connection first: Require SSO needs a working connection to your identity provider.";

/** "Require SSO", disabled with the reason said (`whyNot`) while there is no verified domain or no connection. */
function RequireSso({
  domains,
  checked,
  onChange,
  whyNot,
}: {
  domains: string[];
  checked: boolean;
  onChange: (on: boolean) => void;
  whyNot: string | null;
}) {
  const reason = useId();
  return (
    <div>
      <Choice
        label={domains.length > 0 ? `Require SSO for ${domains.join(", ")} (you keep your password as a way in)` : "Require SSO"}
        checked={checked}
        disabled={whyNot !== null}
        aria-describedby={whyNot ? reason : undefined}
        onChange={(e) => onChange(e.target.checked)}
      />
      {whyNot && (
        <p id={reason} className="ml-8 text-sm text-slate-600">
          {whyNot}
        </p>
      )}
    </div>
  );
}

/** The owner's form: issuer, client id, secret (never shown again), Require SSO; test, remove. */
function SsoForm({ teamId, sso }: { teamId: string; sso: TeamSso }) {
  const [issuer, setIssuer] = useState(sso.issuer ?? "");
  const [clientId, setClientId] = useState(sso.client_id ?? "");
  const [secret, setSecret] = useState("");
  const [required, setRequired] = useState(sso.required);
  // Saved or removed, the settings are read again (useSsoAction).
  const password = useConfirmPassword();
  const action = useSsoAction(teamId, password.guard);
  const busy = action.isPending;
  const error = action.isError ? errorMessage(action.error) : null;
  const testDomain = sso.domains[0];

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const body = { issuer: issuer.trim(), client_id: clientId.trim(), client_secret: secret || undefined, required };
    action.mutate(
      { action: "save", body },
      {
        onSuccess: () => {
          setSecret("");
          toast.success("Single sign-on is saved");
        },
      },
    );
  }

  return (
    <form noValidate onSubmit={onSubmit} className="mt-4 space-y-3">
      {password.dialog}
      <p className="text-slate-700">
        Redirect URI to register at your provider: <code className="break-all">{sso.redirect_uri}</code>
      </p>
      <TextField
        label="Issuer URL"
        name="sso-issuer"
        className="max-w-md"
        value={issuer}
        onChange={(e) => setIssuer(e.target.value)}
      />
      <TextField
        label="Client ID"
        name="sso-client-id"
        className="max-w-md"
        value={clientId}
        onChange={(e) => setClientId(e.target.value)}
      />
      <TextField
        label="Client secret"
        name="sso-client-secret"
        type="password"
        autoComplete="off"
        className="max-w-md"
        placeholder={sso.configured ? "Stored — leave empty to keep it" : ""}
        value={secret}
        onChange={(e) => setSecret(e.target.value)}
      />
      <RequireSso
        domains={sso.domains}
        checked={required}
        onChange={setRequired}
        // A requirement with no working connection would lock the domains' people out.
        whyNot={sso.configured || required ? null : NO_CONNECTION}
      />
      {error && <Problem>{error}</Problem>}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={busy} aria-busy={busy}>
          {busy ? "Saving..." : "Save single sign-on"}
        </Button>
        {sso.configured && testDomain && (
          <Button variant="secondary" disabled={busy} onClick={() => window.location.assign(testConnectionUrl(testDomain))}>
            Test connection
          </Button>
        )}
        {sso.configured && (
          <Button
            variant="secondary"
            disabled={busy}
            // The button is gone once SSO is off, and `mutate`'s own callbacks skip an unmounted caller.
            onClick={() =>
              void action.mutateAsync({ action: "delete" }).then(
                () => void toast.success("Single sign-on is off"),
                () => undefined, // shown from the mutation's error
              )
            }
          >
            Remove single sign-on
          </Button>
        )}
      </div>
    </form>
  );
}

const TEST_RESULT: Record<string, string> = {
  passed: "Test connection passed: your provider signed you in and every check held.",
};

/** Single sign-on on /team: the owner's settings; for the others, nothing (the owner's to decide). */
export function Sso({ team }: { team: Team }) {
  const [params] = useSearchParams();
  const owner = team.may.configure_sso;
  const key = ssoKey(team.id);
  const query = useQuery({ queryKey: key, queryFn: () => getSso(), enabled: owner });
  if (!owner) return null;
  const sso = query.data ?? null;
  const error = query.isError ? errorMessage(query.error) : null;
  const test = params.get("sso_test");
  return (
    <Section id="sso-title" title="Single sign-on" icon={<KeyRound aria-hidden className="h-5 w-5" />}>
      <p className="mt-2 text-slate-600">{HOW_IT_WORKS}</p>
      {test && (
        <p role="status" className="mt-3 text-slate-800">
          {TEST_RESULT[test] ??
            `Test connection failed (${params.get("sso_error") ?? "error"}). Check the issuer, client ID and secret.`}
        </p>
      )}
      {error && <Problem>{error}</Problem>}
      {sso && sso.domains.length === 0 && (
        <div className="mt-3">
          <RequireSso domains={[]} checked={false} onChange={() => undefined} whyNot={NO_DOMAIN} />
        </div>
      )}
      {sso && sso.domains.length > 0 && <SsoForm teamId={team.id} sso={sso} />}
    </Section>
  );
}
