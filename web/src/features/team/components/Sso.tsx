import { useQuery } from "@tanstack/react-query";
import { KeyRound } from "lucide-react";
import { useState, type FormEvent } from "react";
import toast from "react-hot-toast";
import { useSearchParams } from "react-router";
import { useConfirmPassword } from "../../../components/account/ConfirmPassword";
import { Button } from "../../../components/ui/Button";
import { Choice } from "../../../components/ui/Choice";
import { TextField } from "../../../components/ui/TextField";
import { getSso, testConnectionUrl, type TeamSso } from "../../../lib/api/sso";
import type { Team } from "../../../lib/api/types";
import { ssoKey, useSsoAction } from "../api/ruleMutations";
import { NO_CONNECTION, NO_DOMAIN, RequireSso } from "./RequireSso";
import { errorMessage, Problem, Section } from "./TeamParts";

const HOW_IT_WORKS =
  "People at your verified domains sign in through your company's identity provider (OpenID Connect or SAML 2.0). Their first sign-in makes them members and takes a seat.";

/** The claims a provider may carry the address in, as the server takes them. */
const EMAIL_CLAIMS = [
  { value: "email", label: "email (the provider must confirm the address)" },
  { value: "preferred_username", label: "preferred_username (Microsoft Entra ID's sign-in name)" },
  { value: "upn", label: "upn (Microsoft Entra ID's user principal name)" },
];

const dateOf = (iso: string) => new Date(iso).toISOString().slice(0, 10);

/** What to give the IdP, and (once saved) what its metadata said. */
function SamlDetails({ sso }: { sso: TeamSso }) {
  return (
    <div className="space-y-1 text-slate-700">
      <p>
        Entity ID (and metadata URL) to give your identity provider: <code className="break-all">{sso.sp_entity_id}</code>
      </p>
      <p>
        ACS URL (HTTP-POST): <code className="break-all">{sso.acs_url}</code>
      </p>
      {sso.saml && (
        <dl aria-label="Identity provider" className="mt-2 space-y-1">
          <div>
            <dt className="inline font-medium">Identity provider: </dt>
            <dd className="inline break-all">{sso.saml.idp_entity_id}</dd>
          </div>
          <div>
            <dt className="inline font-medium">Sign-in URL: </dt>
            <dd className="inline break-all">{sso.saml.sso_url}</dd>
          </div>
          {sso.saml.certificates.map((c) => (
            <div key={c.fingerprint}>
              <dt className="inline font-medium">Signing certificate: </dt>
              <dd className="inline">
                {c.subject}, expires {dateOf(c.not_after)}
              </dd>
            </div>
          ))}
        </dl>
      )}
    </div>
  );
}

/** The owner's form: OpenID Connect (issuer, client id, secret never shown again, the e-mail claim) or SAML
 * (the IdP's metadata by URL or XML, the e-mail attribute, IdP-initiated sign-in); Require SSO; test, remove. */
function SsoForm({ teamId, sso }: { teamId: string; sso: TeamSso }) {
  const [protocol, setProtocol] = useState(sso.protocol);
  const [metadataUrl, setMetadataUrl] = useState(sso.saml?.metadata_url ?? "");
  const [metadataXml, setMetadataXml] = useState("");
  const [emailAttribute, setEmailAttribute] = useState(sso.saml?.email_attribute ?? "");
  const [idpInitiated, setIdpInitiated] = useState(sso.saml?.allow_idp_initiated ?? false);
  const [issuer, setIssuer] = useState(sso.issuer ?? "");
  const [clientId, setClientId] = useState(sso.client_id ?? "");
  const [secret, setSecret] = useState("");
  const [required, setRequired] = useState(sso.required);
  const [emailClaim, setEmailClaim] = useState(sso.email_claim);
  // Saved or removed, the settings are read again (useSsoAction).
  const password = useConfirmPassword();
  const action = useSsoAction(teamId, password.guard);
  const busy = action.isPending;
  const error = action.isError ? errorMessage(action.error) : null;
  const testDomain = sso.domains[0];

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const body =
      protocol === "saml"
        ? {
            protocol,
            metadata_url: metadataXml.trim() ? undefined : metadataUrl.trim() || undefined,
            metadata_xml: metadataXml.trim() || undefined,
            email_attribute: emailAttribute.trim() || undefined,
            allow_idp_initiated: idpInitiated,
            required,
          }
        : {
            protocol,
            issuer: issuer.trim(),
            client_id: clientId.trim(),
            client_secret: secret || undefined,
            email_claim: emailClaim,
            required,
          };
    action.mutate(
      { action: "save", body },
      {
        onSuccess: () => {
          setSecret("");
          setMetadataXml("");
          toast.success("Single sign-on is saved");
        },
      },
    );
  }

  return (
    <form noValidate onSubmit={onSubmit} className="mt-4 space-y-3">
      {password.dialog}
      <fieldset className="flex gap-4 text-slate-800">
        <legend className="sr-only">Protocol</legend>
        <label className="flex items-center gap-2">
          <input
            type="radio"
            name="sso-protocol"
            value="oidc"
            checked={protocol === "oidc"}
            onChange={() => setProtocol("oidc")}
          />
          OpenID Connect
        </label>
        <label className="flex items-center gap-2">
          <input
            type="radio"
            name="sso-protocol"
            value="saml"
            checked={protocol === "saml"}
            onChange={() => setProtocol("saml")}
          />
          SAML 2.0
        </label>
      </fieldset>
      {protocol === "saml" ? (
        <>
          <SamlDetails sso={sso} />
          <TextField
            label="Metadata URL"
            name="saml-metadata-url"
            className="max-w-md"
            value={metadataUrl}
            onChange={(e) => setMetadataUrl(e.target.value)}
          />
          <label className="block max-w-md text-sm font-medium text-slate-700">
            Or paste the metadata XML
            <textarea
              name="saml-metadata-xml"
              rows={4}
              className="mt-1 block w-full rounded-lg border border-slate-300 p-2 font-mono text-xs"
              value={metadataXml}
              onChange={(e) => setMetadataXml(e.target.value)}
            />
          </label>
          <TextField
            label="E-mail attribute (empty: the NameID)"
            name="saml-email-attribute"
            className="max-w-md"
            value={emailAttribute}
            onChange={(e) => setEmailAttribute(e.target.value)}
          />
          <Choice
            label="Accept sign-ins started at the identity provider (IdP-initiated)"
            checked={idpInitiated}
            onChange={(e) => setIdpInitiated(e.target.checked)}
          />
        </>
      ) : (
        <>
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
            placeholder={sso.configured && sso.protocol === "oidc" ? "Stored — leave empty to keep it" : ""}
            value={secret}
            onChange={(e) => setSecret(e.target.value)}
          />
          <label className="block max-w-md text-slate-800">
            E-mail claim
            <select
              name="sso-email-claim"
              className="mt-1 block w-full rounded border p-2"
              value={emailClaim}
              onChange={(e) => setEmailClaim(e.target.value)}
            >
              {EMAIL_CLAIMS.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </select>
          </label>
          <p className="text-sm text-slate-600">
            The claim of the ID token (or of your provider&apos;s UserInfo) that holds each person&apos;s e-mail address.
            Microsoft Entra ID sends <code>email</code> only when configured to; otherwise choose <code>upn</code>.
          </p>
        </>
      )}
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
