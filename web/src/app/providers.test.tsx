import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Link, RouterProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type * as ConfigModule from "../config";
import { resetAnalyticsForTests } from "../lib/analytics";
import { routerWithProviders } from "../testing/router";

const posthog = vi.hoisted(() => ({
  init: vi.fn(),
  capture: vi.fn<(event: string, props?: { path?: string }) => void>(),
  opt_out_capturing: vi.fn(),
}));
vi.mock("posthog-js", () => ({ default: posthog }));
vi.mock("../config", async (importOriginal) => {
  const actual = await importOriginal<typeof ConfigModule>();
  return { ...actual, config: { ...actual.config, analyticsKey: "phc_test", analyticsHost: "https://ph.example.com" } };
});

afterEach(() => {
  resetAnalyticsForTests();
  posthog.init.mockReset();
  posthog.capture.mockReset();
});

function renderPages() {
  const router = routerWithProviders(
    [
      { path: "/", element: <Link to="/pricing?plan=monthly#cards">Pricing</Link> },
      { path: "/pricing", element: <h1>Pricing</h1> },
    ],
    "/",
  );
  return render(<RouterProvider router={router} />);
}

const pageViews = () => posthog.capture.mock.calls.filter(([event]) => event === "$pageview").map(([, props]) => props?.path);

describe("analytics in the app", () => {
  it("asks for consent with a key configured, and sends nothing before the answer", async () => {
    renderPages();
    expect(await screen.findByRole("region", { name: "Analytics consent" })).toBeInTheDocument();
    expect(posthog.init).not.toHaveBeenCalled();
    expect(posthog.capture).not.toHaveBeenCalled();
  });

  it("keeps the first page view, tracked before analytics starts, and sends page views in order after Accept", async () => {
    const user = userEvent.setup();
    renderPages();
    await user.click(await screen.findByRole("button", { name: "Accept" }));
    await waitFor(() => expect(pageViews()).toEqual(["/"]));
    await user.click(screen.getByRole("link", { name: "Pricing" }));
    await waitFor(() => expect(pageViews()).toEqual(["/", "/pricing"]));
    expect(JSON.stringify(posthog.capture.mock.calls)).not.toMatch(/plan=monthly|#cards/);
  });

  it("with consent given on an earlier visit, sends the first page view without asking", async () => {
    window.localStorage.setItem("closewise.analyticsConsent", "granted");
    renderPages();
    await waitFor(() => expect(pageViews()).toEqual(["/"]));
    expect(screen.queryByRole("region", { name: "Analytics consent" })).not.toBeInTheDocument();
  });
});
