//! Team invitations (docs/teams.md "Endpoints"): invite, resend, revoke; the invited person's lookup, accept
//! and decline, and their open invitations on /team (accepted there by id; the inviter is the team's owner here). The server's other refusals (an address, a resend too soon, a team over its seats): `refuse`.

import { db } from "../db";
import { INVITE_TTL_MS, type InviteRow } from "../teamStore";
import { type MockRoute, apiError, json, noContent, origin, readBody, signedIn } from "./common";
import { alreadyInTeam, seatsTaken, teamBody, teamNotFound, teamRoute } from "./teamCommon";

const inviteNotFound = () => apiError(404, "invite_not_found", "This invitation does not exist or was withdrawn.");

function sendInvite(request: Request, invite: InviteRow) {
  const link = `${origin(request)}/invite?token=${invite.token}`;
  db.sendMail(invite.email, `Join ${db.team.teams.get(invite.teamId)!.name} on Closewise`, link);
}

/** The open invite behind the body's token, or the refusal lookup, accept and decline answer. */
async function byToken(request: Request) {
  const invite = db.team.inviteByToken((await readBody<"InviteTokenBody">(request)).token);
  if (!invite || invite.declinedAt || invite.revokedAt || !db.team.teams.has(invite.teamId)) return { error: inviteNotFound() };
  if (invite.acceptedAt) return { error: apiError(409, "invite_used", "This invitation has already been used.") };
  if (invite.expiresAt <= db.now())
    return { error: apiError(400, "invite_expired", "This invitation has expired. Ask the team for a new one.") };
  return { invite };
}

/** `userId` joins the invite's team with its role, when they are in none and a seat is free. */
function join(userId: string, invite: InviteRow) {
  if (db.team.membershipOf(userId)) return alreadyInTeam();
  const team = db.team.teams.get(invite.teamId)!;
  if (db.team.membersOf(team.id).length >= team.seats) return seatsTaken(team.seats);
  invite.acceptedAt = db.now();
  db.team.members.push({ teamId: team.id, userId, role: invite.role, joinedAt: db.now() });
  return teamBody(team, userId);
}

/** The invites to `email` neither used, withdrawn nor expired. */
const openTo = (email: string) =>
  db.team.invites.filter((i) => i.email === email && db.team.isPending(i) && db.team.teams.has(i.teamId));

export const teamInviteRoutes: MockRoute[] = [
  teamRoute("post", "/api/team/invites", "invite", async ({ team }, request) => {
    const { email, role } = await readBody<"TeamInviteBody">(request);
    const address = email.trim().toLowerCase();
    const seats = db.team.seats(team);
    if (seats.free === 0) return seatsTaken(seats.total);
    sendInvite(request, db.team.inviteByToken(db.team.invite(team.id, address, role))!);
    return json({}, 202);
  }),
  teamRoute("post", "/api/team/invites/{id}/resend", "invite", ({ team }, request, params) => {
    const invite = db.team.openInvites(team.id).find((i) => i.id === params.id);
    if (!invite) return teamNotFound();
    const at = db.now();
    Object.assign(invite, {
      token: `inv_${crypto.randomUUID().replace(/-/g, "")}`,
      lastSentAt: at,
      expiresAt: at + INVITE_TTL_MS,
    });
    sendInvite(request, invite);
    return json({}, 202);
  }),
  teamRoute("delete", "/api/team/invites/{id}", "invite", ({ team }, _request, params) => {
    const invite = db.team.openInvites(team.id).find((i) => i.id === params.id);
    if (!invite) return teamNotFound();
    invite.revokedAt = db.now();
    return noContent();
  }),
  {
    method: "post",
    path: "/api/team/invites/lookup",
    resolver: async ({ request }) => {
      const found = await byToken(request);
      // Lookup says "not found" for a used invite too (docs/teams.md): only accept tells it apart.
      if (found.error) return found.error.status === 409 ? inviteNotFound() : found.error;
      const { invite } = found;
      return json({ team_name: db.team.teams.get(invite.teamId)!.name, role: invite.role, email: invite.email });
    },
  },
  signedIn("post", "/api/team/invites/accept", async ({ user }, { request }) => {
    const found = await byToken(request);
    return found.error ?? join(user.id, found.invite);
  }),
  signedIn("get", "/api/team/invites/mine", ({ user }) => {
    const invites = user.email_confirmed_at ? openTo(user.email) : [];
    return json({
      invites: invites.map((i) => {
        const team = db.team.teams.get(i.teamId)!;
        const [team_name, invited_by] = [team.name, db.userById(team.ownerId)?.user.email ?? null];
        return { id: i.id, team_name, role: i.role, invited_by, expires_at: new Date(i.expiresAt).toISOString() };
      }),
    });
  }),
  signedIn("post", "/api/team/invites/{id}/accept", ({ user }, { params }) => {
    const invite = openTo(user.email).find((i) => i.id === params.id);
    return invite ? join(user.id, invite) : inviteNotFound();
  }),
  signedIn("post", "/api/team/invites/decline", async (_caller, { request }) => {
    const found = await byToken(request);
    if (found.error) return found.error;
    found.invite.declinedAt = db.now();
    return noContent();
  }),
];
