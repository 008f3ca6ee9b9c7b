import { afterEach, describe, expect, it, vi } from "vitest";

const capture = vi.fn();
const init = vi.fn();
vi.mock("posthog-js", () => ({ default: { init, capture } }));

import { initAnalytics, resetAnalyticsForTests, track, trackPageView } from "./analytics";

afterEach(() => {
  resetAnalyticsForTests();
  capture.mockReset();
  init.mockReset();
});

describe("analytics", () => {
  it("sends nothing and never loads PostHog without a key", async () => {
    await initAnalytics({ key: null, host: "https://ph.example.com" });
    track("user_signed_in");
    trackPageView("/pricing");
    expect(init).not.toHaveBeenCalled();
    expect(capture).not.toHaveBeenCalled();
    expect(document.cookie).toBe("");
  });

  it("sends events and page views to PostHog when a key is configured, including ones tracked while it loads", async () => {
    const ready = initAnalytics({ key: "phc_test", host: "https://ph.example.com" });
    track("app_download_started", { arch: "arm64" });
    await ready;
    trackPageView("/dashboard");
    expect(init).toHaveBeenCalledWith("phc_test", expect.objectContaining({ api_host: "https://ph.example.com" }));
    expect(capture).toHaveBeenCalledWith("app_download_started", { arch: "arm64" });
    expect(capture).toHaveBeenCalledWith("$pageview", expect.objectContaining({ path: "/dashboard" }));
  });
});
