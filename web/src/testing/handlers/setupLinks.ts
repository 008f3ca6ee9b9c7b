//! Setup links for IT (docs/api.md "Setup links"): the owner's links on the team's row (the token in
//! the creation's answer only), and the link's own endpoints, found by token, over the team's domains,
//! single sign-on (a draft until a test passes: `completeSetupTest` stands in for the IdP's return) and
//! SCIM tokens. A revoked, expired or finished link answers 410 with its reason.

import type { ScimToken, TeamDomain } from "../../lib/api/types";
import type { SetupSsoDraft, SetupSsoTest, SetupStep } from "../../lib/api/setupLinks";
import { db } from "../db";
import type { TeamRow } from "../teamStore";
import { type MockRoute, apiError, json, noContent, origin, readBody, route } from "./common";
import { steppedUp, teamRoute } from "./teamCommon";
import { domainsOf, publishedRecords } from "./teamDomains";

const STEPS: SetupStep[] = ["domain", "sso", "scim"];
export type LinkRow = {
  id: string;
  token: string;
  steps: SetupStep[];
  createdBy: string;
  createdAt: number;
  expiresAt: number;
  finishedAt: number | null;
  revokedAt: number | null;
  done: SetupStep[];
  draft: SetupSsoDraft | null;
  test: SetupSsoTest | null;
  scim: { id: string; name: string; created_at: string }[];
};
type WithLinks = TeamRow & { setupLinks?: LinkRow[]; scim?: ScimToken[]; sso?: unknown };
export const linksOf = (team: object) => ((team as WithLinks).setupLinks ??= []);
const at = (ms: number | null) => (ms === null ? null : db.iso(ms));
const state = (l: LinkRow) =>
  l.finishedAt ? "finished" : l.revokedAt ? "revoked" : l.expiresAt <= db.now() ? "expired" : "open";
const ownerView = (l: LinkRow) => ({
  ...{ id: l.id, steps: l.steps, state: state(l), created_at: db.iso(l.createdAt), expires_at: db.iso(l.expiresAt) },
  ...{ finished_at: at(l.finishedAt), revoked_at: at(l.revokedAt), created_by: l.createdBy, done: l.done },
});
const notFound = () => apiError(404, "setup_link_not_found", "There is no such setup link.");
const mark = (link: LinkRow, step: SetupStep) => link.done.includes(step) || link.done.push(step);

/** The test sign-in's return as the ACS would leave it: passed saves the draft as the team's connection. */
export function completeSetupTest(token: string, result: "passed" | "failed", error?: string) {
  const { team, link } = find(token)!;
  link.test = { result, at: db.iso(db.now()), ...(error ? { error } : {}), email: null };
  if (result !== "passed") return;
  const saml = {
    ...{ idp_entity_id: link.draft?.idp_entity_id ?? "https://idp.example/saml", sso_url: "https://idp.example/saml/sso" },
    ...{ certificates: [], metadata_url: link.draft?.metadata_url ?? null, email_attribute: null, allow_idp_initiated: false },
  };
  Object.assign(team, { sso: { protocol: "saml", saml, required: false } });
  link.draft = null;
  mark(link, "sso");
}

function find(token: string) {
  for (const team of db.team.teams.values() as Iterable<WithLinks>) {
    const link = linksOf(team).find((l) => l.token === token);
    if (link) return { team, link };
  }
  return null;
}

const SP = "http://localhost:8080/api/auth";
/** The team's saved connection as `GET /api/team/sso` shows it (the mock's are SAML ones), or null. */
const connection = (team: WithLinks) =>
  team.sso && {
    ...{ configured: true, protocol: "saml", issuer: null, client_id: null, email_claim: "email", required: false },
    ...{
      sp_entity_id: `${SP}/saml/${team.id}/metadata`,
      acs_url: `${SP}/saml/${team.id}/acs`,
      redirect_uri: `${SP}/sso/callback`,
    },
    ...{ saml: (team.sso as { saml?: unknown }).saml ?? null, updated_at: null },
    domains: domainsOf(team).flatMap((d) => (d.status === "verified" ? [d.domain] : [])),
  };
function linkView(team: WithLinks, link: LinkRow) {
  const sso = {
    ...{ sp_entity_id: `${SP}/saml/${team.id}/metadata`, acs_url: `${SP}/saml/${team.id}/acs` },
    ...{ metadata_url: `${SP}/saml/${team.id}/metadata`, redirect_uri: `${SP}/sso/callback` },
    ...{ connection: connection(team), draft: link.draft, test: link.test },
  };
  const scim = { base_url: "http://localhost:8080/scim/v2", tokens: link.scim };
  const head = { team_name: team.name, steps: link.steps, done: link.done, expires_at: db.iso(link.expiresAt) };
  return json({ ...head, domains: domainsOf(team), sso, scim });
}

type Found = { team: WithLinks; link: LinkRow };
/** A route of the link's page: 404 for an unknown token, 410 once gone, 403 for a step it does not allow. */
const byToken = (
  method: MockRoute["method"],
  path: string,
  step: SetupStep | null,
  answer: (f: Found, r: Request, p: Record<string, unknown>) => Response | Promise<Response>,
) =>
  route(method, path, ({ request, params }) => {
    const found = find(String(params.token));
    if (!found) return notFound();
    const gone = state(found.link);
    if (gone !== "open")
      return json({ error: { code: "setup_link_gone", message: "This setup link no longer works." }, reason: gone }, 410);
    if (step && !found.link.steps.includes(step))
      return apiError(403, "setup_step_not_allowed", "This setup link does not allow this step.");
    return answer(found, request, params);
  });

export const setupLinkRoutes: MockRoute[] = [
  teamRoute("get", "/api/team/setup-links", "configure_sso", ({ team }) =>
    json({ links: [...linksOf(team)].reverse().slice(0, 20).map(ownerView) }),
  ),
  teamRoute(
    "post",
    "/api/team/setup-links",
    "configure_sso",
    steppedUp(async ({ team, email }, request) => {
      const asked = (await readBody<"SetupLinkCreateBody">(request)).steps as string[];
      if (asked.length === 0 || new Set(asked).size !== asked.length || asked.some((s) => !STEPS.includes(s as SetupStep)))
        return apiError(400, "invalid_setup_steps", "Choose one or more of domain, sso and scim, each once.");
      const token = crypto.randomUUID().replaceAll("-", "");
      const base = { id: crypto.randomUUID(), token, createdBy: email, createdAt: db.now(), expiresAt: db.now() + 86_400_000 };
      const steps = STEPS.filter((s) => asked.includes(s));
      const link: LinkRow = { ...base, steps, finishedAt: null, revokedAt: null, done: [], draft: null, test: null, scim: [] };
      linksOf(team).push(link);
      return json({ id: link.id, url: `${origin(request)}/setup/${token}`, expires_at: db.iso(link.expiresAt), steps }, 201);
    }),
  ),
  teamRoute(
    "delete",
    "/api/team/setup-links/{id}",
    "configure_sso",
    steppedUp(({ team }, _request, params) => {
      const link = linksOf(team).find((l) => l.id === params.id);
      if (!link) return notFound();
      if (state(link) === "open") link.revokedAt = db.now();
      return noContent();
    }),
  ),
  byToken("get", "/api/setup/{token}", null, ({ team, link }) => linkView(team, link)),
  byToken("post", "/api/setup/{token}/domains", "domain", async ({ team }, request) => {
    const domain = (await readBody<"TeamDomainBody">(request)).domain.trim().toLowerCase();
    const dates = { created_at: db.iso(db.now()), verified_at: null, last_checked_at: null, last_seen_at: null };
    const txt = `closewise-domain-verification=${crypto.randomUUID().replaceAll("-", "")}`;
    const row = {
      id: crypto.randomUUID(),
      domain,
      status: "pending",
      txt_name: `_closewise-challenge.${domain}`,
      txt_value: txt,
    };
    domainsOf(team).push({ ...row, ...dates } as TeamDomain);
    return json(domainsOf(team).at(-1), 201);
  }),
  byToken("post", "/api/setup/{token}/domains/{id}/verify", "domain", ({ team, link }, _request, params) => {
    const row = domainsOf(team).find((d) => d.id === params.id);
    if (!row) return apiError(404, "domain_not_found", "There is no such domain in your team.");
    if (!publishedRecords.has(row.txt_value)) return apiError(409, "domain_not_verified", `We did not find ${row.txt_name}.`);
    mark(link, "domain");
    return json(Object.assign(row, { status: "verified", verified_at: db.iso(db.now()), last_seen_at: db.iso(db.now()) }));
  }),
  byToken("put", "/api/setup/{token}/sso", "sso", async ({ team, link }, request) => {
    const body = await readBody<"SetupSsoRequest">(request);
    if ("required" in body) return apiError(400, "invalid_json", "Require SSO stays the team owner's to set.");
    if (body.protocol === "saml") {
      if (!body.metadata_url === !body.metadata_xml)
        return apiError(
          400,
          "saml_metadata_required",
          "Give your identity provider's SAML metadata: its URL or the XML, one of the two.",
        );
      link.draft = { protocol: "saml", idp_entity_id: "https://idp.example/saml", sso_url: "https://idp.example/saml/sso" };
      link.draft.metadata_url = body.metadata_url ?? null;
    } else {
      if (!(body.issuer ?? "").startsWith("https://"))
        return apiError(400, "invalid_issuer", "The issuer must be an https URL (http only for a provider on this machine).");
      link.draft = { protocol: "oidc", issuer: body.issuer, client_id: body.client_id, email_claim: body.email_claim ?? "email" };
    }
    return linkView(team, link);
  }),
  byToken("post", "/api/setup/{token}/sso/test", "sso", async ({ team, link }, request) => {
    const email = (await readBody<"SetupSsoTestRequest">(request)).email.trim().toLowerCase();
    if (!link.draft) return apiError(409, "setup_no_draft", "Save the single sign-on settings before testing them.");
    const domain = email.split("@")[1] ?? "";
    if (!domainsOf(team).some((d) => d.domain === domain && d.status === "verified"))
      return apiError(400, "domain_not_verified", "Use an address at one of the team's verified domains.");
    return json({ authorization_url: `https://idp.example/saml/sso?SAMLRequest=test&RelayState=${link.id}` });
  }),
  byToken("post", "/api/setup/{token}/scim-tokens", "scim", async ({ team, link }, request) => {
    const name = (await readBody<"SetupScimTokenRequest">(request)).name.trim();
    if (!name) return apiError(400, "invalid_token_name", "Give the token a name of 1 to 60 characters.");
    const row = { id: crypto.randomUUID(), name, created_at: db.iso(db.now()) };
    const tokens = (team.scim ??= []);
    tokens.unshift({ ...row, created_by: team.ownerId, last_used_at: null, revoked_at: null });
    link.scim.push(row);
    mark(link, "scim");
    const token = `cws_scim_${crypto.randomUUID().replaceAll("-", "")}`;
    return json({ ...row, token, base_url: "http://localhost:8080/scim/v2" }, 201);
  }),
  byToken("post", "/api/setup/{token}/finish", null, ({ link }) => {
    link.finishedAt = db.now();
    return json({ done: link.done });
  }),
];
