import { useCallback, useEffect } from "react";
import {
  Navigate,
  useLocation,
  useNavigate,
  useNavigation,
  useOutlet,
  useRouteError,
  type ShouldRevalidateFunctionArgs,
} from "react-router";
import { AppLayout } from "../components/layout/AppLayout";
import { Button } from "../components/ui/Button";
import { Spinner } from "../components/ui/Spinner";
import { DashboardSkeleton } from "../features/dashboard/components/Dashboard";
import { UNREACHABLE } from "../lib/api/client";
import { accountLoader, ServerUnreachable } from "../lib/auth/accountLoader";
import { useAuth } from "../lib/auth/AuthProvider";
import type { Route } from "./+types/account";
import { appClients } from "./providers";

/**
 * The account area's layout route (/dashboard, /settings, /team, /success, /authorize, /activate):
 * its loader is the guard and starts the page's queries (lib/auth/accountLoader.ts); the shell is
 * rendered here once for all of them.
 */
export const clientLoader = (args: Route.ClientLoaderArgs) => accountLoader(appClients())(args);

/** Each account page has its own prefetch and the guard holds for every page: run again on a new path. */
export function shouldRevalidate({ currentUrl, nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return currentUrl.pathname !== nextUrl.pathname || defaultShouldRevalidate;
}

function PageFallback({ pathname }: { pathname: string }) {
  if (pathname === "/dashboard") return <DashboardSkeleton />;
  if (pathname === "/success")
    return (
      <div role="status" className="mx-auto max-w-xl px-4 py-16 text-center">
        <Spinner className="mx-auto h-10 w-10 text-blue-600" />
        <p className="mt-4 text-2xl font-bold text-slate-900">Activating your subscription</p>
      </div>
    );
  return (
    <p role="status" className="flex items-center justify-center gap-2 p-16 text-slate-600">
      <Spinner /> Loading...
    </p>
  );
}

/**
 * The shell, with the page once the loader has let it in (there is an outlet then) and the page's
 * own loading state before. In a memory router (the tests) the same component is the route's
 * `hydrateFallbackElement`, so the navigation bar stays mounted when the page takes the fallback's
 * place; the built app shows the root's HydrateFallback until the loader is done (SPA mode uses
 * no other).
 */
export default function AccountLayout() {
  const { status } = useAuth();
  const { pathname } = useLocation();
  const page = useOutlet();
  // Signed out while on the page (here or in another tab): home, not the sign-in page.
  if (page && status === "signedOut") return <Navigate to="/" replace />;
  return <AppLayout account>{page && status === "signedIn" ? page : <PageFallback pathname={pathname} />}</AppLayout>;
}

/**
 * The session's restore got no answer (lib/auth/accountLoader.ts): said at once, with Try again. The
 * restore keeps trying (at once when the browser is back online); once it is settled the page loads.
 */
function Unreachable() {
  const { status } = useAuth();
  const navigate = useNavigate();
  const { pathname, search, hash } = useLocation();
  const navigation = useNavigation();
  // The same page again: its loader runs anew (and asks the server at once); a new location also clears
  // this boundary, which a revalidation alone would not when it ends within the same render.
  const retry = useCallback(
    () => void navigate({ pathname, search, hash }, { replace: true }),
    [navigate, pathname, search, hash],
  );
  useEffect(() => {
    if (status !== "loading") retry();
  }, [status, retry]);
  const trying = navigation.state === "loading";
  return (
    <div role="alert" className="mx-auto max-w-xl px-4 py-16 text-center">
      <p className="text-xl font-semibold text-slate-900">{UNREACHABLE}</p>
      <Button className="mt-6" disabled={trying} aria-busy={trying} onClick={retry}>
        {trying ? "Trying again..." : "Try again"}
      </Button>
    </div>
  );
}

/** The account area's errors: the server out of reach is said here; anything else goes to the root's. */
export function ErrorBoundary() {
  const error = useRouteError();
  if (!(error instanceof ServerUnreachable)) throw error;
  return (
    <AppLayout account>
      <Unreachable />
    </AppLayout>
  );
}
