import { Building2, CheckCircle2 } from "lucide-react";
import { useState } from "react";
import toast from "react-hot-toast";
import { Button } from "../../../components/ui/Button";
import { Spinner } from "../../../components/ui/Spinner";
import { ApiError } from "../../../lib/api/client";
import { useJoinableTeams } from "../../../lib/api/queries";
import { requestToJoin } from "../../../lib/api/team";
import type { JoinableTeam } from "../../../lib/api/types";
import { errorMessage, Problem, Section, useTeamCache } from "./TeamParts";

function JoinableRow({ team, onGone }: { team: JoinableTeam; onGone: () => void }) {
  const cache = useTeamCache();
  const [state, setState] = useState<"idle" | "busy" | "sent">("idle");
  const [error, setError] = useState<string | null>(null);
  async function ask() {
    setState("busy");
    setError(null);
    try {
      await requestToJoin(team.id);
      setState("sent");
    } catch (e) {
      setState("idle");
      // In a team by now (joined or created elsewhere): show it. The team gone or domain join off: read
      // the list again. Either way this row goes, so a toast says why.
      if (e instanceof ApiError && e.code === "already_in_team") {
        toast.error(e.message);
        void cache.refresh();
      } else if (e instanceof ApiError && e.code === "team_not_found") {
        toast.error(e.message);
        onGone();
      } else setError(errorMessage(e));
    }
  }
  return (
    <li className="py-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="font-medium text-slate-900">{team.name}</p>
        {state === "sent" ? (
          <p role="status" className="flex items-center gap-2 text-sm text-green-800">
            <CheckCircle2 aria-hidden className="h-4 w-4 shrink-0" />
            <span>
              <strong className="font-semibold">Request sent.</strong> An admin of {team.name} will approve it.
            </span>
          </p>
        ) : (
          <Button
            variant="secondary"
            aria-label={`Ask to join ${team.name}`}
            disabled={state === "busy"}
            aria-busy={state === "busy"}
            onClick={() => void ask()}
          >
            {state === "busy" ? "Asking..." : "Ask to join"}
          </Button>
        )}
      </div>
      {error && <Problem className="mt-2">{error}</Problem>}
    </li>
  );
}

/** For someone in no team: the teams that turned domain join on for their verified address's domain. */
export function JoinableTeams() {
  const joinable = useJoinableTeams();
  if (joinable.isPending)
    return (
      <p role="status" className="flex items-center gap-2 text-slate-600">
        <Spinner /> Looking for your company&apos;s team...
      </p>
    );
  if (joinable.isSuccess && joinable.data.length === 0) return null;
  return (
    <Section id="join-team-title" title="Join your company's team" icon={<Building2 aria-hidden className="h-5 w-5" />}>
      {joinable.isError ? (
        <div className="mt-2">
          <Problem>Could not look for teams you can join.</Problem>
          <Button variant="secondary" className="mt-3" onClick={() => void joinable.refetch()}>
            Try again
          </Button>
        </div>
      ) : (
        <>
          <p className="mt-2 text-slate-600">
            These teams let people with a verified address at your company&apos;s domain ask to join. An admin approves it.
          </p>
          <ul aria-label="Teams you can join" className="mt-2 divide-y divide-slate-100">
            {joinable.data.map((team) => (
              <JoinableRow key={team.id} team={team} onGone={() => void joinable.refetch()} />
            ))}
          </ul>
        </>
      )}
    </Section>
  );
}
