import { ArrowLeft, CheckCircle2 } from "lucide-react";
import { useEffect, useRef } from "react";
import { Link } from "react-router";
import { Button } from "../../../components/ui/Button";
import { Spinner } from "../../../components/ui/Spinner";
import { useTeam } from "../../../lib/api/queries";
import type { Team as TeamData } from "../../../lib/api/types";
import { CreateTeam } from "./CreateTeam";
import { InvitesToMe } from "./InvitesToMe";
import { JoinableTeams } from "./JoinableTeams";
import { OverlapNotice } from "./OverlapNotice";
import { OverSeatsNotice } from "./OverSeatsNotice";
import { TeamConsole } from "./TeamConsole";
import { Problem, TEAM_PAGE_HEADING } from "./TeamParts";
import { TeamSummary } from "./TeamSummary";
import { type CheckoutReturn, useCheckoutReturn } from "./useCheckoutReturn";

export function TeamLoading({ text = "Loading your team..." }: { text?: string }) {
  return (
    <p role="status" className="flex items-center gap-2 text-slate-600">
      <Spinner /> {text}
    </p>
  );
}

function CheckoutResult({ result }: { result: CheckoutReturn }) {
  if (result.kind === "confirming") return <TeamLoading text="Activating the team's subscription..." />;
  if (result.kind === "done")
    return (
      <p role="status" className="flex items-center gap-2 rounded-xl border border-green-200 bg-green-50 p-4 text-green-900">
        <CheckCircle2 aria-hidden className="h-5 w-5 shrink-0" /> Payment successful. Everyone with a seat has the paid plan now.
      </p>
    );
  if (result.kind === "failed")
    return (
      <div>
        <Problem>{result.message}</Problem>
        <Button variant="secondary" className="mt-3" onClick={result.retry}>
          Try again
        </Button>
      </div>
    );
  return null;
}

/** The notices and the summary above the console; TeamConsole shows the section the URL names. */
function TeamView({ team }: { team: TeamData }) {
  return (
    <>
      {team.over_seats && <OverSeatsNotice team={team} />}
      {team.personal_subscription_overlap && <OverlapNotice teamName={team.name} />}
      <TeamSummary team={team} />
      <TeamConsole team={team} />
    </>
  );
}

/**
 * After leaving or deleting the team (or finding oneself out of it) the whole view goes, with the
 * element that had focus: focus moves to the page's heading instead of being lost.
 */
function useFocusWhenTeamGoes(hasTeam: boolean) {
  const had = useRef(hasTeam);
  useEffect(() => {
    const lost = !document.activeElement || document.activeElement === document.body;
    if (had.current && !hasTeam && lost) document.getElementById(TEAM_PAGE_HEADING)?.focus();
    had.current = hasTeam;
  }, [hasTeam]);
}

function Body() {
  const team = useTeam();
  useFocusWhenTeamGoes(Boolean(team.data));
  if (team.isPending) return <TeamLoading />;
  if (team.isError)
    return (
      <div>
        <Problem>Could not load your team.</Problem>
        <Button variant="secondary" className="mt-3" onClick={() => void team.refetch()}>
          Try again
        </Button>
      </div>
    );
  return team.data ? (
    <TeamView team={team.data} />
  ) : (
    <>
      <InvitesToMe />
      <JoinableTeams />
      <CreateTeam />
    </>
  );
}

/** `/team` and `/team/<section>`: the caller's sales team, or joining or creating one. */
export function TeamPage() {
  const checkout = useCheckoutReturn();
  return (
    <div className="mx-auto max-w-6xl space-y-6 px-4 py-8 sm:px-6 lg:px-8">
      <Link
        to="/dashboard"
        className="inline-flex items-center gap-1 rounded text-sm font-medium text-slate-600 hover:text-slate-900"
      >
        <ArrowLeft aria-hidden className="h-4 w-4" /> Back to Dashboard
      </Link>
      <h1 id={TEAM_PAGE_HEADING} tabIndex={-1} className="text-3xl font-bold tracking-tight text-slate-900">
        Team
      </h1>
      <CheckoutResult result={checkout} />
      <Body />
    </div>
  );
}
