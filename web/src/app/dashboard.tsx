import { AppLayout } from "../components/layout/AppLayout";
import { RequireAuth } from "../components/layout/RequireAuth";
import { DashboardContent, DashboardSkeleton } from "../features/dashboard/components/Dashboard";
import { useAuth } from "../lib/auth/AuthProvider";
import { pageMeta } from "./meta";

export const meta = () => pageMeta("Dashboard", "Your Closewise plan, subscription and downloads.", { index: false });

function Content() {
  const { user } = useAuth();
  return user ? <DashboardContent user={user} /> : null;
}

export default function DashboardRoute() {
  return (
    <AppLayout>
      <RequireAuth fallback={<DashboardSkeleton />}>
        <Content />
      </RequireAuth>
    </AppLayout>
  );
}
