//! Single sign-on (docs/api.md "Single sign-on"): the owner's connection on /team, and the sign-in
//! page's question whether an address signs in by SSO. The sign-in itself is a navigation to the
//! `start_url` the server answers (`/api/auth/sso/start`), never a fetch. A browser signed in to
//! another account lands on `/sso/confirm` first, which asks before switching.

import { apiRequest } from "./client";
import type { components } from "./gen";

export type TeamSso = components["schemas"]["TeamSso"];
export type SsoDiscovery = components["schemas"]["SsoDiscovery"];

export function getSso() {
  return apiRequest<TeamSso>("/api/team/sso", { auth: true });
}

export function saveSso(body: components["schemas"]["TeamSsoRequest"]) {
  return apiRequest<TeamSso>("/api/team/sso", { method: "PUT", body, auth: true });
}

export function deleteSso() {
  return apiRequest<void>("/api/team/sso", { method: "DELETE", auth: true });
}

export function discoverSso(email: string, next: string | null) {
  const query = next ? `?next=${encodeURIComponent(next)}` : "";
  return apiRequest<SsoDiscovery>(`/api/auth/sso/discover${query}`, { method: "POST", body: { email } });
}

/** The owner's "Test connection": a real round trip through the provider that signs nobody in. */
export function testConnectionUrl(domain: string) {
  return `/api/auth/sso/start?email=${encodeURIComponent(`sso-test@${domain}`)}&test=true`;
}

export type SsoSwitch = components["schemas"]["SsoSwitch"];
export type SsoSwitched = components["schemas"]["SsoSwitched"];

/** `/sso/confirm`: the account this browser is signed in to, and the one single sign-on just signed in. */
export function getSsoSwitch() {
  return apiRequest<SsoSwitch>("/api/auth/sso/switch");
}

/** Continue as the account single sign-on signed in (replaces this browser's session). */
export function continueSsoSwitch() {
  return apiRequest<SsoSwitched>("/api/auth/sso/switch", { method: "POST" });
}

/** Stay signed in as before: the session single sign-on started is ended. */
export function cancelSsoSwitch() {
  return apiRequest<void>("/api/auth/sso/switch", { method: "DELETE" });
}
