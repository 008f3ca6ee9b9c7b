//! The team rules the screens need, mirroring `crates/domain/src/teams.rs` (`may`, `may_remove`,
//! `may_set_role`, the seat range, the team name) and `crates/domain/src/team_billing.rs`
//! (`may_start_checkout`, `has_live_subscription`). The API decides; these only choose what to offer.
//! Which domain domain join may be turned on for is the server's alone (its list of several thousand
//! public mail providers is not shipped here): the screen renders `Team.domain_join_offer`.

import type { InviteRole, TeamRole, TeamSubscription } from "../api/types";

export type TeamAction =
  | "rename"
  | "manageBilling"
  | "buySeats"
  | "previewSeats"
  | "transfer"
  | "delete"
  | "invite"
  | "resendInvite"
  | "revokeInvite"
  | "changeSeats"
  | "leave"
  | "approveJoin"
  | "configureDomainJoin";

/** `teams::may`: what a role may do to its own team. */
export function mayDo(role: TeamRole, action: TeamAction): boolean {
  switch (action) {
    case "leave":
      return role !== "owner";
    case "invite":
    case "resendInvite":
    case "revokeInvite":
    case "approveJoin":
      return role !== "member";
    // The card on file is the owner's: what charges it or opens the team's billing is theirs.
    case "buySeats":
    case "previewSeats":
    case "changeSeats":
    case "manageBilling":
    case "rename":
    case "transfer":
    case "delete":
    case "configureDomainJoin":
      return role === "owner";
  }
}

/** `teams::may_remove`: the owner removes anyone but themself; admins remove members only. */
export function mayRemove(actor: TeamRole, target: TeamRole): boolean {
  if (actor === "owner") return target !== "owner";
  if (actor === "admin") return target === "member";
  return false;
}

/** `teams::may_set_role`: only the owner changes roles, between member and admin. */
export function maySetRole(actor: TeamRole, target: TeamRole): boolean {
  return actor === "owner" && target !== "owner";
}

/** `teams::may_invite_as`: owner and admins invite members; only the owner invites admins. */
export function mayInviteAs(actor: TeamRole, role: InviteRole): boolean {
  return mayDo(actor, "invite") && (role === "member" || maySetRole(actor, "member"));
}

/** Who may buy or change the team's seats (docs/teams.md, "Who pays"): the owner alone. */
export const mayBuySeats = (role: TeamRole) => mayDo(role, "buySeats");

type TeamStatus = TeamSubscription["status"];

/** `SubscriptionStatus::is_terminal`: the subscription has ended for good. */
const isTerminal = (status: TeamStatus) => status === "canceled" || status === "incomplete_expired";

/**
 * `team_billing::may_start_checkout`: buying seats (a new subscription) only without one, after it
 * ended, or after an abandoned first payment (`incomplete`); otherwise the API answers `409
 * team_already_subscribed` and the seats change on the subscription the team has.
 */
export function mayStartCheckout(status: TeamStatus | null | undefined): boolean {
  return !status || isTerminal(status) || status === "incomplete";
}

/** `team_billing::has_live_subscription`: a subscription that has not ended, whose seats can change. */
export function hasLiveSubscription(status: TeamStatus | null | undefined): boolean {
  return status !== null && status !== undefined && !isTerminal(status);
}

/** The team's last payment failed: its subscription is past due, unpaid or paused. */
export function teamPaymentFailed(status: TeamStatus | null | undefined): boolean {
  return status === "past_due" || status === "unpaid" || status === "paused";
}

/** `teams::MAX_SEATS`. */
export const MAX_SEATS = 1000;

/** `teams::TEAM_NAME_MAX_CHARS`. */
export const TEAM_NAME_MAX_CHARS = 80;

export const ROLE_NAMES: Record<TeamRole, string> = { owner: "Owner", admin: "Admin", member: "Member" };
export const INVITE_ROLES: InviteRole[] = ["member", "admin"];

/** "an admin" / "a member" / "the owner", for sentences. */
export function roleWithArticle(role: TeamRole): string {
  return role === "owner" ? "the owner" : role === "admin" ? "an admin" : "a member";
}

/** `teams::team_name`: trimmed, 1 to 80 characters, no control characters; the message or null. */
export function teamNameProblem(input: string): string | null {
  const name = input.trim();
  if (!name) return "Please enter a team name.";
  // eslint-disable-next-line no-control-regex -- refusing control characters is the rule
  if ([...name].length > TEAM_NAME_MAX_CHARS || /[\u0000-\u001f\u007f-\u009f]/.test(name))
    return "A team name is at most 80 characters, without control characters.";
  return null;
}

/** A seat count the API can accept for `used` seats in use, or the message why not. */
export function seatsProblem(seats: number, used: number): string | null {
  if (!Number.isInteger(seats) || seats < 1 || seats > MAX_SEATS) return `A team has between 1 and ${MAX_SEATS} seats.`;
  if (seats < used) return `${used} seats are in use. Remove members or revoke invites first.`;
  return null;
}

/** Where Stripe sends the browser back after the team's checkout. */
export function teamCheckoutUrls(origin: string): { success_url: string; cancel_url: string } {
  return {
    success_url: `${origin}/team?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: `${origin}/team`,
  };
}

/** Cents as money: 4000 usd → "$40.00", -667 → "-$6.67". */
export function formatMoney(cents: number, currency: string): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency: currency.toUpperCase() }).format(cents / 100);
}

/** The dashboard's plan name for a seat in a paid team. */
export const teamPlanName = (teamName: string) => `Pro through ${teamName}`;
