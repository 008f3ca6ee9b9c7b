//! Adoption, reclaim, activity (docs/api.md "Team adoption and activity"): `calls` by address and the members
//! who joined less than 30 days ago (`newMembers`), which a test sets; a member with neither calls nor a
//! recent join is idle.
import { db } from "../db";
import { type MockRoute, readBody } from "./common";
import { json, teamBody, teamRoute } from "./teamCommon";

export const calls = new Map<string, number>();
export const newMembers = new Set<string>();
/** Members per page unless the request says `limit` (the API's default, 100); a test lowers it. */
export const adoptionPaging = { size: 100 };
const zero = { calls_last_month: 0, minutes_last_month: 0, devices: 0, second_factor: 0 };
const sum = (ms: { calls_this_month: number }[]) => ms.reduce((a, m) => a + m.calls_this_month, 0);

export const teamAdoptionRoutes: MockRoute[] = [
  teamRoute("get", "/api/team/adoption", "view_adoption", ({ decided: d, team }, request) => {
    // A page of members as the API's (`cursor` is where the page starts here); totals the team's.
    const params = new URL(request.url).searchParams;
    const size = Number(params.get("limit") ?? adoptionPaging.size);
    const from = Number(params.get("cursor") ?? 0);
    const members = d.members.map(({ user_id, email, role, joined_at }) => {
      const n = calls.get(email) ?? 0;
      const state = newMembers.has(email) ? ("new" as const) : n ? ("active" as const) : ("idle" as const);
      return {
        ...zero,
        user_id,
        email,
        role,
        joined_at,
        last_active_at: null,
        last_call_at: null,
        state,
        idle: state === "idle",
        calls_this_month: n,
      };
    });
    const ms = members.map((m) => ({ ...m, minutes_this_month: m.calls_this_month, second_factor: false }));
    const idleIds = members.filter((m) => m.idle && m.role !== "owner").map((m) => m.user_id);
    const idle = idleIds.length;
    const seats = Math.min(Math.max(1, d.seats.used - idle), Math.max(1, team.seats));
    const freed = Math.max(0, team.seats - seats);
    const totals = {
      ...zero,
      members: ms.length,
      idle: ms.filter((m) => m.idle).length,
      new: ms.filter((m) => m.state === "new").length,
      calls_this_month: sum(ms),
      minutes_this_month: sum(ms),
    };
    const reclaim = {
      idle_members: idle,
      seats,
      seats_freed: freed,
      monthly_saving: freed * 2000,
      currency: "usd",
      user_ids: idleIds,
    };
    const month = { month: "2026-11", previous_month: "2026-10", idle_days: 30 };
    const page = ms.slice(from, from + size);
    const next_cursor = from + size < ms.length ? String(from + size) : null;
    return json({ ...month, members: page, next_cursor, totals, seats: d.seats, may_reclaim: d.may.change_seats, reclaim });
  }),
  teamRoute("post", "/api/team/reclaim", "change_seats", async ({ team, userId }, request) => {
    const { user_ids, seats, dry_run } = await readBody<"TeamReclaimBody">(request);
    const removed = db.team.membersOf(team.id).filter((m) => user_ids.includes(m.userId));
    const gone = removed.map((m) => ({ user_id: m.userId, email: db.userById(m.userId)?.user.email ?? "" }));
    const preview = { seats, amount_due_now: -500, next_total: seats * 2000, currency: "usd", proration_date: 1_800_000_000 };
    if (dry_run) return json({ dry_run: true, removed: gone, seats, preview, team: null });
    [db.team.members, team.seats] = [db.team.members.filter((m) => !removed.includes(m)), seats];
    const { team: after } = (await teamBody(team, userId).json()) as { team: unknown };
    return json({ dry_run: false, removed: gone, seats, preview: null, team: after });
  }),
  teamRoute("get", "/api/team/audit", "view_activity", () => json({ entries: [], next_cursor: null })),
];
