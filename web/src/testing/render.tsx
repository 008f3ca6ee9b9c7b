//! Renders the app's real route modules in a memory router with the real providers, against the MSW
//! handlers. `signedInAs` seeds a browser whose refresh cookie belongs to that user.

import { render, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { expect } from "vitest";
import { StrictMode } from "react";
import { RouterProvider } from "react-router";
import { createQueryClient } from "../app/providers";
import AccountLayout, { ErrorBoundary as AccountErrorBoundary, shouldRevalidate } from "../app/account";
import ActivateRoute from "../app/activate";
import AuthorizeRoute from "../app/authorize";
import DashboardRoute from "../app/dashboard";
import DownloadRoute from "../app/download";
import ForgotPasswordRoute from "../app/forgot-password";
import NotFoundRoute from "../app/not-found";
import PricingRoute from "../app/pricing";
import ResetPasswordRoute from "../app/reset-password";
import SettingsRoute from "../app/settings";
import SignInRoute from "../app/signin";
import SignUpRoute from "../app/signup";
import SuccessRoute from "../app/success";
import TeamRoute from "../app/team";
import InviteRoute from "../app/invite";
import SsoConfirmRoute from "../app/sso-confirm";
import SetupRoute from "../app/setup";
import SetupReturnRoute from "../app/setup-return";
import VerifyRoute from "../app/verify";
import { accountLoader } from "../lib/auth/accountLoader";
import { AuthManager, type AuthManagerOptions } from "../lib/auth/session";
import { db } from "./db";
import { routerWithProviders } from "./router";

/** Stands in for the marketing landing page, which this suite does not test. */
function HomeStandIn() {
  return <h1>Home</h1>;
}

export function renderApp(path: string, options: { signedInAs?: string; auth?: AuthManagerOptions } = {}) {
  if (options.signedInAs) {
    db.signInBrowser(options.signedInAs);
    window.localStorage.setItem("closewise.session", "1");
  }
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false, staleTime: 0, gcTime: Infinity } });
  const authManager = new AuthManager({ channelName: `test-${Math.random()}`, ...options.auth });
  const router = routerWithProviders(
    [
      { index: true, element: <HomeStandIn /> },
      { path: "pricing", element: <PricingRoute /> },
      { path: "download", element: <DownloadRoute /> },
      { path: "signin", element: <SignInRoute /> },
      { path: "signup", element: <SignUpRoute /> },
      { path: "verify", element: <VerifyRoute /> },
      { path: "forgot-password", element: <ForgotPasswordRoute /> },
      { path: "reset-password", element: <ResetPasswordRoute /> },
      {
        loader: accountLoader({ queryClient, authManager }),
        shouldRevalidate,
        element: <AccountLayout />,
        // As the app does: the same shell while the loader runs, its error boundary (app/account.tsx).
        hydrateFallbackElement: <AccountLayout />,
        errorElement: <AccountErrorBoundary />,
        children: [
          { path: "dashboard", element: <DashboardRoute /> },
          { path: "settings", element: <SettingsRoute /> },
          { path: "success", element: <SuccessRoute /> },
          { path: "authorize", element: <AuthorizeRoute /> },
          { path: "activate", element: <ActivateRoute /> },
          { path: "team/:section?", element: <TeamRoute /> },
        ],
      },
      { path: "invite", element: <InviteRoute /> },
      { path: "sso/confirm", element: <SsoConfirmRoute /> },
      { path: "setup/:token", element: <SetupRoute /> },
      { path: "setup", element: <SetupReturnRoute /> },
      { path: "*", element: <NotFoundRoute /> },
    ],
    path,
    { queryClient, authManager },
  );
  const user = userEvent.setup();
  // StrictMode as in the app's entry: effects run twice in development, and so they do here.
  const view = render(
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>,
  );
  /**
   * Waits until no read of the page is in flight. A test that changes the server's data "meanwhile"
   * does so after this: a read still on its way would otherwise see the change and redraw the page
   * before the test acts on what it found (the element it holds would be gone).
   */
  const settled = () => waitFor(() => expect(queryClient.isFetching()).toBe(0));
  return { ...view, user, router, queryClient, authManager, settled };
}
