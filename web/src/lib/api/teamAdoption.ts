//! The team's adoption report, reclaiming seats and its activity (docs/api.md "Team adoption and activity"):
//! the owner's and admins' views, and the CSV / JSON-lines exports as downloads.

import { apiRequest, apiUrl, ApiError, toApiError } from "./client";
import type { components } from "./gen";

type Schemas = components["schemas"];
export type Adoption = Schemas["AdoptionAnswer"];
export type AdoptionMember = Schemas["AdoptionMember"];
export type ReclaimAnswer = Schemas["TeamReclaimAnswer"];
export type AuditPage = Schemas["TeamAuditAnswer"];
export type AuditEntry = Schemas["TeamAuditEntry"];

/** A page of the adoption report (members in the order they joined; totals the whole team's). */
export function getTeamAdoption(query: { month?: string; cursor?: string | null; limit?: number } = {}) {
  const params = new URLSearchParams();
  if (query.month) params.set("month", query.month);
  if (query.cursor) params.set("cursor", query.cursor);
  if (query.limit) params.set("limit", String(query.limit));
  const qs = params.toString();
  return apiRequest<Adoption>(`/api/team/adoption${qs ? `?${qs}` : ""}`, { auth: true });
}

export function reclaimSeats(body: { user_ids: string[]; seats: number; dry_run?: boolean; proration_date?: number }) {
  return apiRequest<ReclaimAnswer>("/api/team/reclaim", { method: "POST", body, auth: true });
}

export function getTeamAudit(query: { cursor?: string | null; limit?: number; action?: string }) {
  const params = new URLSearchParams();
  if (query.cursor) params.set("cursor", query.cursor);
  if (query.limit) params.set("limit", String(query.limit));
  if (query.action) params.set("action", query.action);
  const qs = params.toString();
  return apiRequest<AuditPage>(`/api/team/audit${qs ? `?${qs}` : ""}`, { auth: true });
}

/** Fetches an export with the bearer `token` and saves it as `filename`. */
export async function downloadExport(path: string, filename: string, token: string | null) {
  if (!token) throw new ApiError(401, "not_signed_in", "Please sign in to continue");
  const response = await fetch(apiUrl(path), { headers: { Authorization: `Bearer ${token}` } });
  if (!response.ok) throw await toApiError(response);
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  a.click();
  URL.revokeObjectURL(url);
}
