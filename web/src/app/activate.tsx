import { AppLayout } from "../components/layout/AppLayout";
import { RequireAuth } from "../components/layout/RequireAuth";
import { Spinner } from "../components/ui/Spinner";
import { Activate } from "../features/desktop/components/Activate";
import { useAuth } from "../lib/auth/AuthProvider";
import { pageMeta } from "./meta";

export const meta = () =>
  pageMeta("Activate the app", "Enter the code the Closewise desktop app shows to sign it in.", { index: false });

function Content() {
  const { user } = useAuth();
  return user ? <Activate user={user} /> : null;
}

export default function ActivateRoute() {
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
