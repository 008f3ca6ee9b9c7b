//! Sales teams (docs/teams.md "Endpoints"): the caller's team, members, invitations, seats and the
//! team's checkout, and domain join. Every call but the invitation lookup carries the bearer token.

import { apiRequest } from "./client";
import type {
  BillingInterval,
  CancellationReason,
  IntervalPreview,
  InviteLookup,
  InviteRole,
  InviteToMe,
  JoinableTeam,
  JoinRequest,
  ScimToken,
  ScimTokenCreated,
  SeatsPreview,
  Team,
  TeamCheckoutAnswer,
  TeamInvitesPage,
  TeamMembersPage,
  TeamPolicy,
  TeamPolicyAnswer,
  TeamDomain,
} from "./types";

type TeamBody = { team: Team };

export function getTeam() {
  return apiRequest<{ team: Team | null }>("/api/team", { auth: true });
}

/** `?cursor=&limit=`: the page after `cursor` (null: the first); the API's default is 100 rows. */
function pageQuery(cursor: string | null, limit?: number) {
  const params = new URLSearchParams();
  if (cursor) params.set("cursor", cursor);
  if (limit) params.set("limit", String(limit));
  const qs = params.toString();
  return qs ? `?${qs}` : "";
}

/** The team's members a page at a time, in the order they joined (the owner first). */
export function getTeamMembers(cursor: string | null, limit?: number) {
  return apiRequest<TeamMembersPage>(`/api/team/members${pageQuery(cursor, limit)}`, { auth: true });
}

/** The team's open invitations a page at a time, oldest first (the owner's and admins'). */
export function getTeamInvites(cursor: string | null, limit?: number) {
  return apiRequest<TeamInvitesPage>(`/api/team/invites${pageQuery(cursor, limit)}`, { auth: true });
}

export function createTeam(name: string) {
  return apiRequest<TeamBody>("/api/team", { method: "POST", body: { name }, auth: true });
}

export function renameTeam(name: string) {
  return apiRequest<TeamBody>("/api/team", { method: "PATCH", body: { name }, auth: true });
}

export function deleteTeam(password: string) {
  return apiRequest<void>("/api/team", { method: "DELETE", body: { password }, auth: true });
}

export function transferTeam(userId: string) {
  return apiRequest<TeamBody>("/api/team/transfer", { method: "POST", body: { user_id: userId }, auth: true });
}

export function leaveTeam() {
  return apiRequest<void>("/api/team/leave", { method: "POST", auth: true });
}

export function inviteToTeam(email: string, role: InviteRole) {
  return apiRequest<Record<string, never>>("/api/team/invites", { method: "POST", body: { email, role }, auth: true });
}

export function resendInvite(id: string) {
  return apiRequest<Record<string, never>>(`/api/team/invites/${encodeURIComponent(id)}/resend`, { method: "POST", auth: true });
}

export function revokeInvite(id: string) {
  return apiRequest<void>(`/api/team/invites/${encodeURIComponent(id)}`, { method: "DELETE", auth: true });
}

/** No auth: the invitation page shows it to signed-out visitors too. */
export function lookupInvite(token: string) {
  return apiRequest<InviteLookup>("/api/team/invites/lookup", { method: "POST", body: { token } });
}

export function acceptInvite(token: string) {
  return apiRequest<TeamBody>("/api/team/invites/accept", { method: "POST", body: { token }, auth: true });
}

export function declineInvite(token: string) {
  return apiRequest<void>("/api/team/invites/decline", { method: "POST", body: { token }, auth: true });
}

export function removeMember(userId: string) {
  return apiRequest<void>(`/api/team/members/${encodeURIComponent(userId)}`, { method: "DELETE", auth: true });
}

export function setMemberRole(userId: string, role: InviteRole) {
  return apiRequest<TeamBody>(`/api/team/members/${encodeURIComponent(userId)}/role`, {
    method: "PUT",
    body: { role },
    auth: true,
  });
}

export function previewSeats(seats: number) {
  return apiRequest<SeatsPreview>(`/api/team/seats/preview?seats=${seats}`, { auth: true });
}

export function changeSeats(seats: number, prorationDate: number) {
  return apiRequest<TeamBody>("/api/team/seats", {
    method: "PUT",
    body: { seats, proration_date: prorationDate },
    auth: true,
  });
}

/** What switching the team's subscription to `interval` would cost now (the owner's). */
export function previewTeamInterval(interval: BillingInterval) {
  return apiRequest<IntervalPreview>(`/api/team/billing/interval/preview?interval=${interval}`, { auth: true });
}

export function changeTeamInterval(interval: BillingInterval, prorationDate: number) {
  return apiRequest<TeamBody>("/api/team/billing/interval", {
    method: "PUT",
    body: { interval, proration_date: prorationDate },
    auth: true,
  });
}

/** The team's plan set to end at its period's end, with the reason given (the owner's). */
export function cancelTeamPlan(reason: CancellationReason | null) {
  return apiRequest<TeamBody>("/api/team/billing/cancel", { method: "POST", body: { reason }, auth: true });
}

export function resumeTeamPlan() {
  return apiRequest<TeamBody>("/api/team/billing/resume", { method: "POST", auth: true });
}

/**
 * Buys seats: Stripe's checkout (`url`), with a free trial when `trial`; or paid by invoice
 * (`collection: "invoice"`, no checkout): the seats are active at once and `invoice` is the one sent.
 */
export function startTeamCheckout(body: {
  seats: number;
  interval?: BillingInterval;
  success_url?: string;
  cancel_url?: string;
  trial?: boolean;
  collection?: "card" | "invoice";
}) {
  return apiRequest<TeamCheckoutAnswer>("/api/team/checkout", { method: "POST", body, auth: true });
}

export function confirmTeamCheckout(sessionId: string) {
  return apiRequest<TeamBody>("/api/team/checkout/confirm", { method: "POST", body: { session_id: sessionId }, auth: true });
}

/** Domain join on for `domain` (the owner's own verified company domain), or off with null. */
export function setDomainJoin(domain: string | null) {
  return apiRequest<TeamBody>("/api/team/domain-join", { method: "PUT", body: { domain }, auth: true });
}

export function getJoinableTeams() {
  return apiRequest<{ teams: JoinableTeam[] }>("/api/team/joinable", { auth: true });
}

export function requestToJoin(teamId: string) {
  return apiRequest<Record<string, never>>("/api/team/join-requests", { method: "POST", body: { team_id: teamId }, auth: true });
}

export function getJoinRequests() {
  return apiRequest<{ requests: JoinRequest[] }>("/api/team/join-requests", { auth: true });
}

export function decideJoinRequest(id: string, decision: "approve" | "deny") {
  return apiRequest<void>(`/api/team/join-requests/${encodeURIComponent(id)}/${decision}`, { method: "POST", auth: true });
}

/** The team's Stripe billing portal (the owner's): card, invoices, cancelling; back to `returnUrl`. */
export function openTeamBillingPortal(returnUrl: string) {
  return apiRequest<{ url: string }>("/api/team/billing/portal", {
    method: "POST",
    body: { return_url: returnUrl },
    auth: true,
  });
}

/** The owner requires (or stops requiring) a second factor of every member. */
export function setMfaPolicy(required: boolean) {
  return apiRequest<{ required: boolean }>("/api/team/mfa-policy", { method: "PUT", body: { required }, auth: true });
}

/** `GET /api/team/policy` (owner and admins): the policy, its version and the devices on it. */
export function getTeamPolicy() {
  return apiRequest<TeamPolicyAnswer>("/api/team/policy", { auth: true });
}

/** `PUT /api/team/policy`: the whole policy; a wrong field is `400 invalid_policy` naming it. */
export function putTeamPolicy(policy: TeamPolicy) {
  return apiRequest<TeamPolicyAnswer>("/api/team/policy", { method: "PUT", body: policy, auth: true });
}

/** The team's verified company domains (the owner's; docs/api.md "Verified domains"). */
export function listDomains() {
  return apiRequest<{ domains: TeamDomain[] }>("/api/team/domains", { auth: true });
}

export function addDomain(domain: string) {
  return apiRequest<TeamDomain>("/api/team/domains", { method: "POST", body: { domain }, auth: true });
}

export function verifyDomain(id: string) {
  return apiRequest<TeamDomain>(`/api/team/domains/${encodeURIComponent(id)}/verify`, { method: "POST", auth: true });
}

export function removeDomain(id: string) {
  return apiRequest<void>(`/api/team/domains/${encodeURIComponent(id)}`, { method: "DELETE", auth: true });
}

/** The team's SCIM tokens (the owner's): a new one's secret is in this answer only. */
export function createScimToken(name: string) {
  return apiRequest<ScimTokenCreated>("/api/team/scim/tokens", { method: "POST", body: { name }, auth: true });
}

export function getScimTokens() {
  return apiRequest<{ tokens: ScimToken[] }>("/api/team/scim/tokens", { auth: true });
}

export function revokeScimToken(id: string) {
  return apiRequest<void>(`/api/team/scim/tokens/${encodeURIComponent(id)}`, { method: "DELETE", auth: true });
}

/** The open invitations to the caller's (verified) address, oldest first: their /team before they join. */
export function getInvitesToMe() {
  return apiRequest<{ invites: InviteToMe[] }>("/api/team/invites/mine", { auth: true });
}

/** Joins the team of one of those invitations, as its mail's link would. */
export function acceptInviteToMe(id: string) {
  return apiRequest<TeamBody>(`/api/team/invites/${encodeURIComponent(id)}/accept`, { method: "POST", auth: true });
}
