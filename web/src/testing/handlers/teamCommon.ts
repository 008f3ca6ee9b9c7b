//! What the team handlers share (docs/teams.md "Endpoints"): the caller and their team, the errors
//! every team endpoint may answer, and the seat price the previews use.

import { HttpResponse } from "msw";
import type { InviteRole, TeamPermissions } from "../../lib/api/types";
import { db } from "../db";
import { MAX_SEATS, teamDecisions } from "../teamDecisions";
import type { MemberRow, TeamRow } from "../teamStore";
import { apiError, authenticate } from "./common";

/** The "Unlimited Sales Copilot" price per seat and month, in cents. */
export const SEAT_PRICE_CENTS = 2000;

export const forbiddenRole = () => apiError(403, "forbidden_role", "Your role in the team does not allow this.");
export const teamNotFound = () => apiError(404, "team_not_found", "There is no such team.");
export const invalidRole = () => apiError(400, "invalid_role", "An invitation makes someone an admin or a member.");
export const notVerified = () => apiError(403, "email_not_verified", "Please verify your e-mail address first.");

export const isInviteRole = (role: unknown): role is InviteRole => role === "admin" || role === "member";

/** The team's view for the caller, as `{team}`. */
export const teamBody = (team: TeamRow, userId: string, status = 200) =>
  HttpResponse.json({ team: db.team.view(team, userId) }, { status });

type Caller = { userId: string; email: string; verified: boolean; team: TeamRow; me: MemberRow };

/**
 * The signed-in caller and their team; the 401 when not signed in, `404 team_not_found` when in no
 * team, `403 forbidden_role` when their `Team.may` denies `need`.
 */
export function teamCaller(request: Request, need?: keyof TeamPermissions): { error: Response } | Caller {
  const auth = authenticate(request);
  if ("error" in auth) return { error: auth.error! };
  const { user } = auth.row;
  const me = db.team.membershipOf(user.id);
  const team = me && db.team.teams.get(me.teamId);
  if (!me || !team) return { error: teamNotFound() };
  if (need && !decided({ team, me }).may[need]) return { error: forbiddenRole() };
  return { userId: user.id, email: user.email, verified: Boolean(user.email_confirmed_at), team, me };
}

/** The decisions of the caller's `Team` answer, which the mock's refusals follow. */
export const decided = ({ team, me }: { team: TeamRow; me: MemberRow }) =>
  teamDecisions(me.role, team.subscription?.status ?? null, db.team.seats(team).used);

/** `Seats::check_resize`'s refusals, or null when the team may have `seats`. */
export function resizeProblem(team: TeamRow, seats: unknown) {
  if (typeof seats !== "number" || !Number.isInteger(seats) || seats < 1 || seats > MAX_SEATS)
    return apiError(400, "invalid_seats", `A team has between 1 and ${MAX_SEATS} seats.`);
  const members = db.team.membersOf(team.id).length;
  const { used } = db.team.seats(team);
  if (seats < used)
    return apiError(
      409,
      "seats_in_use",
      `${used} seats are in use (${members} members and ${used - members} pending invites). Remove members or revoke invites first.`,
    );
  return null;
}

/** `team_over_seats` before `seats_taken`, as `Seats::check_invite` decides. */
export function noSeatFor(team: TeamRow) {
  const missing = db.team.seatsMissing(team);
  if (missing > 0)
    return apiError(
      409,
      "team_over_seats",
      `The team has fewer seats than members (${missing} missing). Add seats or remove members before anyone else joins.`,
    );
  return null;
}

export const seatsTaken = (total: number) =>
  apiError(409, "seats_taken", `All ${total} seats are taken. Add seats to invite more people.`);
