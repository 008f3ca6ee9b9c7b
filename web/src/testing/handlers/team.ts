//! The team, its members, seats and checkout (docs/teams.md "Endpoints"): the state changes each
//! endpoint makes. Refusals come from the team's fixture (`Team.may`, members' `may_remove` and
//! `may_change_role`) or from the state (no such member, session); the rest a test sets (`refuse`).

import { db } from "../db";
import { CANCELLATION_REASONS } from "./billing";
import { type MockRoute, apiError, invalidCredentials, origin, readBody, reauthenticationRequired, signedIn } from "./common";
import { alreadyInTeam, forbiddenRole, json, noContent, steppedUp, teamBody, teamNotFound, teamRoute } from "./teamCommon";

/** The "Unlimited Sales Copilot" price per seat and month, in cents: a preview charges whole months. */
const SEAT_PRICE_CENTS = 2000;
const FAILED = "Plan activation failed, but you can contact support.";
const memberOf = (teamId: string, userId: unknown) => db.team.membersOf(teamId).find((m) => m.userId === userId);

export const teamRoutes: MockRoute[] = [
  signedIn("get", "/api/team", ({ user }) => {
    const team = db.team.teamOf(user.id);
    return team ? teamBody(team, user.id) : json({ team: null });
  }),
  signedIn("post", "/api/team", async ({ user }, { request }) => {
    if (db.team.membershipOf(user.id)) return alreadyInTeam();
    return teamBody(db.team.create((await readBody<"TeamNameBody">(request)).name.trim(), user.id), user.id, 201);
  }),
  teamRoute("patch", "/api/team", "rename", async ({ team, userId }, request) => {
    team.name = (await readBody<"TeamNameBody">(request)).name.trim();
    return teamBody(team, userId);
  }),
  teamRoute("delete", "/api/team", "delete", async ({ team, email }, request) => {
    if (db.findUser(email)!.password !== (await readBody<"TeamDeleteBody">(request)).password) return invalidCredentials();
    db.team.remove(team.id);
    return noContent();
  }),
  teamRoute("post", "/api/team/transfer", "transfer", async ({ team, me, userId, session }, request) => {
    const stale = reauthenticationRequired(session);
    if (stale) return stale;
    const target = memberOf(team.id, (await readBody<"TransferBody">(request)).user_id);
    if (!target) return teamNotFound();
    [target.role, me.role, team.ownerId] = ["owner", "admin", target.userId];
    return teamBody(team, userId);
  }),
  teamRoute("post", "/api/team/leave", null, ({ me, decided }) => {
    if (!decided.may.leave)
      return apiError(400, "owner_cannot_leave", "The owner cannot leave the team. Transfer it to another member first.");
    db.team.members = db.team.members.filter((m) => m !== me);
    return noContent();
  }),
  teamRoute("delete", "/api/team/members/{user_id}", null, ({ team, decided }, _request, params) => {
    const target = memberOf(team.id, params.user_id);
    if (!target) return teamNotFound();
    if (!decided.members.find((m) => m.user_id === target.userId)!.may_remove) return forbiddenRole();
    db.team.members = db.team.members.filter((m) => m !== target);
    return noContent();
  }),
  teamRoute("put", "/api/team/members/{user_id}/role", null, async ({ team, userId, decided }, request, params) => {
    const target = memberOf(team.id, params.user_id);
    if (!target) return teamNotFound();
    if (!decided.members.find((m) => m.user_id === target.userId)!.may_change_role) return forbiddenRole();
    target.role = (await readBody<"TeamRoleBody">(request)).role;
    return teamBody(team, userId);
  }),
  teamRoute("post", "/api/team/checkout", "manage_billing", async ({ team, decided }, request) => {
    const { seats, success_url, interval, trial, collection } = await readBody<"TeamCheckoutBody">(request);
    if (!decided.may.buy_seats)
      return apiError(409, "team_already_subscribed", "The team already has a subscription. Change its seats instead.");
    if (trial && !decided.may.start_trial)
      return apiError(409, "trial_already_used", "Your team has already had its free trial. Buy seats to keep going.");
    if (collection === "invoice") {
      if (trial) return apiError(422, "trial_needs_card", "A free trial is paid by card. Pay by invoice without a trial.");
      if (interval !== "year" || seats < 10)
        return apiError(422, "invoice_not_allowed", "Paying by invoice needs at least 10 seats, billed yearly.");
      // No checkout: the seats are active at once and the invoice is sent.
      db.team.subscribe(team, seats, "active", 365);
      const due_date = Math.floor(db.now() / 1000) + 30 * 24 * 3600;
      const id = db.id("in");
      const url = `https://invoice.stripe.test/i/${id}`;
      const invoice = { id, number: "CW-000001", url, amount_due: seats * 20000, currency: "usd", due_date };
      return json({ url, collection: "invoice", seats_active: true, invoice });
    }
    // No hosted checkout here: the mock session counts as paid and the browser goes straight back.
    const id = db.id("cs_test");
    db.team.checkouts.set(id, { id, teamId: team.id, seats, paid: true, trial: Boolean(trial) });
    const url = (success_url ?? "").replace("{CHECKOUT_SESSION_ID}", id);
    return json({ url, collection: "card", seats_active: false, invoice: null });
  }),
  signedIn("post", "/api/team/checkout/confirm", async ({ user }, { request }) => {
    const row = db.team.checkouts.get((await readBody<"TeamConfirmBody">(request)).session_id);
    if (!row) return apiError(404, "session_not_found", FAILED);
    const team = db.team.teamOf(user.id);
    if (team?.id !== row.teamId) return apiError(403, "session_not_yours", FAILED);
    if (!row.paid) return apiError(409, "session_not_paid", FAILED);
    if (!["active", "trialing"].includes(team.subscription?.status ?? ""))
      db.team.subscribe(team, row.seats, row.trial ? "trialing" : "active", row.trial ? 14 : 30);
    return teamBody(team, user.id);
  }),
  teamRoute("get", "/api/team/seats/preview", "change_seats", ({ team }, request) => {
    const seats = Number(new URL(request.url).searchParams.get("seats"));
    const [amount_due_now, next_total] = [(seats - team.seats) * SEAT_PRICE_CENTS, seats * SEAT_PRICE_CENTS];
    const proration_date = Math.floor(db.now() / 1000);
    (team.quotes ??= {})[proration_date] = db.now();
    return json({ seats, amount_due_now, next_total, currency: "usd", proration_date });
  }),
  teamRoute("put", "/api/team/seats", "change_seats", async ({ team, userId }, request) => {
    const { seats, proration_date } = await readBody<"TeamSeatsBody">(request);
    // As the server: only a date a preview of this team issued in the last ten minutes.
    const issued = proration_date == null ? undefined : team.quotes?.[proration_date];
    if (proration_date != null && (issued === undefined || db.now() - issued > 10 * 60_000)) {
      return apiError(400, "invalid_proration_date", "The preview is out of date. Preview the change again.");
    }
    team.seats = seats;
    return teamBody(team, userId);
  }),
  teamRoute(
    "put",
    "/api/team/mfa-policy",
    "require_mfa",
    steppedUp(async ({ team }, request) => {
      team.requireMfa = (await readBody<"MfaPolicy">(request)).required;
      return json({ required: team.requireMfa });
    }),
  ),
  teamRoute("post", "/api/team/billing/cancel", "manage_billing", async ({ team, userId }, request) => {
    const { reason } = await readBody<"CancelBody">(request);
    if (reason && !CANCELLATION_REASONS.some((r) => r.reason === reason))
      return apiError(400, "invalid_reason", "Choose a reason from the list, or none.");
    const sub = team.subscription;
    if (!sub || sub.status === "canceled") return apiError(409, "nothing_to_cancel", "You have no plan to cancel.");
    if (sub.cancel_at_period_end)
      return apiError(409, "already_cancelling", "Your plan is already set to end. Resume it to keep it.");
    team.subscription = { ...sub, cancel_at_period_end: true, cancellation_reason: reason ?? null };
    return teamBody(team, userId);
  }),
  teamRoute("post", "/api/team/billing/resume", "manage_billing", ({ team, userId }) => {
    const sub = team.subscription;
    if (!sub?.cancel_at_period_end)
      return apiError(409, "nothing_to_resume", "Your plan is not set to end: there is nothing to resume.");
    team.subscription = { ...sub, cancel_at_period_end: false, cancellation_reason: null };
    return teamBody(team, userId);
  }),
  teamRoute("post", "/api/team/billing/portal", "manage_billing", async ({ team }, request) => {
    if (!team.customerId) return apiError(404, "no_customer", "The team has no billing account yet. Buy seats first.");
    if (db.team.portalDown) return apiError(502, "portal_failed", "Could not open the billing portal. Please try again.");
    // No hosted portal here: the browser goes straight back.
    return json({ url: (await readBody<"PortalBody">(request)).return_url ?? `${origin(request)}/team` });
  }),
];
