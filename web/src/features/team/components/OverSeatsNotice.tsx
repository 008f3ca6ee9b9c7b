import { AlertTriangle } from "lucide-react";
import { Link } from "react-router";
import type { Team } from "../../../lib/api/types";

const seats = (n: number) => (n === 1 ? "1 seat" : `${n} seats`);

/**
 * Stripe lowered the team's seats below its members (`over_seats`): nobody was removed, but nobody
 * new gets in until the seats cover the members. Whoever may change the seats (`may.change_seats`) is
 * told how many are missing and the two ways out; the others only that invites are paused.
 */
export function OverSeatsNotice({ team }: { team: Team }) {
  const members = team.members_count;
  return (
    <section aria-labelledby="over-seats-title" className="rounded-2xl border border-amber-300 bg-amber-50 p-6 text-amber-950">
      <h2 id="over-seats-title" className="flex items-center gap-2 text-lg font-semibold">
        <AlertTriangle aria-hidden className="h-5 w-5" /> Fewer seats than members
      </h2>
      {team.may.change_seats ? (
        <p className="mt-2 text-sm">
          {team.name} has {seats(team.seats.total)} for {members} members: {seats(team.seats_missing)} missing. Nobody was
          removed, but nobody can be invited or join until every member has a seat. Buy {team.seats_missing} more in{" "}
          <Link to="/team/billing" className="font-medium underline hover:text-amber-900">
            Seats &amp; billing
          </Link>
          , or remove members.
        </p>
      ) : (
        <p className="mt-2 text-sm">
          {team.name} has fewer seats than members. Nobody was removed, but invitations and join requests are paused until the
          owner adds seats.
        </p>
      )}
    </section>
  );
}
