import type { QueryClient } from "@tanstack/react-query";
import { createMemoryRouter, Outlet, type RouteObject } from "react-router";
import { AppProviders } from "../app/providers";
import type { AuthManager } from "../lib/auth/session";

/** A memory router opened at `path` whose `routes` render inside the app's real providers. */
export function routerWithProviders(
  routes: RouteObject[],
  path: string,
  providers: { queryClient?: QueryClient; authManager?: AuthManager } = {},
) {
  return createMemoryRouter(
    [
      {
        element: (
          <AppProviders {...providers}>
            <Outlet />
          </AppProviders>
        ),
        children: routes,
      },
    ],
    { initialEntries: [path] },
  );
}
