import { AppLayout } from "../components/layout/AppLayout";
import { RequireAuth } from "../components/layout/RequireAuth";
import { Spinner } from "../components/ui/Spinner";
import { Settings } from "../features/settings/components/Settings";
import { useAuth } from "../lib/auth/AuthProvider";
import { pageMeta } from "./meta";

export const meta = () => pageMeta("Settings", "Your Closewise account settings.", { index: false });

function Content() {
  const { user } = useAuth();
  return user ? <Settings user={user} /> : null;
}

export default function SettingsRoute() {
  return (
    <AppLayout>
      <RequireAuth
        fallback={
          <p role="status" className="flex items-center justify-center gap-2 p-16 text-slate-600">
            <Spinner /> Loading...
          </p>
        }
      >
        <Content />
      </RequireAuth>
    </AppLayout>
  );
}
