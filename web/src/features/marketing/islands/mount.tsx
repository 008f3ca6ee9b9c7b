//! Rendering an island: the prerendered markup is replaced, in the same task, by the component rendered
//! with Preact inside the page's one session. Nothing is painted in between, and the component renders
//! the same boxes, so nothing moves. (Preact's render() would keep the old nodes it cannot reuse, such as
//! the download link the button replaces; its hydrate() leaves stale attributes such as `disabled`.)

import { render } from "preact";
import type { ReactNode } from "react";
import { AuthProvider } from "../../../lib/auth/AuthProvider";
import { AuthManager } from "../../../lib/auth/session";

let auth: AuthManager | null = null;

/** One session for all the islands of a page (restored once, shared by the nav and the buttons). */
export function pageAuth(): AuthManager {
  auth ??= new AuthManager();
  return auth;
}

export type IslandProps = Record<string, unknown>;

export function mountIsland(element: Element, node: ReactNode): void {
  element.replaceChildren();
  render(<AuthProvider manager={pageAuth()}>{node}</AuthProvider>, element);
}
