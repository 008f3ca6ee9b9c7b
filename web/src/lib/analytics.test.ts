import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type * as AnalyticsModule from "./analytics";

// The fake counts how often posthog-js is imported: it must not be, before consent.
const posthog = vi.hoisted(() => ({
  imports: 0,
  init: vi.fn<(key: string, config: Record<string, unknown>) => void>(),
  capture: vi.fn<(event: string, props?: Record<string, unknown>) => void>(),
  opt_out_capturing: vi.fn(),
}));
vi.mock("posthog-js", () => {
  posthog.imports += 1;
  return { default: { init: posthog.init, capture: posthog.capture, opt_out_capturing: posthog.opt_out_capturing } };
});

type Analytics = typeof AnalyticsModule;
const options = { key: "phc_test", host: "https://ph.example.com" };
const CONSENT_KEY = "closewise.analyticsConsent";

/** A fresh copy of the module, as on a new page load. */
async function load(): Promise<Analytics> {
  vi.resetModules();
  return import("./analytics");
}

function setNavigator(name: "globalPrivacyControl" | "doNotTrack", value: unknown) {
  Object.defineProperty(window.navigator, name, { configurable: true, get: () => value });
}

async function settle() {
  await vi.waitFor(() => expect(posthog.init).toHaveBeenCalled());
}

beforeEach(() => {
  posthog.imports = 0;
  posthog.init.mockReset();
  posthog.capture.mockReset();
  posthog.opt_out_capturing.mockReset();
  window.history.replaceState(null, "", "/");
});

afterEach(() => {
  setNavigator("globalPrivacyControl", undefined);
  setNavigator("doNotTrack", null);
});

describe("analytics without a key", () => {
  it("sends nothing, loads nothing, stores nothing and asks nothing", async () => {
    const analytics = await load();
    analytics.trackPageView("/pricing");
    await analytics.initAnalytics({ key: null, host: options.host });
    analytics.track("user_signed_in");
    expect(analytics.getConsentState()).toBe("unavailable");
    analytics.setAnalyticsConsent("granted");
    await Promise.resolve();
    expect(posthog.imports).toBe(0);
    expect(posthog.capture).not.toHaveBeenCalled();
    expect(document.cookie).toBe("");
    expect(window.localStorage.length).toBe(0);
  });
});

describe("analytics with a key, before consent", () => {
  it("asks, and neither loads PostHog, sends, nor stores anything until the visitor accepts", async () => {
    const analytics = await load();
    await analytics.initAnalytics(options);
    analytics.trackPageView("/");
    analytics.track("pricing_interaction", { action: "view" });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(analytics.getConsentState()).toBe("pending");
    expect(posthog.imports).toBe(0);
    expect(posthog.init).not.toHaveBeenCalled();
    expect(posthog.capture).not.toHaveBeenCalled();
    expect(document.cookie).toBe("");
    expect(window.localStorage.length).toBe(0);
  });

  it("after Accept, loads PostHog and sends what was tracked meanwhile, in order, then the rest", async () => {
    const analytics = await load();
    await analytics.initAnalytics(options);
    analytics.trackPageView("/");
    analytics.track("app_download_started", { arch: "arm64" });
    analytics.setAnalyticsConsent("granted");
    await settle();
    analytics.trackPageView("/pricing");
    expect(window.localStorage.getItem(CONSENT_KEY)).toBe("granted");
    expect(posthog.imports).toBe(1);
    expect(posthog.init).toHaveBeenCalledWith(
      "phc_test",
      expect.objectContaining({ api_host: "https://ph.example.com", autocapture: false, capture_pageview: false }),
    );
    expect(posthog.capture.mock.calls.map(([event, props]) => [event, props?.path])).toEqual([
      ["$pageview", "/"],
      ["app_download_started", undefined],
      ["$pageview", "/pricing"],
    ]);
  });

  it("after Decline, drops what was queued, never loads PostHog, and remembers the choice on the next visit", async () => {
    let analytics = await load();
    await analytics.initAnalytics(options);
    analytics.trackPageView("/");
    analytics.setAnalyticsConsent("denied");
    expect(analytics.getConsentState()).toBe("denied");
    expect(window.localStorage.getItem(CONSENT_KEY)).toBe("denied");

    analytics = await load();
    analytics.trackPageView("/pricing");
    await analytics.initAnalytics(options);
    analytics.track("user_signed_in");
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(analytics.getConsentState()).toBe("denied");
    expect(posthog.imports).toBe(0);
    expect(posthog.capture).not.toHaveBeenCalled();
    expect(document.cookie).toBe("");
  });

  it("remembers Accept on the next visit and starts without asking", async () => {
    window.localStorage.setItem(CONSENT_KEY, "granted");
    const analytics = await load();
    analytics.trackPageView("/dashboard");
    await analytics.initAnalytics(options);
    expect(analytics.getConsentState()).toBe("granted");
    expect(posthog.capture).toHaveBeenCalledWith("$pageview", expect.objectContaining({ path: "/dashboard" }));
  });

  it("tells the banner when the state changes", async () => {
    const analytics = await load();
    const listener = vi.fn();
    const unsubscribe = analytics.subscribeConsent(listener);
    await analytics.initAnalytics(options);
    analytics.setAnalyticsConsent("denied");
    unsubscribe();
    expect(listener).toHaveBeenCalledTimes(2);
  });
});

describe("privacy signals", () => {
  it.each([
    ["Global Privacy Control", "globalPrivacyControl", true],
    ["Do Not Track", "doNotTrack", "1"],
  ] as const)(
    "treats %s as a decline: no question, nothing loaded or sent, even after an earlier Accept",
    async (_name, signal, value) => {
      window.localStorage.setItem(CONSENT_KEY, "granted");
      setNavigator(signal, value);
      const analytics = await load();
      analytics.trackPageView("/");
      await analytics.initAnalytics(options);
      analytics.track("user_signed_in");
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(analytics.getConsentState()).toBe("denied");
      expect(posthog.imports).toBe(0);
      expect(posthog.capture).not.toHaveBeenCalled();
    },
  );

  it("asks as usual when Do Not Track is off", async () => {
    setNavigator("doNotTrack", "0");
    setNavigator("globalPrivacyControl", false);
    const analytics = await load();
    await analytics.initAnalytics(options);
    expect(analytics.getConsentState()).toBe("pending");
  });
});

describe("what is sent", () => {
  it("sends page views with the origin and path only, never the query string or fragment", async () => {
    window.localStorage.setItem(CONSENT_KEY, "granted");
    window.history.replaceState(null, "", "/verify?token=s3cret-token#top");
    const analytics = await load();
    await analytics.initAnalytics(options);
    analytics.trackPageView("/verify");
    const [, props] = posthog.capture.mock.calls.at(-1)!;
    expect(props).toEqual({ path: "/verify", $current_url: `${window.location.origin}/verify` });
    expect(JSON.stringify(posthog.capture.mock.calls)).not.toContain("s3cret");
  });

  it("strips query strings and fragments from every URL PostHog adds itself before anything leaves the browser", async () => {
    window.localStorage.setItem(CONSENT_KEY, "granted");
    const analytics = await load();
    await analytics.initAnalytics(options);
    const config = posthog.init.mock.calls[0]![1] as { before_send: (event: unknown) => unknown };
    const secret = "https://closewise.app/reset-password?token=s3cret#frag";
    const sent = config.before_send({
      uuid: "1",
      event: "$pageview",
      properties: {
        $current_url: secret,
        $pathname: "/reset-password?token=s3cret",
        $referrer: "https://mail.example/inbox?id=s3cret",
        $host: "closewise.app",
        path: "/reset-password",
        count: 3,
      },
      $set: { $current_url: secret },
      $set_once: { $initial_current_url: secret, $initial_referrer: "$direct" },
    });
    expect(sent).toEqual({
      uuid: "1",
      event: "$pageview",
      properties: {
        $current_url: "https://closewise.app/reset-password",
        $pathname: "/reset-password",
        $referrer: "https://mail.example/inbox",
        $host: "closewise.app",
        path: "/reset-password",
        count: 3,
      },
      $set: { $current_url: "https://closewise.app/reset-password" },
      $set_once: { $initial_current_url: "https://closewise.app/reset-password", $initial_referrer: "$direct" },
    });
  });

  it("captures no URLs on its own: no autocapture, page leave, replay, heatmaps or dead clicks", async () => {
    window.localStorage.setItem(CONSENT_KEY, "granted");
    const analytics = await load();
    await analytics.initAnalytics(options);
    expect(posthog.init.mock.calls[0]![1]).toMatchObject({
      autocapture: false,
      capture_pageview: false,
      capture_pageleave: false,
      disable_session_recording: true,
      capture_heatmaps: false,
      capture_dead_clicks: false,
    });
  });
});
