import { AppLayout } from "../components/layout/AppLayout";
import { RequireAuth } from "../components/layout/RequireAuth";
import { Spinner } from "../components/ui/Spinner";
import { Authorize } from "../features/desktop/components/Authorize";
import { useAuth } from "../lib/auth/AuthProvider";
import { pageMeta } from "./meta";

export const meta = () =>
  pageMeta("Sign in to the app", "Let the Closewise desktop app sign in to your account.", { index: false });

function Content() {
  const { user } = useAuth();
  return user ? <Authorize user={user} /> : null;
}

export default function AuthorizeRoute() {
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
