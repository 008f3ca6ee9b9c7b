//! The account area's guard and prefetch, run by its layout route's loader before any account page
//! renders: the session is restored (or asked for once when the hint says there is none), signed-out
//! visitors go to /signin with the way back in `next`, and the queries the page needs start at once,
//! side by side and while the page's code is still loading, instead of after it and one by one.

import type { QueryClient } from "@tanstack/react-query";
import { redirect } from "react-router";
import { setAuthBridge } from "../api/client";
import {
  devicesQuery,
  entitlementsQuery,
  mfaQuery,
  passkeysQuery,
  planQuery,
  subscriptionQuery,
  teamQuery,
} from "../api/queries";
import type { User } from "../api/types";
import type { AuthManager } from "./session";

export interface AccountClients {
  queryClient: QueryClient;
  authManager: AuthManager;
}

/** What each account page reads first; pages not listed fetch what they need themselves. */
const prefetches: Record<string, (client: QueryClient, user: User) => Promise<unknown>[]> = {
  "/dashboard": (client, user) => [
    client.ensureQueryData(planQuery(user)),
    client.ensureQueryData(subscriptionQuery(user.id)),
    client.ensureQueryData(entitlementsQuery(user.id)),
  ],
  "/settings": (client, user) => [
    client.ensureQueryData(mfaQuery(user.id)),
    client.ensureQueryData(passkeysQuery(user.id)),
    client.ensureQueryData(devicesQuery(user.id)),
  ],
  "/team": (client, user) => [client.ensureQueryData(teamQuery(user.id))],
};

/** How long a guarded page waits for the session before saying the server cannot be reached. */
export const UNREACHABLE_AFTER_MS = 5000;

/** The loader's answer when the session's restore gets no answer: the route's error boundary says so. */
export class ServerUnreachable extends Error {
  override name = "ServerUnreachable";
}

/** The signed-in user, once the session is known; null when there is none. */
async function restoredUser(authManager: AuthManager): Promise<User | null> {
  setAuthBridge(authManager);
  void authManager.start();
  // Try again (a new run of this loader) asks at once instead of waiting for the next retry.
  authManager.retryNow();
  let state = await authManager.settledOrUnreachable(UNREACHABLE_AFTER_MS);
  if (state !== "unreachable" && authManager.mayHaveSession()) {
    // The hint said no session, but a cookie set elsewhere may hold one: ask the server once.
    void authManager.ensureRestored();
    state = await authManager.settledOrUnreachable(UNREACHABLE_AFTER_MS);
  }
  if (state === "unreachable") throw new ServerUnreachable();
  return state.user;
}

/**
 * The layout route's loader. The prefetches are not awaited: the page renders with them on the way
 * and shows its own loading state and errors (Try again) as the queries settle.
 */
export function accountLoader({ queryClient, authManager }: AccountClients) {
  return async ({ request }: { request: Request }): Promise<Response | null> => {
    const user = await restoredUser(authManager);
    const url = new URL(request.url);
    if (!user) return redirect(`/signin?next=${encodeURIComponent(`${url.pathname}${url.search}`)}`);
    for (const fetching of prefetches[url.pathname]?.(queryClient, user) ?? []) {
      // A failed read is the page's to show (the query keeps the error); nothing to do here.
      void fetching.catch(() => undefined);
    }
    return null;
  };
}
