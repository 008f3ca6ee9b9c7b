//! Analytics adapter. PostHog is loaded (lazily, so it never weighs on first paint) only when a key is
//! configured; without a key every call is a no-op: nothing is sent and no analytics cookie is set.

export type AnalyticsEvent =
  "user_signed_up" | "user_signed_in" | "pricing_interaction" | "checkout_error" | "app_download_started" | "demo_interaction";

export type AnalyticsProps = Record<string, string | number | boolean | null | undefined>;

interface Sink {
  capture(event: string, props?: AnalyticsProps): void;
}

interface AnalyticsOptions {
  key: string | null;
  host: string;
}

let sink: Sink | null = null;
let pending: [string, AnalyticsProps | undefined][] | null = null;
let started = false;

/** Starts analytics once; safe to call on every render path. Returns when the sink is ready (or not). */
export async function initAnalytics(options: AnalyticsOptions): Promise<void> {
  if (started || !options.key || typeof window === "undefined") return;
  started = true;
  pending = [];
  try {
    const { default: posthog } = await import("posthog-js");
    posthog.init(options.key, {
      api_host: options.host,
      capture_pageview: false, // page views come from the router, see trackPageView
      autocapture: false,
      persistence: "localStorage+cookie",
    });
    sink = { capture: (event, props) => void posthog.capture(event, props) };
    for (const [event, props] of pending) sink.capture(event, props);
  } catch (error) {
    console.warn("Analytics could not start", error);
  } finally {
    pending = null;
  }
}

function send(event: string, props?: AnalyticsProps) {
  if (sink) sink.capture(event, props);
  else if (pending) pending.push([event, props]);
}

export function track(event: AnalyticsEvent, props?: AnalyticsProps): void {
  send(event, props);
}

export function trackPageView(path: string): void {
  send("$pageview", { path, $current_url: typeof window === "undefined" ? path : window.location.href });
}

/** Test hook: forget any started sink. */
export function resetAnalyticsForTests(): void {
  sink = null;
  pending = null;
  started = false;
}
