//! `GET /api/team/members` and `GET /api/team/invites`: the team's lists a page at a time
//! (teamPages.ts), `limit` 1–500, `cursor` an earlier page's. A cursor whose row is gone is refused
//! here; the API's keyset cursors outlive it.

import { listPaging, page } from "../teamPages";
import { apiError, type MockRoute } from "./common";
import { json, teamRoute } from "./teamCommon";

function listPage<T>(request: Request, key: string, rows: T[], idOf: (row: T) => string) {
  const query = new URL(request.url).searchParams;
  const limit = Number(query.get("limit") ?? listPaging.size);
  if (!Number.isInteger(limit) || limit < 1 || limit > 500) return apiError(400, "invalid_limit", "limit must be 1 to 500.");
  const cursor = query.get("cursor") || null;
  if (cursor !== null && !rows.some((r) => idOf(r) === cursor))
    return apiError(400, "invalid_cursor", "This cursor is not valid.");
  const { rows: found, next_cursor } = page(rows, idOf, cursor, limit);
  return json({ [key]: found, next_cursor });
}

export const teamListRoutes: MockRoute[] = [
  teamRoute("get", "/api/team/members", null, ({ decided }, request) =>
    listPage(request, "members", decided.members, (m) => m.user_id),
  ),
  teamRoute("get", "/api/team/invites", "invite", ({ decided }, request) =>
    listPage(request, "invites", decided.invites, (i) => i.id),
  ),
];
