//! How the team screens put things into words. Which actions a caller is offered, whom they may
//! remove or give another role, the seats form and its range, a failed payment, the domain domain
//! join may be turned on for: the API decides each (`Team.may`, `TeamMember.may_remove`,
//! `Team.seat_range`, `Team.payment_failed`, `Team.domain_join_offer`); nothing here repeats
//! a rule of the server's.

import type { Team, TeamRole } from "../api/types";
import { PLAN_NAMES } from "../billing/rules";

export const ROLE_NAMES: Record<TeamRole, string> = { owner: "Owner", admin: "Admin", member: "Member" };

/** The roles a role select lists (the API answers which members the caller may give another role). */
export const ROLE_CHOICES = ["member", "admin"] as const;

/** "an admin" / "a member" / "the owner", for sentences. */
export function roleWithArticle(role: TeamRole): string {
  return role === "owner" ? "the owner" : role === "admin" ? "an admin" : "a member";
}

/** The message for a seat count outside the range the API answered (`Team.seat_range`), or null. */
export function seatsProblem(count: number, team: Pick<Team, "seats" | "seat_range">): string | null {
  const { min, max } = team.seat_range;
  if (!Number.isInteger(count) || count < 1 || count > max) return `A team has between 1 and ${max} seats.`;
  if (count < min) return `${team.seats.used} seats are in use. Remove members or revoke invites first.`;
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

/** An amount due: a negative one is a credit, said as one ("credit of $40.00"), never "-$40.00". */
export function moneyDue(cents: number, currency: string): string {
  return cents < 0 ? `credit of ${formatMoney(-cents, currency)}` : formatMoney(cents, currency);
}

/** "1 member", "3 members": a count with its noun, plural but for one. */
export const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

/** What reclaiming does, in the same numbers as its dialog: the idle members removed, the unused seats
 * dropped with them (named, never silently), the seats before and after, and the saving a month. */
export function reclaimSummary(
  offer: { idle_members: number; seats: number; seats_freed: number; monthly_saving: number; currency: string },
  totalSeats: number,
): string {
  const unused = Math.max(0, offer.seats_freed - offer.idle_members);
  const what = count(offer.idle_members, "idle member") + (unused > 0 ? ` and ${count(unused, "unused seat")}` : "");
  const saving = formatMoney(offer.monthly_saving, offer.currency);
  return `Reclaiming removes ${what}: ${totalSeats} seats become ${offer.seats}, saving ${saving} a month.`;
}

/** The seats line of the team's summary: before the first purchase there are none to count. */
export function seatsLine(seats: Team["seats"]): string {
  return seats.total === 0 ? "No seats yet: buy seats to give the team the paid plan" : `${seats.used} of ${seats.total} used`;
}

/** The dashboard's plan name for a seat in a paid team: the paid plan's name (the spec's), through the team. */
export const teamPlanName = (teamName: string) => `${PLAN_NAMES.monthly} through ${teamName}`;

/** "December 13, 2026" from Unix seconds, as the team page writes dates. */
export function longDate(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric" });
}
