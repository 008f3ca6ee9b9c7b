import { AppLayout } from "../components/layout/AppLayout";
import { RequireAuth } from "../components/layout/RequireAuth";
import { DashboardContent } from "../features/dashboard/components/Dashboard";
import { useAuth } from "../lib/auth/AuthProvider";
import { pageMeta } from "./meta";

export const meta = () => pageMeta("Dashboard", "Your Closewise plan, subscription and downloads.", { index: false });

function Loading() {
  return (
    <div className="mx-auto max-w-5xl px-4 py-8 sm:px-6 lg:px-8">
      <div className="h-10" />
      <p role="status" className="mt-6 text-slate-600">
        Loading your dashboard...
      </p>
      <div aria-hidden className="mt-6 h-40 animate-pulse rounded-2xl bg-slate-200/70" />
      <div aria-hidden className="mt-6 h-56 animate-pulse rounded-2xl bg-slate-200/70" />
    </div>
  );
}

function Content() {
  const { user } = useAuth();
  return user ? <DashboardContent user={user} /> : null;
}

export default function DashboardRoute() {
  return (
    <AppLayout>
      <RequireAuth fallback={<Loading />}>
        <Content />
      </RequireAuth>
    </AppLayout>
  );
}
