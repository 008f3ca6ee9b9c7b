import { AppLayout } from "../components/layout/AppLayout";
import { RequireAuth } from "../components/layout/RequireAuth";
import { Spinner } from "../components/ui/Spinner";
import { TeamPage } from "../features/team/components/Team";
import { pageMeta } from "./meta";

export const meta = () => pageMeta("Team", "Your Closewise sales team: members, invitations and seats.", { index: false });

export default function TeamRoute() {
  return (
    <AppLayout>
      <RequireAuth
        fallback={
          <p role="status" className="flex items-center justify-center gap-2 p-16 text-slate-600">
            <Spinner /> Loading...
          </p>
        }
      >
        <TeamPage />
      </RequireAuth>
    </AppLayout>
  );
}
