//! The members and invites a page at a time (issue 28, docs/teams.md "Large teams"): `GET /api/team`
//! answers the first page of each list and the cursor of the next; `handlers/teamLists.ts` the rest.
//! The mock's cursor is the id of a page's last row.

import type { Team } from "../lib/api/types";
import { db } from "./db";

/** `limit` rows after the row whose id is `cursor` (null: the first page), and the next cursor. */
export function page<T>(rows: T[], idOf: (row: T) => string, cursor: string | null, limit: number) {
  const start = cursor === null ? 0 : rows.findIndex((r) => idOf(r) === cursor) + 1;
  const rowsOf = rows.slice(start, start + limit);
  const last = rowsOf.at(-1);
  return { rows: rowsOf, next_cursor: start + limit < rows.length && last !== undefined ? idOf(last) : null };
}

/** The team with its lists cut to their first page, as `GET /api/team` answers it (the counts stay the whole team's). */
export function firstPages(team: Team): Team {
  const members = page(team.members, (m) => m.user_id, null, db.team.pageSize);
  const invites = page(team.invites, (i) => i.id, null, db.team.pageSize);
  return {
    ...team,
    members: members.rows,
    members_next: members.next_cursor,
    invites: invites.rows,
    invites_next: invites.next_cursor,
  };
}
