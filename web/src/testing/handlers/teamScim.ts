//! SCIM tokens (docs/api.md "SCIM"): the owner creates one (its secret in that answer only), lists
//! them without it, revokes one. Kept on the team's row, so they go with the mock's reset.

import type { ScimToken } from "../../lib/api/types";
import type { TeamRow } from "../teamStore";
import { type MockRoute, readBody } from "./common";
import { json, noContent, steppedUp, teamNotFound, teamRoute } from "./teamCommon";

const tokensOf = (team: TeamRow) => ((team as TeamRow & { scim?: ScimToken[] }).scim ??= []);
const owner = (answer: (team: TeamRow, params: Record<string, unknown>) => Response) =>
  (({ team }, _request, params) => answer(team, params)) as Parameters<typeof teamRoute>[3];

/** A new token named `name` on `team`: its secret is in this answer only. */
function newToken(team: TeamRow, name: string) {
  const id = crypto.randomUUID();
  tokensOf(team).unshift({
    id,
    name,
    created_by: team.ownerId,
    created_at: new Date().toISOString(),
    last_used_at: null,
    revoked_at: null,
  });
  return json({ id, name, token: `cws_scim_${crypto.randomUUID().replaceAll("-", "")}` }, 201);
}

export const teamScimRoutes: MockRoute[] = [
  teamRoute(
    "post",
    "/api/team/scim/tokens",
    "manage_scim",
    steppedUp(async ({ team }, request) => newToken(team, (await readBody<"ScimTokenCreateBody">(request)).name.trim())),
  ),
  teamRoute(
    "get",
    "/api/team/scim/tokens",
    "manage_scim",
    owner((team) => json({ tokens: tokensOf(team) })),
  ),
  teamRoute(
    "delete",
    "/api/team/scim/tokens/{id}",
    "manage_scim",
    owner((team, params) => {
      const token = tokensOf(team).find((t) => t.id === params.id && !t.revoked_at);
      if (!token) return teamNotFound();
      token.revoked_at = new Date().toISOString();
      return noContent();
    }),
  ),
];
