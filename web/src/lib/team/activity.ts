//! The team's activity in words: "ana made bo an admin (was a member)", from an audit entry's action,
//! actor, target and details (before → after where the server records them). An action without a
//! sentence here still reads as words, never as its code.

import type { TeamRole } from "../api/types";
import { roleWithArticle } from "./format";

export interface ActivityEntry {
  action: string;
  actor: string;
  target_email?: string | null;
  details: Record<string, unknown>;
}

const ROLES: TeamRole[] = ["owner", "admin", "member"];
const role = (v: unknown) => (ROLES.includes(v as TeamRole) ? roleWithArticle(v as TeamRole) : null);
const INTERVALS: Record<string, string> = { month: "monthly", year: "yearly" };
/** A detail that reads as text (a string or a number); anything else reads as nothing. */
const text = (v: unknown) => (typeof v === "string" || typeof v === "number" ? String(v) : "");
const change = (v: unknown) => {
  const c = v as { before?: unknown; after?: unknown } | undefined;
  return c && c.before !== undefined && c.after !== undefined ? { before: c.before, after: c.after } : null;
};

/** What the less common actions' codes mean, for the sentence "actor: …". */
const WORDS: Record<string, string> = {
  "team.sso.save": "single sign-on saved",
  "team.sso.delete": "single sign-on removed",
  "team.sso.disable": "single sign-on turned off",
  "team.sso.metadata_refresh": "SAML metadata read again, certificates changed",
  "team.sso.metadata_failed": "SAML metadata could not be read again (the connection was kept)",
  "team.setup_link_created": "setup link for IT created",
  "team.setup_link_revoked": "setup link for IT revoked",
  "team.setup_link_finished": "setup finished through the link for IT",
  "team.scim.token_create": "SCIM token created",
  "team.scim.token_revoke": "SCIM token revoked",
  "team.scim.member_add": "added by the directory",
  "team.scim.member_remove": "removed by the directory",
  "team.scim.invite": "invited by the directory",
  "team.scim.disable": "SCIM provisioning turned off",
  "team.domain_add": "domain added",
  "team.domain_verify": "domain verified",
  "team.domain_unverify": "domain no longer verified",
  "team.domain_remove": "domain removed",
  "team.domain_disable": "joining by domain turned off",
  "team.over_seats": "more members than seats",
  "team.billing_details": "billing details changed",
  "team.checkout": "seats bought",
  "team.policy": "team policy changed",
  "team.create": "team created",
  "team.delete": "team deleted",
  "team.seed": "team seeded",
};

export function describeActivity(e: ActivityEntry): string {
  const { actor, details: d } = e;
  const target = e.target_email ?? "";
  switch (e.action) {
    case "team.member_role": {
      const was = role(d.from);
      return `${actor} made ${target} ${role(d.role) ?? "another role"}${was ? ` (was ${was})` : ""}`;
    }
    case "team.member_remove":
      return `${actor} removed ${target}`;
    case "team.leave":
      return `${target || actor} left the team`;
    case "team.invite":
      return `${actor} invited ${target}${role(d.role) ? ` as ${role(d.role)}` : ""}`;
    case "team.invite_resend":
      return `${actor} sent ${target}'s invitation again`;
    case "team.invite_revoke":
      return `${actor} withdrew ${target}'s invitation`;
    case "team.invite_accept":
      return `${target || actor} accepted the invitation`;
    case "team.invite_decline":
      return `${target || actor} declined the invitation`;
    case "team.join_approve":
      return `${actor} let ${target} join`;
    case "team.join_deny":
      return `${actor} turned down ${target}'s request to join`;
    case "team.domain_join":
      return `${target || actor} joined through the company's domain`;
    case "team.transfer":
      return `${actor} made ${typeof d.to === "string" ? d.to : target} the owner`;
    case "team.rename":
      return `${actor} renamed the team “${text(d.name)}”`;
    case "team.mfa_policy":
      return `${actor} turned ${d.required ? "on" : "off"} “Require a second factor”`;
    case "team.seats": {
      const seats = change(d.seats) ?? change(d);
      if (!seats) return `${actor} changed the seats`;
      const verb = d.reclaim ? "reclaimed idle seats:" : "changed the seats";
      return `${actor} ${verb} from ${text(seats.before)} to ${text(seats.after)}`;
    }
    case "team.interval": {
      const i = change(d.interval);
      if (!i) return `${actor} changed how often the team is billed`;
      return `${actor} switched billing from ${INTERVALS[text(i.before)] ?? text(i.before)} to ${INTERVALS[text(i.after)] ?? text(i.after)}`;
    }
  }
  const words = WORDS[e.action] ?? e.action.replace(/^team\./, "").replace(/[._]/g, " ");
  return `${actor}: ${words}${target ? ` (${target})` : ""}`;
}
