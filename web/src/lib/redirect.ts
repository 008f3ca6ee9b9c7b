//! Redirects: leaving the app for another site, and checking where to return after signing in.

/** Leaves the app for another site (Stripe's pages); one place so tests can observe it. */
export const redirect = { to: (url: string) => window.location.assign(url) };

/** Only same-site paths may be returned to after signing in ("/x", never "//host" or "https://..."). */
export function safeRedirect(target: string | null | undefined, fallback = "/dashboard"): string {
  if (!target || !target.startsWith("/") || target.startsWith("//") || target.startsWith("/\\")) return fallback;
  return target;
}
