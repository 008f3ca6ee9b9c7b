//! The team console's sections (teamSections.ts), each at its own URL: the navigation between them
//! and the section the URL names. `/team` alone is Members; `/team#anchor` and `/team?sso_test=`
//! (mails, the server's redirects) move to the section that holds them; a section the role may not
//! see, or none by that name, is Members at `/team`.

import { useEffect } from "react";
import { Link, useLocation, useNavigate, useParams } from "react-router";
import { cn } from "../../../components/ui/cn";
import type { Team } from "../../../lib/api/types";
import { Activity } from "./Activity";
import { Adoption } from "./Adoption";
import { TeamBilling } from "./Billing";
import { DomainJoin } from "./DomainJoin";
import { Domains } from "./Domains";
import { EventStreams } from "./EventStreams";
import { Invites } from "./Invites";
import { JoinRequests } from "./JoinRequests";
import { Members } from "./Members";
import { MfaPolicy } from "./MfaPolicy";
import { Policies } from "./Policies";
import { ScimTokens } from "./ScimTokens";
import { SetupLinks } from "./SetupLinks";
import { Sso } from "./Sso";
import { TeamDanger } from "./TeamDanger";
import { TeamSeatsBilling } from "./TeamSummary";
import { sectionId, sectionOfLink, teamSectionPath, teamSections, type TeamSectionId } from "./teamSections";

function SectionNav({ sections, current }: { sections: ReturnType<typeof teamSections>; current: TeamSectionId }) {
  return (
    <nav aria-label="Team sections" className="lg:sticky lg:top-24">
      <ul className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-1">
        {sections.map((s) => (
          <li key={s.id}>
            <Link
              to={teamSectionPath(s.id)}
              aria-current={s.id === current ? "page" : undefined}
              className={cn(
                "flex min-h-11 items-center rounded-lg px-3 py-2 text-sm font-medium",
                "focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600",
                s.id === current
                  ? "bg-blue-600 text-white"
                  : "border border-slate-200 bg-white text-slate-700 hover:bg-slate-50 lg:border-transparent lg:bg-transparent",
              )}
            >
              {s.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function SectionContent({ id, team }: { id: TeamSectionId; team: Team }) {
  const { may } = team;
  switch (id) {
    case "members":
      return (
        <>
          <Members team={team} />
          {may.approve_join && <JoinRequests team={team} />}
          {may.invite && <Invites team={team} />}
          <TeamDanger team={team} />
        </>
      );
    case "billing":
      return (
        <>
          <TeamSeatsBilling team={team} />
          <TeamBilling team={team} />
        </>
      );
    case "usage":
      return <Adoption team={team} />;
    case "activity":
      return <Activity team={team} />;
    case "security":
      return (
        <>
          <MfaPolicy team={team} />
          {may.manage_domains && <Domains team={team} />}
          <DomainJoin team={team} />
          <Sso team={team} />
          {may.manage_scim && <ScimTokens />}
          {may.manage_streams && <EventStreams />}
          {may.configure_sso && <SetupLinks />}
        </>
      );
    case "policy":
      return <Policies team={team} />;
  }
}

/** Where the URL should be instead, or null when it names a section this role sees. */
function redirectOf(team: Team, segment: string | undefined, hash: string, search: string): string | null {
  const shown = teamSections(team.may);
  const sees = (id: TeamSectionId | null) => id !== null && shown.some((s) => s.id === id);
  if (segment === undefined) {
    const linked = sectionOfLink(hash, search);
    return linked !== null && linked !== "members" && sees(linked) ? teamSectionPath(linked) : null;
  }
  return sees(sectionId(segment)) ? null : "/team";
}

/** The sections of `team` this role sees, and the one the URL names. */
export function TeamConsole({ team }: { team: Team }) {
  const { section: segment } = useParams();
  const { hash, search } = useLocation();
  const navigate = useNavigate();
  const target = redirectOf(team, segment, hash, search);
  useEffect(() => {
    if (target === null) return;
    // A moved link keeps its anchor and query; a refused section starts over at Members.
    const keep = target !== "/team";
    void navigate({ pathname: target, search: keep ? search : "", hash: keep ? hash : "" }, { replace: true });
  }, [target, navigate, search, hash]);
  if (target !== null) return null;
  const sections = teamSections(team.may);
  const current = sectionId(segment) ?? "members";
  // One tree whether or not there is a navigation: a role that changes meanwhile (an open dialog)
  // keeps the section's state.
  const navigable = sections.length > 1;
  return (
    <div className={navigable ? "space-y-6 lg:grid lg:grid-cols-[12rem_minmax(0,1fr)] lg:items-start lg:gap-8 lg:space-y-0" : ""}>
      {navigable && <SectionNav sections={sections} current={current} />}
      <div className="min-w-0 space-y-6">
        <SectionContent id={current} team={team} />
      </div>
    </div>
  );
}
