//! The sections of the team console at `/team/<section>` (`/team` alone is Members): which a role
//! sees, decided from the team's `may` (the server's decisions), and which section holds an anchor
//! or a query that mails and the server's redirects put on `/team`.

import type { Team } from "../../../lib/api/types";

export type TeamSectionId = "members" | "billing" | "usage" | "activity" | "security" | "policy";

type May = Team["may"];

export const TEAM_SECTIONS: readonly { id: TeamSectionId; label: string; shown: (may: May) => boolean }[] = [
  { id: "members", label: "Members", shown: () => true },
  // Admins are told whom to ask for seats and see the invoices; the owner buys and pays.
  { id: "billing", label: "Seats & billing", shown: (may) => may.buy_seats || may.change_seats || may.view_invoices },
  { id: "usage", label: "Usage", shown: (may) => may.view_adoption },
  { id: "activity", label: "Activity", shown: (may) => may.view_activity },
  // Who sees the members' calls and second factors (Usage) sees who has one here too.
  {
    id: "security",
    label: "Security",
    shown: (may) =>
      may.require_mfa ||
      may.manage_domains ||
      may.configure_domain_join ||
      may.configure_sso ||
      may.manage_scim ||
      may.manage_streams ||
      may.view_adoption,
  },
  { id: "policy", label: "Policy", shown: (may) => may.set_policy },
];

/** The sections `may` allows, in the navigation's order; Members always. */
export function teamSections(may: May) {
  return TEAM_SECTIONS.filter((s) => s.shown(may));
}

export const teamSectionPath = (id: TeamSectionId) => `/team/${id}`;

/** The section of each id a mail or another page links to as `/team#id`. */
const ANCHORS: Record<string, TeamSectionId> = {
  "members-title": "members",
  "invites-title": "members",
  "join-requests-title": "members",
  "danger-title": "members",
  "seats-billing-title": "billing",
  "company-details-title": "billing",
  "team-adoption": "usage",
  "team-activity": "activity",
  "mfa-policy-title": "security",
  "team-security-title": "security",
  "domain-join-title": "security",
  "sso-title": "security",
  "team-scim": "security",
  "team-streams": "security",
  "team-setup-links": "security",
  "policies-title": "policy",
};

/** Where `/team` with this hash and query belongs (the SSO test's `?sso_test=` is Security's). */
export function sectionOfLink(hash: string, search: string): TeamSectionId | null {
  const anchor = ANCHORS[hash.replace(/^#/, "")];
  if (anchor) return anchor;
  return new URLSearchParams(search).has("sso_test") ? "security" : null;
}

/** A path segment as a section, or null when it names none. */
export function sectionId(segment: string | undefined): TeamSectionId | null {
  return TEAM_SECTIONS.find((s) => s.id === segment)?.id ?? null;
}
