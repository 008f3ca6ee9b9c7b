//! Redirects: leaving the app for another site, and checking where to return after signing in.

/** Leaves the app for another site (Stripe's pages); one place so tests can observe it. */
export const redirect = { to: (url: string) => window.location.assign(url) };

// Browsers strip tabs and newlines from URLs and read a backslash as "/", so "/\t/evil.example" would be
// "//evil.example": any control character or backslash is refused outright, not cleaned up.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f\\]/;

/** The longest `next` the API carries through the verification mail (`limits::RETURN_PATH_MAX_LEN`). */
export const RETURN_PATH_MAX_LENGTH = 1024;

/**
 * Only same-origin paths may be returned to after signing in: "/x", never "//host", "/\host",
 * "https://...", "javascript:..." or anything with a control character or a backslash. The target is
 * also parsed against the page's own origin and must still be on it, and at most 1024 characters long,
 * as the API's rule says, so the page and the link in the mail agree.
 */
export function safeRedirect(target: string | null | undefined, fallback = "/dashboard"): string {
  if (!target || !target.startsWith("/") || target.startsWith("//") || UNSAFE.test(target)) return fallback;
  if (target.length > RETURN_PATH_MAX_LENGTH) return fallback;
  const base = typeof window === "undefined" ? "http://localhost" : window.location.origin;
  try {
    if (new URL(target, base).origin !== new URL(base).origin) return fallback;
  } catch {
    return fallback;
  }
  return target;
}
