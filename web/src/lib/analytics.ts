//! Analytics adapter (PostHog), with consent.
//!
//! - No key configured: nothing is asked, loaded, sent or stored.
//! - A key configured: posthog-js is not even downloaded, nothing is sent and nothing is stored (no
//!   cookie, no localStorage) until the visitor accepts in the consent banner. Global Privacy Control
//!   and Do Not Track count as a decline and the banner is not shown. The choice is kept in
//!   localStorage (`closewise.analyticsConsent`), which is the only thing written before consent.
//! - Only the origin and path of a page ever leave the browser: query strings and fragments carry the
//!   /verify and /reset-password tokens, so they are cut from every URL-like property before sending.
//! - Events tracked before PostHog is ready are kept in memory, in order, and sent once it is (the first
//!   page view is tracked by a child effect, before the providers' effect starts analytics); a decline
//!   drops them.

export type AnalyticsEvent =
  | "user_signed_up"
  | "user_signed_in"
  | "mfa_verified"
  | "pricing_interaction"
  | "checkout_error"
  | "app_download_started"
  | "demo_interaction";

export type AnalyticsProps = Record<string, string | number | boolean | null | undefined>;

/** `unavailable`: no key (or on the server); `pending`: the visitor has not chosen yet. */
export type ConsentState = "unavailable" | "pending" | "granted" | "denied";

interface AnalyticsOptions {
  key: string | null;
  host: string;
}

interface Sink {
  capture(event: string, props?: AnalyticsProps): void;
  optOut(): void;
}

const CONSENT_KEY = "closewise.analyticsConsent";
/** Enough for a visit's worth of events while the banner waits; older ones are dropped first. */
const MAX_QUEUED = 100;

let started = false;
let options: AnalyticsOptions | null = null;
let state: ConsentState = "unavailable";
let queue: [string, AnalyticsProps | undefined][] = [];
let sink: Sink | null = null;
let loading: Promise<void> | null = null;
const listeners = new Set<() => void>();

function setState(next: ConsentState) {
  state = next;
  for (const listener of listeners) listener();
}

/** Global Privacy Control or Do Not Track: the visitor has already said no. */
function privacySignal(): boolean {
  const nav = window.navigator as Navigator & { globalPrivacyControl?: boolean };
  return nav.globalPrivacyControl === true || nav.doNotTrack === "1";
}

function storedConsent(): "granted" | "denied" | null {
  try {
    const value = window.localStorage.getItem(CONSENT_KEY);
    return value === "granted" || value === "denied" ? value : null;
  } catch {
    return null;
  }
}

/** The URL without its query string and fragment. */
export function stripUrl(url: string): string {
  return url.split(/[?#]/, 1)[0]!;
}

const URL_KEY = /url|referrer|href|pathname/i;

function stripProps<T extends Record<string, unknown> | undefined>(props: T): T {
  if (!props) return props;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(props)) {
    out[key] =
      typeof value === "string" && (URL_KEY.test(key) || /^[a-z][a-z0-9+.-]*:\/\//i.test(value)) ? stripUrl(value) : value;
  }
  return out as T;
}

interface CaptureLike {
  properties?: Record<string, unknown>;
  $set?: Record<string, unknown>;
  $set_once?: Record<string, unknown>;
}

/** PostHog's before_send: the last look at every event, including the URLs PostHog adds itself. */
function sanitize<T extends CaptureLike | null>(event: T): T {
  if (!event) return event;
  const clean: CaptureLike = { ...event, properties: stripProps(event.properties) };
  if (event.$set) clean.$set = stripProps(event.$set);
  if (event.$set_once) clean.$set_once = stripProps(event.$set_once);
  return clean as T;
}

function load(): Promise<void> {
  const { key, host } = options!;
  loading ??= import("posthog-js")
    .then(({ default: posthog }) => {
      posthog.init(key!, {
        api_host: host,
        persistence: "localStorage+cookie",
        // Nothing is captured on its own: page views come from the router (trackPageView) and events
        // from track(), so no URL with a token in it is ever collected behind our back.
        autocapture: false,
        capture_pageview: false,
        capture_pageleave: false,
        capture_dead_clicks: false,
        capture_heatmaps: false,
        capture_performance: false,
        capture_exceptions: false,
        rageclick: false,
        disable_session_recording: true,
        disable_surveys: true,
        disable_web_experiments: true,
        disable_external_dependency_loading: true,
        disable_capture_url_hashes: true,
        mask_personal_data_properties: true,
        respect_dnt: true,
        // No feature flags are used: no /flags request, which would carry the visitor's properties.
        advanced_disable_flags: true,
        before_send: sanitize,
      });
      sink = { capture: (event, props) => void posthog.capture(event, props), optOut: () => posthog.opt_out_capturing() };
      const waiting = queue;
      queue = [];
      if (state === "granted") for (const [event, props] of waiting) sink.capture(event, props);
    })
    .catch((error: unknown) => {
      console.warn("Analytics could not start", error);
    });
  return loading;
}

/**
 * Starts analytics once (later calls do nothing): reads the privacy signals and the remembered choice,
 * and loads PostHog only if the visitor has accepted. Resolves when PostHog is ready or not needed.
 */
export async function initAnalytics(opts: AnalyticsOptions): Promise<void> {
  if (started || typeof window === "undefined") return;
  started = true;
  if (!opts.key) {
    queue = [];
    return;
  }
  options = opts;
  const choice = privacySignal() ? "denied" : (storedConsent() ?? "pending");
  if (choice === "denied") queue = [];
  setState(choice);
  if (choice === "granted") await load();
}

/** The visitor's answer in the banner; remembered for the next visits. */
export function setAnalyticsConsent(choice: "granted" | "denied"): void {
  if (state === "unavailable") return;
  try {
    window.localStorage.setItem(CONSENT_KEY, choice);
  } catch {
    // Private mode without storage: the choice holds for this page only.
  }
  setState(choice);
  if (choice === "granted") {
    void load();
  } else {
    queue = [];
    sink?.optOut();
  }
}

export function getConsentState(): ConsentState {
  return state;
}

export function subscribeConsent(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function send(event: string, props?: AnalyticsProps) {
  if (started && (state === "unavailable" || state === "denied")) return;
  if (sink && state === "granted") {
    sink.capture(event, props);
    return;
  }
  // Not started yet, waiting for an answer, or PostHog still loading.
  queue.push([event, props]);
  if (queue.length > MAX_QUEUED) queue.shift();
}

export function track(event: AnalyticsEvent, props?: AnalyticsProps): void {
  send(event, props);
}

/** A page view: the path and the page's origin + path, never its query string or fragment. */
export function trackPageView(path: string): void {
  const clean = stripUrl(path);
  send("$pageview", { path: clean, $current_url: typeof window === "undefined" ? clean : window.location.origin + clean });
}

/** Test hook: forget everything, as on a new page load. */
export function resetAnalyticsForTests(): void {
  started = false;
  options = null;
  state = "unavailable";
  queue = [];
  sink = null;
  loading = null;
  listeners.clear();
}
