//! Team invitations (docs/teams.md "Endpoints"): invite, resend, revoke, and the invited person's
//! lookup (no auth), accept and decline. The mail's link is `/invite?token=…`.

import { HttpResponse } from "msw";
import { db } from "../db";
import type { InviteRow } from "../teamStore";
import { INVITE_TTL_MS } from "../teamStore";
import { type MockRoute, EMAIL, apiError, authenticate, invalidJson, jsonBody, origin, stringField } from "./common";
import {
  forbiddenRole,
  invalidRole,
  isInviteRole,
  notVerified,
  noSeatFor,
  seatsTaken,
  teamBody,
  teamCaller,
  teamNotFound,
} from "./teamCommon";

/** `teams::invite_matches`: the invited address and the user's, trimmed, case aside. */
const sameAddress = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

const INVITE_RESEND_SECONDS = 60;

const inviteNotFound = () => apiError(404, "invite_not_found", "This invitation does not exist or was withdrawn.");
const inviteExpired = () => apiError(400, "invite_expired", "This invitation has expired. Ask the team for a new one.");
const inviteUsed = () => apiError(409, "invite_used", "This invitation has already been used.");
const otherAddress = () =>
  apiError(
    409,
    "invite_other_address",
    "This invitation is for another e-mail address. Sign in with the address it was sent to.",
  );

function sendInvite(request: Request, invite: InviteRow) {
  const team = db.team.teams.get(invite.teamId)!;
  db.outbox.push({
    to: invite.email,
    subject: `Join ${team.name} on Closewise`,
    link: `${origin(request)}/invite?token=${invite.token}`,
  });
}

/** The invite behind a token as lookup, accept and decline see it: the error, or the open invite. */
function byToken(token: string): { error: Response } | { invite: InviteRow } {
  const invite = db.team.inviteByToken(token);
  if (!invite || invite.declinedAt || invite.revokedAt || !db.team.teams.has(invite.teamId)) return { error: inviteNotFound() };
  if (invite.acceptedAt) return { error: inviteUsed() };
  if (invite.expiresAt <= db.now()) return { error: inviteExpired() };
  return { invite };
}

async function tokenOf(request: Request) {
  const body = await jsonBody(request);
  return body && stringField(body, "token");
}

/** An open invite of the caller's team by id, or `404 team_not_found`. */
function ownInvite(teamId: string, id: unknown) {
  return db.team.openInvites(teamId).find((i) => i.id === id);
}

export const teamInviteRoutes: MockRoute[] = [
  {
    method: "post",
    path: "/api/team/invites",
    resolver: async ({ request }) => {
      const caller = teamCaller(request, "invite");
      if ("error" in caller) return caller.error;
      const body = await jsonBody(request);
      const email = body && stringField(body, "email");
      const role = body && stringField(body, "role");
      if (email === null || role === null) return invalidJson("Expected a JSON body with email and role");
      const address = email.trim().toLowerCase();
      if (!EMAIL.test(address)) return apiError(400, "invalid_email", "Please enter a valid email address");
      if (!isInviteRole(role)) return invalidRole();
      // Only the owner, who alone changes roles, invites admins (teams::may_invite_as).
      if (role === "admin" && caller.me.role !== "owner") return forbiddenRole();
      const { team } = caller;
      // A member of this team (whom the inviter sees anyway) is refused; any other address, with an
      // account or not, gets the same answer.
      if (db.team.membersOf(team.id).some((m) => db.userById(m.userId)?.user.email === address))
        return apiError(409, "already_member", `${address} is already a member of this team.`);
      const over = noSeatFor(team);
      if (over) return over;
      const seats = db.team.seats(team);
      const replacing = db.team.openInvites(team.id).some((i) => i.email === address && db.team.isPending(i));
      if (seats.free === 0 && !replacing) return seatsTaken(seats.total);
      const token = db.team.invite(team.id, address, role);
      sendInvite(request, db.team.inviteByToken(token)!);
      return HttpResponse.json({}, { status: 202 });
    },
  },
  {
    method: "post",
    path: "/api/team/invites/{id}/resend",
    resolver: ({ request, params }) => {
      const caller = teamCaller(request, "invite");
      if ("error" in caller) return caller.error;
      const invite = ownInvite(caller.team.id, params.id);
      if (!invite) return teamNotFound();
      const wait = INVITE_RESEND_SECONDS - Math.floor((db.now() - invite.lastSentAt) / 1000);
      if (wait > 0)
        return apiError(429, "rate_limited", `For security purposes, you can only request this after ${wait} seconds.`, {
          "Retry-After": String(wait),
        });
      const seats = db.team.seats(caller.team);
      const over = db.team.isPending(invite) ? null : noSeatFor(caller.team);
      if (over) return over;
      if (!db.team.isPending(invite) && seats.free === 0) return seatsTaken(seats.total);
      invite.token = `inv_${crypto.randomUUID().replace(/-/g, "")}`;
      invite.lastSentAt = db.now();
      invite.expiresAt = db.now() + INVITE_TTL_MS;
      sendInvite(request, invite);
      return HttpResponse.json({}, { status: 202 });
    },
  },
  {
    method: "delete",
    path: "/api/team/invites/{id}",
    resolver: ({ request, params }) => {
      const caller = teamCaller(request, "invite");
      if ("error" in caller) return caller.error;
      const invite = ownInvite(caller.team.id, params.id);
      if (!invite) return teamNotFound();
      invite.revokedAt = db.now();
      return new HttpResponse(null, { status: 204 });
    },
  },
  {
    method: "post",
    path: "/api/team/invites/lookup",
    resolver: async ({ request }) => {
      const token = await tokenOf(request);
      if (token === null) return invalidJson("Expected a JSON body with token");
      const found = byToken(token);
      // Lookup says "not found" for a used invite too (docs/teams.md): only accept tells it apart.
      if ("error" in found) return found.error.status === 409 ? inviteNotFound() : found.error;
      const { invite } = found;
      return HttpResponse.json({ team_name: db.team.teams.get(invite.teamId)!.name, role: invite.role, email: invite.email });
    },
  },
  {
    method: "post",
    path: "/api/team/invites/accept",
    resolver: async ({ request }) => {
      const auth = authenticate(request);
      if ("error" in auth) return auth.error;
      const token = await tokenOf(request);
      if (token === null) return invalidJson("Expected a JSON body with token");
      const found = byToken(token);
      if ("error" in found) return found.error;
      const { invite } = found;
      const { user } = auth.row;
      // As the service checks it (teams::invite_for): the address first, then that it is verified.
      if (!sameAddress(user.email, invite.email)) return otherAddress();
      if (!user.email_confirmed_at) return notVerified();
      if (db.team.membershipOf(user.id))
        return apiError(409, "already_in_team", "You are already in a team. Leave it before joining or creating another.");
      const team = db.team.teams.get(invite.teamId)!;
      // The pending invite holds the seat it becomes; only a team that shrank below it refuses.
      const over = noSeatFor(team);
      if (over) return over;
      if (db.team.membersOf(team.id).length >= team.seats) return seatsTaken(team.seats);
      invite.acceptedAt = db.now();
      db.team.members.push({ teamId: team.id, userId: user.id, role: invite.role, joinedAt: db.now() });
      return teamBody(team, user.id);
    },
  },
  {
    method: "post",
    path: "/api/team/invites/decline",
    resolver: async ({ request }) => {
      const auth = authenticate(request);
      if ("error" in auth) return auth.error;
      const token = await tokenOf(request);
      if (token === null) return invalidJson("Expected a JSON body with token");
      const found = byToken(token);
      if ("error" in found) return found.error;
      // As the service checks it (teams::invite_for): the address first, then that it is verified.
      if (!sameAddress(auth.row.user.email, found.invite.email)) return otherAddress();
      if (!auth.row.user.email_confirmed_at) return notVerified();
      found.invite.declinedAt = db.now();
      return new HttpResponse(null, { status: 204 });
    },
  },
];
