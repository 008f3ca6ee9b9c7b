import { AppLayout } from "../components/layout/AppLayout";
import { RequireAuth } from "../components/layout/RequireAuth";
import { Spinner } from "../components/ui/Spinner";
import { Success } from "../features/checkout/components/Success";
import { useAuth } from "../lib/auth/AuthProvider";
import { pageMeta } from "./meta";

export const meta = () => pageMeta("Payment Successful", "Your Closewise subscription.", { index: false });

function Content() {
  const { user } = useAuth();
  return user ? <Success user={user} /> : null;
}

export default function SuccessRoute() {
  return (
    <AppLayout>
      <RequireAuth
        fallback={
          <div role="status" className="mx-auto max-w-xl px-4 py-16 text-center">
            <Spinner className="mx-auto h-10 w-10 text-blue-600" />
            <p className="mt-4 text-2xl font-bold text-slate-900">Activating your subscription</p>
          </div>
        }
      >
        <Content />
      </RequireAuth>
    </AppLayout>
  );
}
