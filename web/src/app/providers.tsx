import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useEffect, useState, type ReactNode } from "react";
import { Toaster } from "react-hot-toast";
import { useLocation } from "react-router";
import { ConsentBanner } from "../components/analytics/ConsentBanner";
import { HeadingFocus } from "../components/layout/HeadingFocus";
import { config } from "../config";
import { initAnalytics, trackPageView } from "../lib/analytics";
import { accountQueryRoots } from "../lib/api/queries";
import { AuthProvider, useAuth } from "../lib/auth/AuthProvider";
import type { AccountClients } from "../lib/auth/accountLoader";
import { AuthManager } from "../lib/auth/session";
import { toasterPosition, toasterProps, useDismissStaleToasts } from "../lib/toast";

/**
 * One retry, and reads that run whatever the browser says of the network (`networkMode: "always"`): an
 * offline browser's read fails at once and the page says so (with Try again), instead of waiting paused
 * with its loading text; reads with an error run again when the browser is back online.
 */
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 30_000, networkMode: "always" },
      mutations: { retry: false, networkMode: "always" },
    },
  });
}

let browserClients: AccountClients | null = null;

/**
 * The browser's one query cache and session, shared by the providers and the account area's loader
 * (which runs before React renders). Prerendering (no window) gets fresh ones each time.
 */
export function appClients(): AccountClients {
  if (typeof window === "undefined") return { queryClient: createQueryClient(), authManager: new AuthManager() };
  browserClients ??= { queryClient: createQueryClient(), authManager: new AuthManager() };
  return browserClients;
}

/** Runs before the providers' effect below starts analytics: analytics queues the first view. */
function PageViews() {
  const { pathname } = useLocation();
  useEffect(() => {
    trackPageView(pathname);
  }, [pathname]);
  return null;
}

/** The toast area: placed for the page, and the page's error toasts gone when the visitor moves on. */
function Toasts() {
  const { pathname } = useLocation();
  useDismissStaleToasts(pathname);
  return <Toaster {...toasterProps} position={toasterPosition(pathname)} />;
}

/** Drops cached account data when the user signs out (here or in another tab). */
function ForgetOnSignOut({ client }: { client: QueryClient }) {
  const { status } = useAuth();
  useEffect(() => {
    if (status === "signedOut") {
      for (const root of accountQueryRoots) client.removeQueries({ queryKey: [root] });
    }
  }, [status, client]);
  return null;
}

export function AppProviders({
  children,
  queryClient,
  authManager,
}: {
  children: ReactNode;
  queryClient?: QueryClient;
  authManager?: AuthManager;
}) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  useEffect(() => {
    void initAnalytics({ key: config.analyticsKey, host: config.analyticsHost });
  }, []);
  return (
    <QueryClientProvider client={client}>
      <AuthProvider manager={authManager}>
        <PageViews />
        <HeadingFocus />
        <ForgetOnSignOut client={client} />
        {children}
        <Toasts />
        <ConsentBanner />
      </AuthProvider>
    </QueryClientProvider>
  );
}
