//! The decisions the API's `Team` answer carries (`Team.may`, `invite_roles`, each member's
//! `may_remove` and `may_change_role`, `seat_range`, `payment_failed`), as the mock API's data:
//! fixtures of what the server answers (crates/api/tests/api/team/decisions.rs asserts the same
//! tables), not rules. The mock's handlers refuse what these deny; nothing else decides.

import type { InviteRole, TeamPermissions, TeamRole, TeamSubscription } from "../lib/api/types";

type Status = TeamSubscription["status"];

const NOBODY: TeamPermissions = {
  rename: false,
  invite: false,
  approve_join: false,
  configure_domain_join: false,
  leave: true,
  transfer: false,
  delete: false,
  manage_billing: false,
  buy_seats: false,
  change_seats: false,
};

/** `Team.may` by the caller's role, before the seats form is chosen. */
const MAY: Record<TeamRole, TeamPermissions> = {
  owner: {
    ...NOBODY,
    rename: true,
    invite: true,
    approve_join: true,
    configure_domain_join: true,
    leave: false,
    transfer: true,
    delete: true,
    manage_billing: true,
  },
  admin: { ...NOBODY, invite: true, approve_join: true },
  member: NOBODY,
};

/** Who each role may remove, and give another role. */
const REMOVES: Record<TeamRole, TeamRole[]> = { owner: ["admin", "member"], admin: ["member"], member: [] };
const REROLES: Record<TeamRole, TeamRole[]> = { owner: ["admin", "member"], admin: [], member: [] };
const INVITE_ROLES: Record<TeamRole, InviteRole[]> = { owner: ["member", "admin"], admin: ["member"], member: [] };

/** The statuses in which the owner is offered a checkout rather than a seat change. */
const BUY_WHEN: (Status | null)[] = [null, "canceled", "incomplete_expired", "incomplete"];
const PAYMENT_FAILED: Status[] = ["past_due", "unpaid", "paused"];

export const MAX_SEATS = 1000;

export function teamDecisions(role: TeamRole, status: Status | null, used: number) {
  const buy = role === "owner" && BUY_WHEN.includes(status);
  return {
    may: { ...MAY[role], buy_seats: buy, change_seats: role === "owner" && !buy },
    invite_roles: INVITE_ROLES[role],
    payment_failed: status !== null && PAYMENT_FAILED.includes(status),
    range: { min: Math.max(1, used), max: MAX_SEATS },
    mayRemove: (target: TeamRole) => REMOVES[role].includes(target),
    mayChangeRole: (target: TeamRole) => REROLES[role].includes(target),
  };
}
