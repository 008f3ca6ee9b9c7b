import { useState, type ChangeEvent, type FormEvent } from "react";
import { useSearchParams } from "react-router";
import { Button } from "../../../components/ui/Button";
import { Choice } from "../../../components/ui/Choice";
import { Select } from "../../../components/ui/Select";
import { TextField } from "../../../components/ui/TextField";
import type { SetupSsoRequest, SetupView } from "../../../lib/api/setupLinks";
import { useSaveSso, useStartTest } from "../api/setup";
import { PROVIDERS, type Provider, type ProviderId } from "./providers";
import { CopyValue, errorMessage, Problem } from "./SetupParts";

export const TEST_PASSED = "The test sign-in passed. Single sign-on is saved.";

/** The test's failures in plain words (the ACS's and the OpenID callback's codes). */
const FAILURES: Record<string, string> = {
  invalid_saml_response:
    "the identity provider's answer did not pass our checks (its signature, certificate, audience or destination)",
  saml_assertion_expired: "the identity provider's answer had expired (check its clock)",
  saml_assertion_replayed: "the identity provider's answer had already been used",
  email_claim_missing: "the identity provider sent no e-mail address for the person who signed in",
  domain_not_verified: "the address that signed in is not at one of the company's verified domains",
  sso_login_expired: "the test took too long or was already used",
  sso_denied: "the identity provider refused the sign-in",
  invalid_id_token: "the identity provider's ID token did not pass our checks",
  email_not_verified: "the identity provider does not confirm the address that signed in",
};

export function testFailure(code: string | null | undefined) {
  const why = (code && FAILURES[code]) ?? "the identity provider's answer was refused";
  return `The test sign-in failed: ${why}${code ? ` (${code})` : ""}. Nothing was saved; check the settings in your identity provider and test again.`;
}

const EMAIL_CLAIMS = ["email", "preferred_username", "upn"];

function OurValues({ provider, sso }: { provider: Provider; sso: SetupView["sso"] }) {
  return (
    <div className="space-y-2">
      <p className="text-slate-700">{provider.start} Paste these values there:</p>
      <dl aria-label={`Values for ${provider.label}`} className="space-y-2">
        {provider.ours.map((v) => (
          <CopyValue key={v.label} label={v.label} value={sso[v.value]} />
        ))}
      </dl>
      <p className="text-slate-700">{provider.back}</p>
    </div>
  );
}

function SamlFields({ form, set }: { form: Fields; set: (f: Partial<Fields>) => void }) {
  async function upload(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    set({ metadataXml: file ? await file.text() : "", fileName: file?.name ?? "" });
  }
  return (
    <>
      <TextField
        label="Metadata URL"
        name="setup-metadata-url"
        type="url"
        className="max-w-xl"
        value={form.metadataUrl}
        onChange={(e) => set({ metadataUrl: e.target.value })}
      />
      <label className="block max-w-xl text-sm font-medium text-slate-700">
        Or upload the metadata XML
        <input
          type="file"
          name="setup-metadata-xml"
          accept=".xml,application/xml,text/xml"
          className="mt-1 block min-h-11 w-full text-sm"
          onChange={(e) => void upload(e)}
        />
      </label>
      <TextField
        label="E-mail attribute (empty: the NameID)"
        name="setup-email-attribute"
        className="max-w-xl"
        value={form.emailAttribute}
        onChange={(e) => set({ emailAttribute: e.target.value })}
      />
    </>
  );
}

function OidcFields({ form, set }: { form: Fields; set: (f: Partial<Fields>) => void }) {
  return (
    <>
      <TextField
        label="Issuer URL"
        name="setup-issuer"
        className="max-w-xl"
        value={form.issuer}
        onChange={(e) => set({ issuer: e.target.value })}
      />
      <TextField
        label="Client ID"
        name="setup-client-id"
        className="max-w-xl"
        value={form.clientId}
        onChange={(e) => set({ clientId: e.target.value })}
      />
      <TextField
        label="Client secret"
        name="setup-client-secret"
        type="password"
        autoComplete="off"
        className="max-w-xl"
        value={form.secret}
        onChange={(e) => set({ secret: e.target.value })}
      />
      <label className="block max-w-xl text-sm font-medium text-slate-700">
        E-mail claim
        <Select className="mt-1 w-full py-2.5" value={form.emailClaim} onChange={(e) => set({ emailClaim: e.target.value })}>
          {EMAIL_CLAIMS.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </Select>
      </label>
    </>
  );
}

type Fields = {
  metadataUrl: string;
  metadataXml: string;
  fileName: string;
  emailAttribute: string;
  issuer: string;
  clientId: string;
  secret: string;
  emailClaim: string;
};
const EMPTY: Fields = {
  metadataUrl: "",
  metadataXml: "",
  fileName: "",
  emailAttribute: "",
  issuer: "",
  clientId: "",
  secret: "",
  emailClaim: "email",
};

function request(provider: Provider, f: Fields): SetupSsoRequest {
  if (provider.protocol === "oidc")
    return {
      protocol: "oidc",
      issuer: f.issuer.trim(),
      client_id: f.clientId.trim(),
      client_secret: f.secret,
      email_claim: f.emailClaim,
    };
  const xml = f.metadataXml.trim();
  return {
    protocol: "saml",
    ...(xml ? { metadata_xml: xml } : { metadata_url: f.metadataUrl.trim() }),
    ...(f.emailAttribute.trim() ? { email_attribute: f.emailAttribute.trim() } : {}),
  };
}

function TestSignIn({ token, domains }: { token: string; domains: string[] }) {
  const start = useStartTest(token);
  const [email, setEmail] = useState("");
  const error = start.isError ? errorMessage(start.error) : null;
  function onSubmit(event: FormEvent) {
    event.preventDefault();
    start.mutate(email.trim());
  }
  return (
    <form noValidate onSubmit={onSubmit} aria-label="Test sign-in" className="space-y-3 rounded-xl bg-slate-50 p-4">
      <p className="text-slate-700">
        Sign in once through your identity provider with a work e-mail
        {domains.length > 0 ? ` at ${domains.join(" or ")}` : " at a verified domain"}: single sign-on is saved only when it
        passes. Nobody is signed in to Closewise by the test.
      </p>
      <TextField
        label="Work e-mail"
        name="setup-test-email"
        type="email"
        autoComplete="email"
        className="max-w-md"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
      />
      {error && <Problem>{error}</Problem>}
      <Button type="submit" disabled={start.isPending} aria-busy={start.isPending}>
        {start.isPending ? "Starting..." : "Test sign-in"}
      </Button>
    </form>
  );
}

/**
 * Step 2: choose the provider, see our values under its console's names, give its metadata (URL or
 * XML upload) or OpenID Connect client, "Save and test" (a draft), then a real test sign-in.
 */
export function SetupSso({ token, view }: { token: string; view: SetupView }) {
  const [params] = useSearchParams();
  const [providerId, setProviderId] = useState<ProviderId | null>(view.sso.draft?.protocol === "oidc" ? "oidc" : null);
  const [form, setForm] = useState<Fields>(EMPTY);
  const [saved, setSaved] = useState(false);
  const save = useSaveSso(token);
  const provider = PROVIDERS.find((p) => p.id === providerId) ?? null;
  const set = (f: Partial<Fields>) => setForm((now) => ({ ...now, ...f }));
  const result = params.get("sso_test") ?? view.sso.test?.result ?? null;
  const code = params.get("sso_error") ?? view.sso.test?.error ?? null;
  const verified = view.domains.filter((d) => d.status === "verified").map((d) => d.domain);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!provider) return;
    save.mutate(request(provider, form), { onSuccess: () => setSaved(true) });
  }

  return (
    <>
      {result === "passed" && (
        <p role="status" className="rounded-xl border border-green-200 bg-green-50 p-3 text-green-900">
          {TEST_PASSED}
        </p>
      )}
      {result === "failed" && <Problem>{testFailure(code)}</Problem>}
      <fieldset>
        <legend className="text-sm font-medium text-slate-700">Your identity provider</legend>
        <div className="mt-1 grid gap-x-6 sm:grid-cols-2">
          {PROVIDERS.map((p) => (
            <Choice
              key={p.id}
              type="radio"
              name="setup-provider"
              label={p.label}
              checked={providerId === p.id}
              onChange={() => {
                setProviderId(p.id);
                setSaved(false);
              }}
            />
          ))}
        </div>
      </fieldset>
      {provider && (
        <form noValidate onSubmit={onSubmit} aria-label={`${provider.label} settings`} className="space-y-3">
          <OurValues provider={provider} sso={view.sso} />
          {provider.protocol === "saml" ? <SamlFields form={form} set={set} /> : <OidcFields form={form} set={set} />}
          {form.fileName && <p className="text-sm text-slate-600">Uploaded: {form.fileName} (used instead of the URL)</p>}
          {save.isError && <Problem>{errorMessage(save.error)}</Problem>}
          <Button type="submit" disabled={save.isPending} aria-busy={save.isPending}>
            {save.isPending ? "Saving..." : "Save and test"}
          </Button>
        </form>
      )}
      {(saved || (view.sso.draft && result !== "passed")) && <TestSignIn token={token} domains={verified} />}
    </>
  );
}
