import { useQuery } from "@tanstack/react-query";
import { MailOpen } from "lucide-react";
import { useState } from "react";
import { Button } from "../../../components/ui/Button";
import { queryKeys } from "../../../lib/api/queries";
import { acceptInviteToMe, getInvitesToMe } from "../../../lib/api/team";
import type { InviteToMe } from "../../../lib/api/types";
import { useAuth } from "../../../lib/auth/AuthProvider";
import { roleWithArticle } from "../../../lib/team/format";
import { errorMessage, Problem, Section, useTeamCache } from "./TeamParts";

function InviteRow({ invite }: { invite: InviteToMe }) {
  const cache = useTeamCache();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function accept() {
    setBusy(true);
    setError(null);
    try {
      // The answer is the team as its new member sees it: the page becomes the team's.
      cache.set((await acceptInviteToMe(invite.id)).team);
    } catch (e) {
      setError(errorMessage(e));
      setBusy(false);
    }
  }
  return (
    <li className="py-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <p className="font-medium text-slate-900">{invite.team_name}</p>
          <p className="text-sm text-slate-600">
            {invite.invited_by ?? "The team"} invited you to join as {roleWithArticle(invite.role)}.
          </p>
        </div>
        <Button
          aria-label={`Accept the invitation to ${invite.team_name}`}
          disabled={busy}
          aria-busy={busy}
          onClick={() => void accept()}
        >
          {busy ? "Joining..." : "Accept"}
        </Button>
      </div>
      {error && <Problem className="mt-2">{error}</Problem>}
    </li>
  );
}

/** For someone in no team: the invitations to their address (`GET /api/team/invites/mine`), each accepted here. */
export function InvitesToMe() {
  const { user } = useAuth();
  const invites = useQuery({
    queryKey: queryKeys.invitesToMe(user?.id ?? ""),
    enabled: Boolean(user),
    queryFn: async () => (await getInvitesToMe()).invites,
  });
  if (!invites.data || invites.data.length === 0) return null;
  return (
    <Section id="invites-to-me-title" title="Your invitations" icon={<MailOpen aria-hidden className="h-5 w-5" />}>
      <ul aria-label="Invitations to your address" className="mt-2 divide-y divide-slate-100">
        {invites.data.map((invite) => (
          <InviteRow key={invite.id} invite={invite} />
        ))}
      </ul>
    </Section>
  );
}
