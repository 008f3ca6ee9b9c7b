//! The visitor's intent (`next`: where to go once signed in) carried through sign-up, the
//! verification mail and sign-in. Only same-origin paths survive (`safeRedirect`).

import { useSearchParams } from "react-router";
import { safeRedirect } from "../../../lib/redirect";

/** `next` (or the older `redirect`) from the address, when it is a path of this site; otherwise null. */
export function useNextPath(): string | null {
  const [params] = useSearchParams();
  return safeRedirect(params.get("next") ?? params.get("redirect"), "") || null;
}

/** The address to pre-fill (`email`, e.g. from a team invitation's sign-in link), or "". */
export function useEmailParam(): string {
  const [params] = useSearchParams();
  return (params.get("email") ?? "").trim();
}

/** `path` carrying `next` and, when given, the pre-filled `email`. */
export function withNext(path: string, next: string | null, email?: string): string {
  const query = new URLSearchParams();
  if (email) query.set("email", email);
  if (next) query.set("next", next);
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}
