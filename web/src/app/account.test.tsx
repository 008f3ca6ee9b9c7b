import { render, screen, waitFor } from "@testing-library/react";
import { http } from "msw";
import { StrictMode } from "react";
import { RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { queryKeys } from "../lib/api/queries";
import { accountLoader } from "../lib/auth/accountLoader";
import { AuthManager } from "../lib/auth/session";
import { db } from "../testing/db";
import { refuse } from "../testing/handlers";
import { routerWithProviders } from "../testing/router";
import { server } from "../testing/server";
import AccountLayout from "./account";
import DashboardRoute from "./dashboard";
import { createQueryClient } from "./providers";

const DATA = ["/api/plan", "/api/subscription", "/api/entitlements"];
const REFRESH = "/api/auth/token";

function gate() {
  let open!: () => void;
  const closed = new Promise<void>((resolve) => (open = resolve));
  return { closed, open };
}

/**
 * The account layout with its real loader over a dashboard whose code arrives when `chunk` opens,
 * as a lazily loaded route's does; `log` lists the requests' starts and ends and the chunk's arrival.
 */
function renderAccount(path: string, chunk: Promise<void>) {
  const log: string[] = [];
  const pathOf = (request: Request) => new URL(request.url).pathname;
  server.events.on("request:start", ({ request }) => void log.push(`start ${pathOf(request)}`));
  server.events.on("response:mocked", ({ request }) => void log.push(`end ${pathOf(request)}`));
  const queryClient = createQueryClient();
  // The app's freshness (30 s): the page takes what the loader read.
  queryClient.setDefaultOptions({ queries: { retry: false, staleTime: 30_000, gcTime: Infinity } });
  const authManager = new AuthManager({ channelName: `test-${Math.random()}` });
  const router = routerWithProviders(
    [
      { path: "signin", element: <h1>Sign In</h1> },
      {
        loader: accountLoader({ queryClient, authManager }),
        element: <AccountLayout />,
        hydrateFallbackElement: <AccountLayout />,
        children: [
          {
            path: "dashboard",
            lazy: async () => {
              await chunk;
              log.push("chunk loaded");
              return { Component: DashboardRoute };
            },
          },
        ],
      },
    ],
    path,
    { queryClient, authManager },
  );
  render(
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>,
  );
  return { router, log, queryClient };
}

describe("the account layout's loader", () => {
  it("sends a signed-out visitor to sign in with the way back, and reads no account data", async () => {
    db.createUser({ email: "ana@example.com" });
    const { router, log } = renderAccount("/dashboard?from=mail", Promise.resolve());
    await waitFor(() => expect(router.state.location.pathname).toBe("/signin"));
    expect(router.state.location.search).toBe(`?next=${encodeURIComponent("/dashboard?from=mail")}`);
    // No hint in storage, so the server was asked once before sending the visitor away.
    expect(log).toContain(`start ${REFRESH}`);
    expect(log.filter((entry) => DATA.some((path) => entry === `start ${path}`))).toEqual([]);
  });

  it("starts the dashboard's three queries together right after the refresh, before the page's code is in", async () => {
    db.createUser({ email: "ana@example.com" });
    db.signInBrowser("ana@example.com");
    window.localStorage.setItem("closewise.session", "1");
    const chunk = gate();
    const answers = gate();
    // Each read waits at the server until `answers` opens, then gets the mock API's own answer.
    server.use(...DATA.map((path) => http.get(`*${path}`, async () => void (await answers.closed))));
    const { log, queryClient } = renderAccount("/dashboard", chunk.closed);

    await waitFor(() => expect(log.filter((entry) => entry.startsWith("start /api/")).length).toBe(1 + DATA.length));
    const starts = DATA.map((path) => log.indexOf(`start ${path}`));
    // After the refresh (the token), all three under way at once, and none waited for the route's code.
    expect(Math.min(...starts)).toBeGreaterThan(log.indexOf(`end ${REFRESH}`));
    expect(log.some((entry) => DATA.some((path) => entry === `end ${path}`))).toBe(false);
    expect(log).not.toContain("chunk loaded");

    answers.open();
    await waitFor(() => expect(log.filter((entry) => DATA.some((path) => entry === `end ${path}`))).toHaveLength(3));
    const user = db.findUser("ana@example.com")!.user;
    expect(queryClient.getQueryData(queryKeys.entitlements(user.id))).toBeDefined();
    chunk.open();
    expect(await screen.findByRole("heading", { name: "Dashboard", level: 1 })).toBeInTheDocument();
    // The page used the prefetched answers: no second read of any of them.
    expect(log.filter((entry) => entry === "start /api/plan")).toHaveLength(1);
  });

  it("keeps waiting through a restore that fails for a reason that passes (429), and opens the page", async () => {
    db.createUser({ email: "ana@example.com" });
    db.signInBrowser("ana@example.com");
    window.localStorage.setItem("closewise.session", "1");
    server.use(refuse("post", "/api/auth/token", 429, "rate_limited", "Too many requests.", { once: true }));
    const { router, log } = renderAccount("/dashboard", Promise.resolve());
    expect(await screen.findByRole("heading", { name: "Dashboard", level: 1 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/dashboard");
    expect(log.filter((entry) => entry === `start ${REFRESH}`)).toHaveLength(2);
    expect(window.localStorage.getItem("closewise.session")).toBe("1");
  });
});
