import { DashboardContent } from "../features/dashboard/components/Dashboard";
import { useAuth } from "../lib/auth/AuthProvider";
import { pageMeta } from "./meta";

export const meta = () => pageMeta("Dashboard", "Your Closewise plan, subscription and downloads.", { index: false });

/** Inside the account layout (app/account.tsx): its loader has restored the session. */
export default function DashboardRoute() {
  const { user } = useAuth();
  return user ? <DashboardContent user={user} /> : null;
}
