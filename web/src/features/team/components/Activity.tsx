import { useInfiniteQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "../../../components/ui/Button";
import { Select } from "../../../components/ui/Select";
import { useAuthManager } from "../../../lib/auth/AuthProvider";
import { downloadExport, getTeamAudit } from "../../../lib/api/teamAdoption";
import type { Team } from "../../../lib/api/types";
import { describeActivity } from "../../../lib/team/activity";
import { ACTIVITY_FILTERS } from "./activityFilters";
import { errorMessage, Problem, Section, shortDate } from "./TeamParts";

/** `/team` → Activity (whoever `may.view_activity`): the team's audit trail, filterable, exportable. */
export function Activity({ team }: { team: Team }) {
  const auth = useAuthManager();
  const [action, setAction] = useState("");
  const [error, setError] = useState<string | null>(null);
  const pages = useInfiniteQuery({
    queryKey: ["team-audit", team.id, action],
    queryFn: ({ pageParam }) => getTeamAudit({ cursor: pageParam, limit: 50, action: action || undefined }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    enabled: team.may.view_activity,
  });
  if (!team.may.view_activity) return null;
  const entries = pages.data?.pages.flatMap((p) => p.entries) ?? [];
  const query = action ? `?action=${encodeURIComponent(action)}` : "";
  const save = (ext: "csv" | "jsonl") =>
    void downloadExport(`/api/team/audit.${ext}${query}`, `team-activity.${ext}`, auth.accessToken()).catch((e: unknown) =>
      setError(errorMessage(e)),
    );
  return (
    <Section id="team-activity" title="Activity">
      <div className="mt-4 flex flex-wrap items-end gap-3">
        <label className="flex items-center gap-2 text-sm text-slate-700">
          Action
          <Select className="py-1.5 text-sm" value={action} onChange={(e) => setAction(e.target.value)}>
            <option value="">All</option>
            {ACTIVITY_FILTERS.map((f) => (
              <option key={f.label} value={f.actions.join(",")}>
                {f.label}
              </option>
            ))}
          </Select>
        </label>
        <Button variant="secondary" onClick={() => save("csv")}>
          Export CSV
        </Button>
        <Button variant="secondary" onClick={() => save("jsonl")}>
          Export JSON lines
        </Button>
      </div>
      {pages.isError && <Problem className="mt-3">{errorMessage(pages.error)}</Problem>}
      {error && <Problem className="mt-3">{error}</Problem>}
      <ul className="mt-4 divide-y text-sm">
        {entries.map((e) => (
          <li key={e.id} className="py-2">
            <span className="font-medium">{describeActivity(e)}</span> —{" "}
            <time dateTime={e.created_at} title={new Date(e.created_at).toLocaleString("en-US")}>
              {shortDate(e.created_at)}
            </time>
          </li>
        ))}
      </ul>
      {pages.hasNextPage && (
        <Button variant="secondary" className="mt-3" onClick={() => void pages.fetchNextPage()}>
          Show more
        </Button>
      )}
    </Section>
  );
}
