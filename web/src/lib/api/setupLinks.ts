//! The setup link for IT (docs/api.md "Setup links"): the owner creates, lists and revokes links on
//! `/team`; the link's own page (`/setup/{token}`, no account: the token is the credential) verifies
//! the company domain, saves and tests single sign-on, creates a SCIM token and finishes.

import { ApiError, apiRequest, apiUrl, NetworkError, toApiError } from "./client";
import type { TeamDomain } from "./types";

export type SetupStep = "domain" | "sso" | "scim";
/** The steps in the order the page takes them (and the server stores them). */
export const SETUP_STEPS: readonly SetupStep[] = ["domain", "sso", "scim"];

export interface SetupLink {
  id: string;
  steps: SetupStep[];
  state: "open" | "finished" | "revoked" | "expired";
  created_at: string;
  expires_at: string;
  finished_at: string | null;
  revoked_at: string | null;
  /** Who created it (an address). */
  created_by: string;
  /** The steps IT completed through this link. */
  done: SetupStep[];
}

/** `POST /api/team/setup-links`: the URL is in this answer only. */
export interface SetupLinkCreated {
  id: string;
  url: string;
  expires_at: string;
  steps: SetupStep[];
}

/** The SSO settings saved as the link's draft until a test sign-in passes. */
export interface SetupSsoDraft {
  protocol: string;
  idp_entity_id?: string | null;
  sso_url?: string | null;
  issuer?: string | null;
  client_id?: string | null;
  email_attribute?: string | null;
  email_claim?: string | null;
}

export interface SetupSsoTest {
  result: "passed" | "failed";
  error?: string | null;
  email?: string | null;
  at: string;
}

/** `GET /api/setup/{token}`: what the link's page shows. */
export interface SetupView {
  team_name: string;
  steps: SetupStep[];
  done: SetupStep[];
  expires_at: string;
  domains: TeamDomain[];
  sso: {
    sp_entity_id: string;
    acs_url: string;
    metadata_url: string;
    redirect_uri: string;
    connection: { protocol: string } | null;
    draft: SetupSsoDraft | null;
    test: SetupSsoTest | null;
  };
  scim: { base_url: string; tokens: { id: string; name: string; created_at: string }[] };
}

/** `PUT /api/setup/{token}/sso`: the owner's SSO request without `required`. */
export type SetupSsoRequest =
  | { protocol: "saml"; metadata_url?: string; metadata_xml?: string; email_attribute?: string; allow_idp_initiated?: boolean }
  | { protocol: "oidc"; issuer: string; client_id: string; client_secret?: string; email_claim?: string };

export interface SetupScimToken {
  id: string;
  name: string;
  token: string;
  base_url: string;
  created_at: string;
}

/** Why a link answers 410: its 24 hours are over, the owner revoked it, or IT finished with it. */
export type GoneReason = "expired" | "revoked" | "finished";

/** A link that no longer works (`410 setup_link_gone`), with the reason the server gave. */
export class SetupLinkGone extends ApiError {
  constructor(
    message: string,
    readonly reason: GoneReason | null,
  ) {
    super(410, "setup_link_gone", message);
  }
}

// Owner endpoints.

export function getSetupLinks() {
  return apiRequest<{ links: SetupLink[] }>("/api/team/setup-links", { auth: true });
}

export function createSetupLink(steps: SetupStep[]) {
  return apiRequest<SetupLinkCreated>("/api/team/setup-links", { method: "POST", body: { steps }, auth: true });
}

export function revokeSetupLink(id: string) {
  return apiRequest<void>(`/api/team/setup-links/${encodeURIComponent(id)}`, { method: "DELETE", auth: true });
}

// The link's own endpoints: no session, the token in the path.

const setupPath = (token: string, rest = "") => `/api/setup/${encodeURIComponent(token)}${rest}`;

/** A 410 answer as `SetupLinkGone` (with its `reason`), any other refusal as `ApiError`. */
async function refusal(response: Response): Promise<ApiError> {
  if (response.status !== 410) return toApiError(response);
  const body = (await response
    .clone()
    .json()
    .catch(() => null)) as { reason?: unknown; error?: { reason?: unknown; message?: unknown } } | null;
  const reason = body?.error?.reason ?? body?.reason;
  const known = reason === "expired" || reason === "revoked" || reason === "finished" ? reason : null;
  const message = typeof body?.error?.message === "string" ? body.error.message : "This setup link no longer works.";
  return new SetupLinkGone(message, known);
}

async function setupRequest<T>(token: string, rest: string, method: "GET" | "POST" | "PUT" = "GET", body?: unknown) {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response: Response;
  try {
    response = await fetch(apiUrl(setupPath(token, rest)), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      // Same-origin cookies: the test sign-in's answer sets the SSO state cookie its return checks.
      credentials: "same-origin",
    });
  } catch (error) {
    throw new NetworkError(error instanceof Error ? error.message : "Network request failed");
  }
  if (!response.ok) throw await refusal(response);
  return (await response.json()) as T;
}

export const getSetup = (token: string) => setupRequest<SetupView>(token, "");

export const addSetupDomain = (token: string, domain: string) => setupRequest<TeamDomain>(token, "/domains", "POST", { domain });

export const verifySetupDomain = (token: string, id: string) =>
  setupRequest<TeamDomain>(token, `/domains/${encodeURIComponent(id)}/verify`, "POST");

export const saveSetupSso = (token: string, body: SetupSsoRequest) => setupRequest<SetupView>(token, "/sso", "PUT", body);

/** Where the browser goes for the test sign-in against the draft. */
export const startSetupTest = (token: string, email: string) =>
  setupRequest<{ authorization_url: string }>(token, "/sso/test", "POST", { email });

export const createSetupScimToken = (token: string, name: string) =>
  setupRequest<SetupScimToken>(token, "/scim-tokens", "POST", { name });

export const finishSetup = (token: string) => setupRequest<{ done: SetupStep[] }>(token, "/finish", "POST");
