//! Domain join (docs/api.md "Teams"): the owner turns it on for the domain their answer offers
//! (`Team.domain_join_offer`, the team's fixture), users at the team's join domain in no team see it
//! and ask to join, the owner or an admin approves (a free seat needed) or denies.

import { db, DEFAULT_POLICY } from "../db";
import type { TeamRow } from "../teamStore";
import { type MockRoute, apiError, json, noContent, readBody, reauthenticationRequired, signedIn } from "./common";
import { alreadyInTeam, forbiddenRole, seatsTaken, teamBody, teamNotFound, teamRoute } from "./teamCommon";

/** The teams whose join domain is the address's (the server also keeps public mail domains out). */
const joinable = (email: string) => [...db.team.teams.values()].filter((t) => t.joinDomain && email.endsWith(`@${t.joinDomain}`));
const openRequest = (teamId: string, id: unknown) => db.team.openJoinRequests(teamId).find((r) => r.id === id);

const fresh = { policy: DEFAULT_POLICY, policy_version: "0".repeat(64), updated_at: null, updated_by: null };
const adoption = { devices: 0, current: 0, behind: 0, behind_last_seen_at: null };
/** `require_mfa` is the team's one switch (docs/teams.md "Policies"), the same as `PUT /api/team/mfa-policy`'s. */
const policyOf = (team: TeamRow, ownerSwitches: boolean) => {
  const saved = team.policy ?? { ...fresh, adoption };
  const policy = { ...saved.policy, require_mfa: team.requireMfa ?? false };
  return { ...saved, policy, may_change_require_mfa: ownerSwitches };
};

export const teamJoinRoutes: MockRoute[] = [
  /** The team's policy (docs/teams.md "Policies"): owner and admins; the server validates, this echoes. */
  teamRoute("get", "/api/team/policy", "set_policy", ({ team, decided }) => json(policyOf(team, decided.may.require_mfa))),
  teamRoute("put", "/api/team/policy", "set_policy", async ({ team, decided, email, session }, request) => {
    const maySwitch = decided.may.require_mfa;
    const policy = await readBody<"TeamPolicy">(request);
    const before = policyOf(team, maySwitch).policy;
    const switched = policy.require_mfa !== before.require_mfa || policy.require_sso !== before.require_sso;
    if (switched && !maySwitch) return forbiddenRole();
    const stale = switched ? reauthenticationRequired(session) : null;
    if (stale) return stale;
    team.requireMfa = policy.require_mfa;
    team.policy = { ...policyOf(team, maySwitch), policy, updated_at: new Date().toISOString(), updated_by: email };
    return json(team.policy);
  }),
  teamRoute("put", "/api/team/domain-join", "configure_domain_join", async ({ team, userId, decided }, request) => {
    const domain = (await readBody<"DomainJoinBody">(request)).domain?.trim().toLowerCase() ?? null;
    if (domain !== null && domain !== decided.domain_join_offer)
      return apiError(400, "domain_not_allowed", "Domain join works only for your own verified company domain.");
    team.joinDomain = domain;
    return teamBody(team, userId);
  }),
  signedIn("get", "/api/team/joinable", ({ user }) => {
    const teams = db.team.membershipOf(user.id) ? [] : joinable(user.email).map((t) => ({ id: t.id, name: t.name }));
    return json({ teams });
  }),
  signedIn("post", "/api/team/join-requests", async ({ user }, { request }) => {
    const teamId = (await readBody<"JoinRequestBody">(request)).team_id;
    if (db.team.membershipOf(user.id)) return alreadyInTeam();
    if (!joinable(user.email).some((t) => t.id === teamId)) return teamNotFound();
    db.team.requestJoin(teamId, user.id);
    return json({}, 202);
  }),
  teamRoute("get", "/api/team/join-requests", "approve_join", ({ team }) => {
    const requests = db.team.openJoinRequests(team.id).map((r) => ({
      ...{ id: r.id, user_id: r.userId, created_at: db.iso(r.createdAt) },
      email: db.userById(r.userId)?.user.email ?? "",
    }));
    return json({ requests });
  }),
  teamRoute("post", "/api/team/join-requests/{id}/approve", "approve_join", ({ team }, _request, params) => {
    const row = openRequest(team.id, params.id);
    if (!row) return teamNotFound();
    const seats = db.team.seats(team);
    if (seats.free === 0) return seatsTaken(seats.total);
    Object.assign(row, { decidedAt: db.now(), decision: "approved" });
    db.team.members.push({ teamId: team.id, userId: row.userId, role: "member", joinedAt: db.now() });
    return noContent();
  }),
  teamRoute("post", "/api/team/join-requests/{id}/deny", "approve_join", ({ team }, _request, params) => {
    const row = openRequest(team.id, params.id);
    if (!row) return teamNotFound();
    Object.assign(row, { decidedAt: db.now(), decision: "denied" });
    return noContent();
  }),
];
