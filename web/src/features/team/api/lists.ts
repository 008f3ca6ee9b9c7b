//! The members and invitations past `GET /api/team`'s first page. The team answers the
//! counts and the first page of each list with the cursor of the next (`members_next`,
//! `invites_next`; null when the list is whole); "Show more" reads the pages after it from
//! `GET /api/team/members` and `GET /api/team/invites`. The pages are keyed by that cursor under
//! the "team" root, so whatever reads the team again reads the pages shown again too, and a first
//! page that changed starts the later ones afresh.

import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { getTeamInvites, getTeamMembers } from "../../../lib/api/team";
import type { Team, TeamInvite, TeamMember } from "../../../lib/api/types";
import { useAuth } from "../../../lib/auth/AuthProvider";

/** The most rows the API gives a page: the transfer picker reads every member in as few as that. */
const WHOLE_PAGE = 500;

type Page<Row> = { rows: Row[]; next: string | null };

function useMore<Row>(key: string, first: Row[], next: string | null, read: (cursor: string) => Promise<Page<Row>>) {
  const { user } = useAuth();
  const [wanted, setWanted] = useState(false);
  const more = useInfiniteQuery({
    queryKey: ["team", user?.id ?? "", key, next],
    queryFn: ({ pageParam }) => read(pageParam),
    initialPageParam: next ?? "",
    getNextPageParam: (last) => last.next ?? undefined,
    enabled: wanted && next !== null,
  });
  const pages = next !== null ? (more.data?.pages ?? []) : [];
  return {
    rows: [...first, ...pages.flatMap((p) => p.rows)],
    hasMore: next !== null && (pages.length === 0 || more.hasNextPage),
    loading: more.isFetching,
    error: more.error,
    showMore() {
      setWanted(true);
      if (pages.length > 0) void more.fetchNextPage();
    },
  };
}

/** The team's members shown so far: the first page, then each page "Show more members" read. */
export function useTeamMembers(team: Team) {
  return useMore<TeamMember>("members", team.members, team.members_next ?? null, async (cursor) => {
    const page = await getTeamMembers(cursor);
    return { rows: page.members, next: page.next_cursor ?? null };
  });
}

/** The open invitations shown so far (owner and admins). */
export function useTeamInvites(team: Team) {
  return useMore<TeamInvite>("invites", team.invites, team.invites_next ?? null, async (cursor) => {
    const page = await getTeamInvites(cursor);
    return { rows: page.invites, next: page.next_cursor ?? null };
  });
}

/** Every member (ownership can go to any of them): the team's list when it is whole, else all pages. */
export function useAllTeamMembers(team: Team) {
  const { user } = useAuth();
  const whole = !team.members_next;
  const all = useQuery({
    queryKey: ["team", user?.id ?? "", "members", "all"],
    queryFn: async () => {
      const members: TeamMember[] = [];
      let cursor: string | null = null;
      do {
        const page = await getTeamMembers(cursor, WHOLE_PAGE);
        members.push(...page.members);
        cursor = page.next_cursor ?? null;
      } while (cursor !== null);
      return members;
    },
    enabled: !whole,
  });
  return { members: whole ? team.members : all.data, loading: !whole && all.isPending, error: whole ? null : all.error };
}
