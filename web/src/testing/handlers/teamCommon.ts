//! What the team handlers share (docs/teams.md "Endpoints"): the caller and their team, and the
//! answers every team endpoint may give. `Team.may` is the team's fixture: a denied action is refused.

import type { TeamPermissions } from "../../lib/api/types";
import { db } from "../db";
import type { MemberRow, TeamRow } from "../teamStore";
import { firstPages, type TeamView } from "../teamPages";
import { type MockRoute, apiError, json, noContent, reauthenticationRequired, signedIn } from "./common";

export const forbiddenRole = () => apiError(403, "forbidden_role", "Your role in the team does not allow this.");
export const teamNotFound = () => apiError(404, "team_not_found", "There is no such team.");
export const alreadyInTeam = () =>
  apiError(409, "already_in_team", "You are already in a team. Leave it before joining or creating another.");
export const seatsTaken = (total: number) =>
  apiError(409, "seats_taken", `All ${total} seats are taken. Add seats to invite more people.`);
export { json, noContent };

/** The team's answer for the caller `at`, as `{team}`: the first page of its lists (teamPages.ts). */
export const teamBody = (team: TeamRow, at: string, status = 200) => json({ team: firstPages(db.team.view(team, at)) }, status);

export type TeamCaller = { userId: string; email: string; team: TeamRow; me: MemberRow; decided: TeamView; session: Session };
type Session = { passwordAt: number | null };
type TeamAnswer = (caller: TeamCaller, request: Request, params: Record<string, unknown>) => Response | Promise<Response>;

/** A team's identity setting (single sign-on, SCIM tokens, domains, the sign-in switches): `403
 * reauthentication_required` unless the password was entered on the session within the window. */
export const steppedUp =
  (answer: TeamAnswer): TeamAnswer =>
  (caller, request, params) =>
    reauthenticationRequired(caller.session) ?? answer(caller, request, params);

/** A route for a member of a team: 401 when signed out, `404 team_not_found` in no team, `403` when `may[need]` is false. */
export const teamRoute = (method: MockRoute["method"], path: string, need: keyof TeamPermissions | null, answer: TeamAnswer) =>
  signedIn(method, path, ({ user, session }, { request, params }) => {
    const me = db.team.membershipOf(user.id);
    const team = me && db.team.teams.get(me.teamId);
    if (!me || !team) return teamNotFound();
    const decided = db.team.view(team, user.id);
    if (need && !decided.may[need]) return forbiddenRole();
    return answer({ userId: user.id, email: user.email, team, me, decided, session }, request, params);
  });
