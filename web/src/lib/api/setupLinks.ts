//! The setup link for IT (docs/api.md "Setup links"): the owner creates, lists and revokes links on
//! `/team`; the link's own page (`/setup/{token}`, no account: the token is the credential) verifies
//! the company domain, saves and tests single sign-on, creates a SCIM token and finishes. Types from
//! the document (gen).

import { ApiError, apiRequest, apiUrl, NetworkError, toApiError } from "./client";
import type { components } from "./gen";
import type { TeamDomain } from "./types";

type Schemas = components["schemas"];

export type SetupStep = Schemas["SetupStep"];
/** The steps in the order the page takes them (and the server stores them). */
export const SETUP_STEPS: readonly SetupStep[] = ["domain", "sso", "scim"];

/** One of the team's links, without its token or URL: its state and the steps IT did through it. */
export type SetupLink = Schemas["SetupLink"];
/** `POST /api/team/setup-links`: the URL is in this answer only. */
export type SetupLinkCreated = Schemas["SetupLinkCreated"];
/** The SSO settings saved as the link's draft until a test sign-in passes. */
export type SetupSsoDraft = Schemas["SetupSsoDraft"];
export type SetupSsoTest = Schemas["SetupSsoTest"];
/** `GET /api/setup/{token}`: what the link's page shows. */
export type SetupView = Schemas["SetupPage"];
/** `PUT /api/setup/{token}/sso`: the owner's SSO request without `required`. */
export type SetupSsoRequest = Schemas["SetupSsoRequest"];
/** `POST /api/setup/{token}/scim-tokens`: the token is in this answer only. */
export type SetupScimToken = Schemas["SetupScimTokenCreated"];

/** Why a link answers 410: its 24 hours are over, the owner revoked it, or IT finished with it. */
export type GoneReason = Schemas["SetupLinkGoneReason"];

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
  return apiRequest<Schemas["SetupLinkList"]>("/api/team/setup-links", { auth: true });
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
  // `reason` sits beside `error` (the document's `SetupLinkGone`).
  const body = (await response
    .clone()
    .json()
    .catch(() => null)) as { reason?: unknown; error?: { message?: unknown } } | null;
  const reason = body?.reason;
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
  setupRequest<Schemas["SetupSsoTestStarted"]>(token, "/sso/test", "POST", { email });

export const createSetupScimToken = (token: string, name: string) =>
  setupRequest<SetupScimToken>(token, "/scim-tokens", "POST", { name });

export const finishSetup = (token: string) => setupRequest<Schemas["SetupFinished"]>(token, "/finish", "POST");
