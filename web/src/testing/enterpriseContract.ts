//! The drift test's scenarios for the enterprise handlers: domain join, single sign-on and setup
//! links for IT, each endpoint through its success and its refusals.

import { db, DEFAULT_POLICY } from "./db";
import { linksOf } from "./handlers/setupLinks";
import { ssoSwitch } from "./handlers/sso";
import { domainsOf, publishedRecords } from "./handlers/teamDomains";

type Call = (method: string, path: string, body?: unknown, token?: string) => Promise<number>;

/** Setup links for IT: the owner's links, and the link's own page through each step, its refusals and its end. */
export async function exerciseSetupLinkHandlers(call: Call, pw: string) {
  const owner = db.startSession(db.createUser({ email: "boss@setup.example", password: pw }).id);
  owner.passwordAt = db.now();
  const member = db.startSession(db.createUser({ email: "rep@setup.example", password: pw }).id).accessToken;
  const { team } = db.seedTeam({
    name: "Setup Co",
    owner: "boss@setup.example",
    seats: 3,
    members: [{ email: "rep@setup.example" }],
  });
  const [token, rep] = [owner.accessToken, member];
  await call("GET", "/api/team/setup-links", undefined, rep);
  await call("POST", "/api/team/setup-links", { steps: [] }, token);
  await call("POST", "/api/team/setup-links", { steps: ["scim", "domain", "sso"] }, token);
  await call("POST", "/api/team/setup-links", { steps: ["scim"] }, token);
  const [link, scimOnly] = linksOf(team);
  await call("GET", "/api/team/setup-links", undefined, token);
  const path = `/api/setup/${link!.token}`;
  await call("GET", path);
  await call("GET", "/api/setup/unknown");
  await call("POST", `/api/setup/${scimOnly!.token}/domains`, { domain: "setup.example" });
  await call("POST", `${path}/domains`, { domain: "setup.example" });
  const domain = domainsOf(team)[0]!;
  await call("POST", `${path}/domains/${domain.id}/verify`);
  publishedRecords.add(domain.txt_value);
  await call("POST", `${path}/domains/${domain.id}/verify`);
  await call("POST", `${path}/sso/test`, { email: "it@setup.example" });
  await call("PUT", `${path}/sso`, { protocol: "saml" });
  await call("PUT", `${path}/sso`, { protocol: "oidc", issuer: "https://idp.example", client_id: "c", client_secret: "s" });
  await call("PUT", `${path}/sso`, { protocol: "saml", metadata_url: "https://idp.example/metadata" });
  await call("POST", `${path}/sso/test`, { email: "it@elsewhere.example" });
  await call("POST", `${path}/sso/test`, { email: "it@setup.example" });
  await call("POST", `${path}/scim-tokens`, { name: "Okta" });
  await call("POST", `${path}/finish`);
  await call("GET", path);
  await call("DELETE", `/api/team/setup-links/${scimOnly!.id}`, undefined, token);
  await call("DELETE", `/api/team/setup-links/${scimOnly!.id}`, undefined, rep);
  await call("DELETE", "/api/team/setup-links/00000000-0000-0000-0000-000000000000", undefined, token);
  await call("POST", `/api/setup/${scimOnly!.token}/finish`);
}

/** Domain join (docs/api.md "Teams"): turning it on and off, asking to join, approving and denying. */
export async function exerciseDomainJoinHandlers(call: Call, pw: string) {
  const tokenOf = (email: string, verified = true) =>
    db.startSession(db.createUser({ email, password: pw, verified }).id).accessToken;
  const owner = tokenOf("boss@join.example");
  const member = tokenOf("rep@join.example");
  const asker = tokenOf("ana@join.example");
  const late = tokenOf("bo@join.example");
  const unverified = tokenOf("cy@join.example", false);
  const { team } = db.seedTeam({
    name: "Join Co",
    owner: "boss@join.example",
    seats: 3,
    members: [{ email: "rep@join.example" }],
    answers: { owner: { domain_join_offer: "join.example" } },
  });
  await call("PUT", "/api/team/domain-join", { domain: "gmail.com" }, owner);
  await call("PUT", "/api/team/domain-join", { domain: "join.example" }, member);
  await call("PUT", "/api/team/domain-join", { domain: "join.example" }, asker);
  await call("PUT", "/api/team/domain-join", { domain: "join.example" });
  await call("PUT", "/api/team/domain-join", { domain: "join.example" }, owner);
  await call("GET", "/api/team/joinable", undefined, asker);
  await call("GET", "/api/team/joinable", undefined, unverified);
  await call("GET", "/api/team/joinable");
  await call("POST", "/api/team/join-requests", { team_id: team.id }, member);
  await call("POST", "/api/team/join-requests", { team_id: crypto.randomUUID() }, asker);
  await call("POST", "/api/team/join-requests", { team_id: team.id }, asker);
  await call("POST", "/api/team/join-requests", { team_id: team.id }, asker);
  await call("POST", "/api/team/join-requests", { team_id: team.id }, late);
  await call("GET", "/api/team/join-requests", undefined, member);
  await call("GET", "/api/team/join-requests", undefined, asker);
  await call("GET", "/api/team/join-requests", undefined, owner);
  const [first, second] = db.team.openJoinRequests(team.id);
  await call("POST", `/api/team/join-requests/${first!.id}/approve`, undefined, member);
  await call("POST", `/api/team/join-requests/${first!.id}/approve`, undefined, owner);
  await call("POST", `/api/team/join-requests/${first!.id}/approve`, undefined, owner);
  await call("POST", `/api/team/join-requests/${second!.id}/approve`, undefined, owner);
  await call("POST", `/api/team/join-requests/${second!.id}/deny`, undefined, member);
  await call("POST", `/api/team/join-requests/${second!.id}/deny`, undefined, owner);
  await call("POST", `/api/team/join-requests/${second!.id}/deny`, undefined, owner);
  await call("PUT", "/api/team/domain-join", { domain: null }, owner);
  await call("PUT", "/api/team/mfa-policy", { required: true }, member);
  await call("PUT", "/api/team/mfa-policy", { required: true }, owner);
  await call("GET", "/api/team", undefined, member);
  await call("PUT", "/api/team/mfa-policy", { required: false }, owner);
  await call("GET", "/api/team/policy", undefined, owner);
  await call("GET", "/api/team/policy", undefined, member);
  await call("PUT", "/api/team/policy", { ...DEFAULT_POLICY, allowed_apps: ["meet"] }, owner);
  // Verified domains: the owner's alone.
  await call("GET", "/api/team/domains", undefined, member);
  await call("POST", "/api/team/domains", { domain: "join.example" }, owner);
  const added = domainsOf(team)[0]!;
  await call("POST", `/api/team/domains/${added.id}/verify`, undefined, owner);
  publishedRecords.add(added.txt_value);
  await call("POST", `/api/team/domains/${added.id}/verify`, undefined, owner);
  await call("GET", "/api/team/domains", undefined, owner);
  await call("DELETE", `/api/team/domains/${added.id}`, undefined, member);
  await call("DELETE", `/api/team/domains/${added.id}`, undefined, owner);
  await call("DELETE", `/api/team/domains/${added.id}`, undefined, owner);
  // SCIM tokens: the owner's alone; a token's secret in the creation's answer only.
  await call("POST", "/api/team/scim/tokens", { name: "Okta" }, member);
  await call("POST", "/api/team/scim/tokens", { name: "Okta" }, owner);
  await call("GET", "/api/team/scim/tokens", undefined, owner);
  await call("DELETE", "/api/team/scim/tokens/00000000-0000-0000-0000-000000000000", undefined, owner);
  // Event streams: the owner's alone; an https stream's secret in the creation's answer only.
  await call("GET", "/api/team/streams", undefined, member);
  await call("POST", "/api/team/streams", { kind: "https", url: "http://siem.example.com/hook" }, owner);
  await call("POST", "/api/team/streams", { kind: "kafka", url: "https://siem.example.com/hook" }, owner);
  await call("POST", "/api/team/streams", { kind: "datadog", url: "https://intake.example.com/" }, owner);
  await call("POST", "/api/team/streams", { kind: "splunk_hec", url: "https://splunk.example.com/", token: "t" }, owner);
  await call("POST", "/api/team/streams", { kind: "https", url: "https://siem.example.com/hook", events: ["audit"] }, owner);
  const [splunk, https] = (team as unknown as { streams: { id: string }[] }).streams.map((s) => s.id);
  await call("GET", "/api/team/streams", undefined, owner);
  await call("POST", `/api/team/streams/${https}/test`, undefined, owner);
  await call("GET", `/api/team/streams/${https}/deliveries`, undefined, owner);
  await call("POST", `/api/team/streams/${https}/secret`, undefined, owner);
  await call("POST", `/api/team/streams/${splunk}/secret`, undefined, owner);
  await call("POST", `/api/team/streams/${https}/retry`, undefined, owner);
  await call("POST", `/api/team/streams/${https}/replay`, { since: "2026-01-01" }, owner);
  await call("POST", `/api/team/streams/${https}/replay`, { since: "soon" }, owner);
  await call("DELETE", `/api/team/streams/${splunk}`, undefined, owner);
  await call("DELETE", `/api/team/streams/${splunk}`, undefined, owner);
  // Invoices and company details: owner and admins read, the owner writes.
  await call("GET", "/api/billing/invoices", undefined, owner);
  await call("GET", "/api/team/billing/invoices", undefined, member);
  await call("GET", "/api/team/billing/invoices", undefined, owner);
  await call("GET", "/api/team/billing/details", undefined, owner);
  const address = { line1: "Hauptstraße 5", line2: null, city: "Berlin", postal_code: "10115", state: null, country: "de" };
  const details = { name: "Acme GmbH", address, tax_ids: [{ type: "eu_vat", value: "DE123456789" }] };
  await call("PUT", "/api/team/billing/details", details, member);
  await call("PUT", "/api/team/billing/details", details, owner);
}

/** Single sign-on: the owner's connection (refused, saved, removed), the sign-in page's question and `/sso/confirm`'s switch. */
export async function exerciseSsoHandlers(call: Call, pw: string) {
  const token = db.startSession(db.createUser({ email: "sso-owner@sso.example", password: pw }).id).accessToken;
  const { team } = db.seedTeam({ owner: "sso-owner@sso.example", seats: 2, members: [] });
  Object.assign(team, { ssoDomains: ["sso.example"] });
  await call("GET", "/api/team/sso", undefined, token);
  await call(
    "PUT",
    "/api/team/sso",
    { issuer: "http://idp.example", client_id: "c", client_secret: "s", required: false },
    token,
  );
  await call(
    "PUT",
    "/api/team/sso",
    { issuer: "https://idp.example", client_id: "c", client_secret: "s", required: true },
    token,
  );
  await call("POST", "/api/auth/sso/discover?next=/team", { email: "bo@sso.example" });
  await call("POST", "/api/auth/sso/discover", { email: "bo@elsewhere.example" });
  // /sso/confirm: nothing waits, then a sign-in waits and is switched to, then one is cancelled.
  await call("GET", "/api/auth/sso/switch");
  await call("POST", "/api/auth/sso/switch");
  const waiting = db.createUser({ email: "bo@sso.example", password: pw });
  ssoSwitch.pending = { userId: waiting.id, next: "/team" };
  await call("GET", "/api/auth/sso/switch");
  await call("POST", "/api/auth/sso/switch");
  ssoSwitch.pending = { userId: waiting.id, next: "/team" };
  await call("DELETE", "/api/auth/sso/switch");
  await call("DELETE", "/api/team/sso", undefined, token);
}
