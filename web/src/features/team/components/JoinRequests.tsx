import { UserPlus } from "lucide-react";
import toast from "react-hot-toast";
import { Button } from "../../../components/ui/Button";
import { Spinner } from "../../../components/ui/Spinner";
import { ApiError } from "../../../lib/api/client";
import { useJoinRequests } from "../../../lib/api/queries";
import type { JoinRequest, Team } from "../../../lib/api/types";
import { useDecideJoinRequest } from "../api/teamMutations";
import { errorMessage, Problem, Section, shortDate } from "./TeamParts";

function RequestRow({ team, request }: { team: Team; request: JoinRequest }) {
  // The team (members, seats) and the requests are read again together, after a refusal too.
  const decision = useDecideJoinRequest();
  const busy = decision.isPending ? decision.variables.decision : null;
  // Decided elsewhere: the row goes with the refresh, and a toast says why.
  const gone = decision.error instanceof ApiError && decision.error.status === 404;
  const error = decision.isError && !gone ? errorMessage(decision.error) : null;
  function decide(choice: "approve" | "deny") {
    decision.mutate(
      { id: request.id, decision: choice },
      {
        onSuccess: () =>
          void toast.success(
            choice === "approve" ? `${request.email} joined ${team.name}` : `Request from ${request.email} denied`,
          ),
        onError: (e) => {
          if (e instanceof ApiError && e.status === 404) toast.error(e.message);
        },
      },
    );
  }
  return (
    <li className="py-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <p className="break-all font-medium text-slate-900">{request.email}</p>
          <p className="text-sm text-slate-600">
            Asked <time dateTime={request.created_at}>{shortDate(request.created_at)}</time>
          </p>
        </div>
        <div className="flex gap-2">
          <Button
            aria-label={`Approve ${request.email}`}
            disabled={busy !== null}
            aria-busy={busy === "approve"}
            onClick={() => decide("approve")}
          >
            {busy === "approve" ? "Approving..." : "Approve"}
          </Button>
          <Button
            variant="ghost"
            aria-label={`Deny ${request.email}`}
            disabled={busy !== null}
            aria-busy={busy === "deny"}
            onClick={() => decide("deny")}
          >
            {busy === "deny" ? "Denying..." : "Deny"}
          </Button>
        </div>
      </div>
      {error && <Problem className="mt-2">{error}</Problem>}
    </li>
  );
}

/**
 * Requests to join through domain join (owner and admins): shown while there are undecided ones, or
 * with an empty note while domain join is on.
 */
export function JoinRequests({ team }: { team: Team }) {
  const requests = useJoinRequests(true);
  const on = team.join_domain !== null;
  if (!on && (requests.isPending || (requests.isSuccess && requests.data.length === 0))) return null;
  return (
    <Section id="join-requests-title" title="Join requests" icon={<UserPlus aria-hidden className="h-5 w-5" />}>
      {requests.isPending ? (
        <p role="status" className="mt-2 flex items-center gap-2 text-slate-600">
          <Spinner /> Loading join requests...
        </p>
      ) : requests.isError ? (
        <div className="mt-2">
          <Problem>Could not load the requests to join.</Problem>
          <Button variant="secondary" className="mt-3" onClick={() => void requests.refetch()}>
            Try again
          </Button>
        </div>
      ) : requests.data.length === 0 ? (
        <p className="mt-2 text-slate-600">
          No one is waiting to join. People at {team.join_domain} can ask from their Team page.
        </p>
      ) : (
        <ul aria-label="Pending join requests" className="mt-2 divide-y divide-slate-100">
          {requests.data.map((request) => (
            <RequestRow key={request.id} team={team} request={request} />
          ))}
        </ul>
      )}
    </Section>
  );
}
