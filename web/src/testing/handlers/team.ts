//! The team, its members, seats and checkout (docs/teams.md "Endpoints"). Invitations are in
//! teamInvites.ts.

import { HttpResponse } from "msw";
import { db } from "../db";
import {
  type MockRoute,
  apiError,
  authenticate,
  invalidJson,
  jsonBody,
  origin,
  reauthenticationRequired,
  stringField,
} from "./common";
import {
  SEAT_PRICE_CENTS,
  decided,
  forbiddenRole,
  invalidRole,
  isInviteRole,
  notVerified,
  resizeProblem,
  teamBody,
  teamCaller,
  teamNotFound,
} from "./teamCommon";
import { teamInviteRoutes } from "./teamInvites";

/** The API's answer to a blank name (its other refusals of a name are its own). */
const nameProblem = (name: string) => (name.trim() ? null : apiError(400, "invalid_team_name", "Please enter a team name."));
const noContent = () => new HttpResponse(null, { status: 204 });
const noSubscription = () => apiError(409, "no_team_subscription", "Buy seats for the team first.");
const ACTIVATION_FAILED = "Plan activation failed, but you can contact support.";

const teamRoutes: MockRoute[] = [
  {
    method: "get",
    path: "/api/team",
    resolver: ({ request }) => {
      const auth = authenticate(request);
      if ("error" in auth) return auth.error;
      const team = db.team.teamOf(auth.row.user.id);
      return HttpResponse.json({ team: team ? db.team.view(team, auth.row.user.id) : null });
    },
  },
  {
    method: "post",
    path: "/api/team",
    resolver: async ({ request }) => {
      const auth = authenticate(request);
      if ("error" in auth) return auth.error;
      const body = await jsonBody(request);
      const name = body && stringField(body, "name");
      if (name === null) return invalidJson("Expected a JSON body with name");
      const { user } = auth.row;
      if (!user.email_confirmed_at) return notVerified();
      if (db.team.membershipOf(user.id))
        return apiError(409, "already_in_team", "You are already in a team. Leave it before joining or creating another.");
      const problem = nameProblem(name);
      if (problem) return problem;
      return teamBody(db.team.create(name.trim(), user.id), user.id, 201);
    },
  },
  {
    method: "patch",
    path: "/api/team",
    resolver: async ({ request }) => {
      const caller = teamCaller(request, "rename");
      if ("error" in caller) return caller.error;
      const body = await jsonBody(request);
      const name = body && stringField(body, "name");
      if (name === null) return invalidJson("Expected a JSON body with name");
      const problem = nameProblem(name);
      if (problem) return problem;
      caller.team.name = name.trim();
      return teamBody(caller.team, caller.userId);
    },
  },
  {
    method: "delete",
    path: "/api/team",
    resolver: async ({ request }) => {
      const caller = teamCaller(request, "delete");
      if ("error" in caller) return caller.error;
      const body = await jsonBody(request);
      const password = body && stringField(body, "password");
      if (password === null) return invalidJson("Expected a JSON body with password");
      if (db.findUser(caller.email)!.password !== password) return apiError(400, "invalid_credentials", "Password is incorrect");
      db.team.remove(caller.team.id);
      return noContent();
    },
  },
  {
    method: "post",
    path: "/api/team/transfer",
    resolver: async ({ request }) => {
      const auth = authenticate(request);
      const stale = "error" in auth ? null : reauthenticationRequired(auth.session);
      if (stale) return stale;
      const caller = teamCaller(request, "transfer");
      if ("error" in caller) return caller.error;
      const body = await jsonBody(request);
      const userId = body && stringField(body, "user_id");
      if (userId === null) return invalidJson("Expected a JSON body with user_id");
      // Someone who is not a member is another team's (or nobody's): 404, as for members and invites.
      const target = db.team.membersOf(caller.team.id).find((m) => m.userId === userId);
      if (!target) return teamNotFound();
      if (target.userId === caller.userId)
        return apiError(400, "invalid_transfer", "Ownership goes to another member of the team.");
      target.role = "owner";
      caller.me.role = "admin";
      caller.team.ownerId = target.userId;
      return teamBody(caller.team, caller.userId);
    },
  },
  {
    method: "post",
    path: "/api/team/leave",
    resolver: ({ request }) => {
      const caller = teamCaller(request);
      if ("error" in caller) return caller.error;
      if (!decided(caller).may.leave)
        return apiError(400, "owner_cannot_leave", "The owner cannot leave the team. Transfer it to another member first.");
      db.team.members = db.team.members.filter((m) => m !== caller.me);
      return noContent();
    },
  },
  {
    method: "delete",
    path: "/api/team/members/{user_id}",
    resolver: ({ request, params }) => {
      const caller = teamCaller(request);
      if ("error" in caller) return caller.error;
      const target = db.team.membersOf(caller.team.id).find((m) => m.userId === params.user_id);
      if (!target) return teamNotFound();
      if (!decided(caller).mayRemove(target.role)) return forbiddenRole();
      db.team.members = db.team.members.filter((m) => m !== target);
      return noContent();
    },
  },
  {
    method: "put",
    path: "/api/team/members/{user_id}/role",
    resolver: async ({ request, params }) => {
      const caller = teamCaller(request);
      if ("error" in caller) return caller.error;
      const body = await jsonBody(request);
      const role = body && stringField(body, "role");
      if (role === null) return invalidJson("Expected a JSON body with role");
      const target = db.team.membersOf(caller.team.id).find((m) => m.userId === params.user_id);
      if (!target) return teamNotFound();
      if (!isInviteRole(role)) return invalidRole();
      if (!decided(caller).mayChangeRole(target.role)) return forbiddenRole();
      target.role = role;
      return teamBody(caller.team, caller.userId);
    },
  },
  {
    method: "post",
    path: "/api/team/checkout",
    resolver: async ({ request }) => {
      const caller = teamCaller(request, "manage_billing");
      if ("error" in caller) return caller.error;
      const body = await jsonBody(request);
      const successUrl = body && stringField(body, "success_url");
      const cancelUrl = body && stringField(body, "cancel_url");
      if (!body || successUrl === null || cancelUrl === null)
        return invalidJson("Expected a JSON body with seats, success_url and cancel_url");
      if (!caller.verified) return apiError(403, "email_not_verified", "Please verify your email address before subscribing");
      // In the API's order: the return addresses, then whether a checkout may start, then seats.
      const own = origin(request);
      if (![successUrl, cancelUrl].every((url) => url.startsWith(`${own}/`)))
        return apiError(400, "invalid_redirect_url", "The return addresses must be pages of this site");
      if (!decided(caller).may.buy_seats)
        return apiError(409, "team_already_subscribed", "The team already has a subscription. Change its seats instead.");
      const seats = body.seats;
      const { min, max } = decided(caller).range;
      if (typeof seats !== "number" || !Number.isInteger(seats) || seats < min || seats > max)
        return apiError(400, "invalid_seats", `Choose between ${min} and ${max} seats: everyone in the team needs one.`);
      // Fewer seats than the team had hold from the checkout on (billing/team_checkout.rs).
      if (seats < caller.team.seats) caller.team.seats = seats;
      // No hosted checkout here: the mock session counts as paid and the browser goes straight back.
      db.team.customerOf(caller.team);
      const id = db.id("cs_test");
      db.team.checkouts.set(id, { id, teamId: caller.team.id, seats, paid: true });
      return HttpResponse.json({ url: successUrl.replace("{CHECKOUT_SESSION_ID}", id) });
    },
  },
  {
    method: "post",
    path: "/api/team/checkout/confirm",
    resolver: async ({ request }) => {
      const auth = authenticate(request);
      if ("error" in auth) return auth.error;
      const body = await jsonBody(request);
      const sessionId = body && stringField(body, "session_id");
      if (sessionId === null) return invalidJson("Expected a JSON body with session_id");
      const row = db.team.checkouts.get(sessionId);
      if (!row) return apiError(404, "session_not_found", ACTIVATION_FAILED);
      const team = db.team.teamOf(auth.row.user.id);
      if (!team || team.id !== row.teamId) return apiError(403, "session_not_yours", ACTIVATION_FAILED);
      if (!row.paid) return apiError(409, "session_not_paid", ACTIVATION_FAILED);
      if (!db.team.paid(team)) db.team.subscribe(team, row.seats);
      return teamBody(team, auth.row.user.id);
    },
  },
  {
    method: "get",
    path: "/api/team/seats/preview",
    resolver: ({ request }) => {
      const caller = teamCaller(request, "manage_billing");
      if ("error" in caller) return caller.error;
      const { team } = caller;
      if (!team.subscription || !decided(caller).may.change_seats) return noSubscription();
      const raw = new URL(request.url).searchParams.get("seats");
      const seats = raw !== null && /^\d+$/.test(raw) ? Number(raw) : NaN;
      const problem = resizeProblem(team, seats);
      if (problem) return problem;
      const now = Math.floor(db.now() / 1000);
      const end = team.subscription.current_period_end ?? now + 30 * 86_400;
      const left = Math.max(0, Math.min(1, (end - now) / (30 * 86_400)));
      return HttpResponse.json({
        seats,
        amount_due_now: Math.round((seats - team.seats) * SEAT_PRICE_CENTS * left),
        next_total: seats * SEAT_PRICE_CENTS,
        currency: "usd",
        proration_date: now,
      });
    },
  },
  {
    method: "put",
    path: "/api/team/seats",
    resolver: async ({ request }) => {
      const caller = teamCaller(request, "manage_billing");
      if ("error" in caller) return caller.error;
      const body = await jsonBody(request);
      if (!body) return invalidJson("Expected a JSON body with seats");
      if (!decided(caller).may.change_seats) return noSubscription();
      const problem = resizeProblem(caller.team, body.seats);
      if (problem) return problem;
      caller.team.seats = body.seats as number;
      return teamBody(caller.team, caller.userId);
    },
  },
  {
    method: "post",
    path: "/api/team/billing/portal",
    resolver: async ({ request }) => {
      const caller = teamCaller(request, "manage_billing");
      if ("error" in caller) return caller.error;
      // The body may be empty; `return_url` defaults to /team and must be on this site.
      const text = await request.text();
      let body: unknown = {};
      try {
        body = text.trim() ? JSON.parse(text) : {};
      } catch {
        return invalidJson("Invalid request: expected JSON");
      }
      const given = body && typeof body === "object" ? (body as Record<string, unknown>).return_url : undefined;
      const own = origin(request);
      const returnUrl = typeof given === "string" ? given : `${own}/team`;
      if (returnUrl !== own && !returnUrl.startsWith(`${own}/`))
        return apiError(400, "invalid_redirect_url", "The return addresses must be pages of this site");
      if (!caller.team.customerId) return apiError(404, "no_customer", "The team has no billing account yet. Buy seats first.");
      if (db.team.portalDown) return apiError(502, "portal_failed", "Could not open the billing portal. Please try again.");
      // No hosted portal here: the browser goes straight back.
      return HttpResponse.json({ url: returnUrl });
    },
  },
];

export const allTeamRoutes: MockRoute[] = [...teamRoutes, ...teamInviteRoutes];
