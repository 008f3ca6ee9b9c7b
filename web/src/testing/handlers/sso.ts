//! Single sign-on (docs/api.md "Single sign-on"): the owner's connection kept on the team's fixture
//! (`team.sso`; the secret is never answered), the sign-in page's discovery per domain, and the
//! switch `/sso/confirm` asks for when single sign-on signed in another account than the browser's
//! (`ssoSwitch.pending`, seeded by a test as the callback would leave it).

import { db } from "../db";
import { type MockRoute, apiError, json, noContent, readBody, route } from "./common";
import { steppedUp, teamRoute } from "./teamCommon";
import { domainsOf } from "./teamDomains";

type Saml = {
  idp_entity_id: string;
  sso_url: string;
  certificates: { subject: string; not_after: string; fingerprint: string }[];
  metadata_url: string | null;
  email_attribute: string | null;
  allow_idp_initiated: boolean;
};
type Sso =
  | { protocol: "oidc"; issuer: string; client_id: string; email_claim: string; required: boolean }
  | { protocol: "saml"; saml: Saml; required: boolean };
const EMAIL_CLAIMS = ["email", "preferred_username", "upn"];
type WithSso = { sso?: Sso; ssoDomains?: string[] };
const teams = () => [...db.team.teams.values()] as unknown as WithSso[];
const REDIRECT = "http://localhost:8080/api/auth/sso/callback";
/** The team's verified domains, as the server lists them: those verified on /team, and a test's `ssoDomains`. */
const verified = (team: WithSso) => [
  ...new Set([...(team.ssoDomains ?? []), ...domainsOf(team).flatMap((d) => (d.status === "verified" ? [d.domain] : []))]),
];
const view = (team: WithSso & { id?: string }) =>
  json({
    configured: !!team.sso,
    ...{ protocol: "oidc", saml: null, issuer: null, client_id: null, email_claim: "email", required: false, ...team.sso },
    sp_entity_id: `http://localhost:8080/api/auth/saml/${team.id}/metadata`,
    acs_url: `http://localhost:8080/api/auth/saml/${team.id}/acs`,
    redirect_uri: REDIRECT,
    domains: verified(team),
    updated_at: null,
  });
/** A single sign-on waiting for `/sso/confirm` (the `cw_sso_pending` cookie): whose, and where to land. */
export const ssoSwitch = { pending: null as { userId: string; next: string } | null };
const expired = () => apiError(403, "sso_login_expired", "This sign-in has expired or was already used. Please start again.");
const holder = (email: string) => teams().find((t) => t.sso && verified(t).some((d) => email.endsWith(`@${d}`)));

export const ssoRoutes: MockRoute[] = [
  teamRoute("get", "/api/team/sso", "configure_sso", ({ team }) => view(team)),
  teamRoute(
    "put",
    "/api/team/sso",
    "configure_sso",
    steppedUp(async ({ team }, request) => {
      const body = await readBody<"TeamSsoRequest">(request);
      if (body.protocol === "saml") {
        const url = body.metadata_url ?? null;
        if (!url === !body.metadata_xml)
          return apiError(
            400,
            "saml_metadata_required",
            "Give your identity provider's SAML metadata: its URL or the XML, one of the two.",
          );
        const saml: Saml = {
          idp_entity_id: "https://idp.example/saml",
          sso_url: "https://idp.example/saml/sso",
          certificates: [{ subject: "CN=idp.example", not_after: "2027-06-30T00:00:00Z", fingerprint: "AB:CD" }],
          metadata_url: url,
          email_attribute: body.email_attribute ?? null,
          allow_idp_initiated: body.allow_idp_initiated ?? false,
        };
        Object.assign(team, { sso: { protocol: "saml", saml, required: body.required ?? false } });
        return view(team);
      }
      if (!(body.issuer ?? "").startsWith("https://"))
        return apiError(400, "invalid_issuer", "The issuer must be an https URL (http only for a provider on this machine).");
      const emailClaim = body.email_claim ?? "email";
      if (!EMAIL_CLAIMS.includes(emailClaim))
        return apiError(400, "invalid_email_claim", "The e-mail claim must be email, preferred_username or upn.");
      const sso = {
        protocol: "oidc",
        issuer: body.issuer,
        client_id: body.client_id,
        email_claim: emailClaim,
        required: body.required ?? false,
      };
      Object.assign(team, { sso });
      return view(team);
    }),
  ),
  teamRoute(
    "delete",
    "/api/team/sso",
    "configure_sso",
    steppedUp(({ team }) => (Object.assign(team, { sso: undefined }), noContent())),
  ),
  route("get", "/api/auth/sso/switch", () => {
    const pending = ssoSwitch.pending;
    if (!pending) return expired();
    const current = db.sessions.find((s) => s.refreshToken === db.refreshCookie && !s.revoked);
    const email = db.userById(pending.userId)!.user.email;
    return json({ current_email: current ? (db.userById(current.userId)?.user.email ?? null) : null, email, next: pending.next });
  }),
  route("post", "/api/auth/sso/switch", () => {
    const pending = ssoSwitch.pending;
    if (!pending) return expired();
    db.refreshCookie = db.startSession(pending.userId).refreshToken;
    ssoSwitch.pending = null;
    return json({ next: pending.next });
  }),
  route("delete", "/api/auth/sso/switch", () => ((ssoSwitch.pending = null), noContent())),
  route("post", "/api/auth/sso/discover", async ({ request }) => {
    const email = (await readBody<"SsoDiscoverRequest">(request)).email.trim().toLowerCase();
    const next = new URL(request.url).searchParams.get("next");
    const start = `/api/auth/sso/start?email=${encodeURIComponent(email)}${next ? `&next=${encodeURIComponent(next)}` : ""}`;
    return json({ sso: !!holder(email), start_url: holder(email) ? start : null });
  }),
];
