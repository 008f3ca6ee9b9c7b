//! The visitor's intent (`next`: where to go once signed in) carried through sign-up, the
//! verification mail and sign-in. Only same-origin paths survive (`safeRedirect`).

import { useSearchParams } from "react-router";
import { safeRedirect } from "../../../lib/redirect";

/** `next` (or the older `redirect`) from the address, when it is a path of this site; otherwise null. */
export function useNextPath(): string | null {
  const [params] = useSearchParams();
  return safeRedirect(params.get("next") ?? params.get("redirect"), "") || null;
}

export function withNext(path: string, next: string | null): string {
  return next ? `${path}?next=${encodeURIComponent(next)}` : path;
}
