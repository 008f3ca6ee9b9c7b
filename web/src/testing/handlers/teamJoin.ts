//! Domain join (docs/api.md "Teams"): the owner turns it on for their own verified company domain,
//! verified users at that domain in no team see the team and ask to join, and the owner or an admin
//! approves (a free seat needed, as for an invite) or denies.

import { HttpResponse } from "msw";
import { mayRequestJoin, normalizeDomain } from "../domainJoinRules";
import { db } from "../db";
import { type MockRoute, apiError, authenticate, invalidJson, jsonBody } from "./common";
import { noSeatFor, notVerified, seatsTaken, teamBody, teamCaller, teamNotFound } from "./teamCommon";

const alreadyInTeam = () =>
  apiError(409, "already_in_team", "You are already in a team. Leave it before joining or creating another.");
const domainNotAllowed = () =>
  apiError(400, "domain_not_allowed", "Domain join works only for your own verified company domain.");

/** An undecided request of the caller's team by id, or undefined (decided, unknown, another team's). */
const openRequest = (teamId: string, id: unknown) =>
  db.team.joinRequests.find((r) => r.id === id && r.teamId === teamId && !r.decidedAt);

export const teamJoinRoutes: MockRoute[] = [
  {
    method: "put",
    path: "/api/team/domain-join",
    resolver: async ({ request }) => {
      const caller = teamCaller(request, "configure_domain_join");
      if ("error" in caller) return caller.error;
      const body = await jsonBody(request);
      const domain = body?.domain;
      if (!body || (domain !== null && domain !== undefined && typeof domain !== "string"))
        return invalidJson("Expected a JSON body with domain (a string or null)");
      if (typeof domain === "string") {
        // The domain the caller's own answer offers (`Team.domain_join_offer`), and no other.
        if (normalizeDomain(domain) !== db.team.view(caller.team, caller.userId).domain_join_offer) return domainNotAllowed();
        caller.team.joinDomain = normalizeDomain(domain);
      } else caller.team.joinDomain = null;
      return teamBody(caller.team, caller.userId);
    },
  },
  {
    method: "get",
    path: "/api/team/joinable",
    resolver: ({ request }) => {
      const auth = authenticate(request);
      if ("error" in auth) return auth.error;
      const { user } = auth.row;
      const eligible = Boolean(user.email_confirmed_at) && !db.team.membershipOf(user.id);
      const teams = eligible
        ? [...db.team.teams.values()]
            .filter((t) => mayRequestJoin(user.email, true, t.joinDomain))
            .sort((a, b) => a.name.localeCompare(b.name))
            .map((t) => ({ id: t.id, name: t.name }))
        : [];
      return HttpResponse.json({ teams });
    },
  },
  {
    method: "post",
    path: "/api/team/join-requests",
    resolver: async ({ request }) => {
      const auth = authenticate(request);
      if ("error" in auth) return auth.error;
      const body = await jsonBody(request);
      const teamId = body?.team_id;
      if (typeof teamId !== "string") return invalidJson("Expected a JSON body with team_id");
      const { user } = auth.row;
      if (!user.email_confirmed_at) return notVerified();
      if (db.team.membershipOf(user.id)) return alreadyInTeam();
      const team = db.team.teams.get(teamId);
      // No such team and no domain join for the caller's domain look the same.
      if (!team || !mayRequestJoin(user.email, true, team.joinDomain)) return teamNotFound();
      db.team.requestJoin(team.id, user.id);
      return HttpResponse.json({}, { status: 202 });
    },
  },
  {
    method: "get",
    path: "/api/team/join-requests",
    resolver: ({ request }) => {
      const caller = teamCaller(request, "approve_join");
      if ("error" in caller) return caller.error;
      const requests = db.team.openJoinRequests(caller.team.id).map((r) => ({
        id: r.id,
        user_id: r.userId,
        email: db.userById(r.userId)?.user.email ?? "",
        created_at: db.iso(r.createdAt),
      }));
      return HttpResponse.json({ requests });
    },
  },
  {
    method: "post",
    path: "/api/team/join-requests/{id}/approve",
    resolver: ({ request, params }) => {
      const caller = teamCaller(request, "approve_join");
      if ("error" in caller) return caller.error;
      const row = openRequest(caller.team.id, params.id);
      if (!row) return teamNotFound();
      // As under the team's lock: nothing is written unless the user joins.
      if (db.team.membershipOf(row.userId)) return alreadyInTeam();
      const over = noSeatFor(caller.team);
      if (over) return over;
      const seats = db.team.seats(caller.team);
      if (seats.free === 0) return seatsTaken(seats.total);
      row.decidedAt = db.now();
      row.decision = "approved";
      db.team.members.push({ teamId: caller.team.id, userId: row.userId, role: "member", joinedAt: db.now() });
      return new HttpResponse(null, { status: 204 });
    },
  },
  {
    method: "post",
    path: "/api/team/join-requests/{id}/deny",
    resolver: ({ request, params }) => {
      const caller = teamCaller(request, "approve_join");
      if ("error" in caller) return caller.error;
      const row = openRequest(caller.team.id, params.id);
      if (!row) return teamNotFound();
      row.decidedAt = db.now();
      row.decision = "denied";
      return new HttpResponse(null, { status: 204 });
    },
  },
];
