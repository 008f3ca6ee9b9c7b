//! The members and invites a page at a time (docs/teams.md "Large teams"): `GET /api/team`
//! answers the first page of each list and the cursor of the next; `handlers/teamLists.ts` the rest.
//! The mock's cursor is the id of a page's last row.

import type { Team } from "../lib/api/types";

/** `limit` rows after the row whose id is `cursor` (null: the first page), and the next cursor. */
export function page<T>(rows: T[], idOf: (row: T) => string, cursor: string | null, limit: number) {
  const start = cursor === null ? 0 : rows.findIndex((r) => idOf(r) === cursor) + 1;
  const rowsOf = rows.slice(start, start + limit);
  const last = rowsOf.at(-1);
  return { rows: rowsOf, next_cursor: start + limit < rows.length && last !== undefined ? idOf(last) : null };
}

/** Rows in a page of members or invites (the API's); a test may set fewer. */
export const listPaging = { size: 100 };

/** The team as the store sees it; the counts and cursors are the first pages' (`firstPages`). */
export type TeamView = Omit<Team, "members_count" | "members_with_mfa" | "invites_count" | "owner_email" | PageCursors>;
type PageCursors = "members_next" | "invites_next";

/** The team with its lists cut to their first page, as `GET /api/team` answers it (the counts stay the whole team's). */
export function firstPages(team: TeamView): Team {
  const members = page(team.members, (m) => m.user_id, null, listPaging.size);
  const invites = page(team.invites, (i) => i.id, null, listPaging.size);
  return {
    ...team,
    members_count: team.members.length,
    // Null when the caller is not told who has a second factor (a plain member: every row's `mfa` is null).
    members_with_mfa: team.members.some((m) => m.mfa === null) ? null : team.members.filter((m) => m.mfa).length,
    invites_count: team.invites.length,
    owner_email: team.members.find((m) => m.role === "owner")?.email ?? "",
    members: members.rows,
    members_next: members.next_cursor,
    invites: invites.rows,
    invites_next: invites.next_cursor,
  };
}
