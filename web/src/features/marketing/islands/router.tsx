//! "react-router" for the islands build (vite.islands.config.ts aliases it here). A public page has no
//! router: links are plain links and navigating is a page load, so the account area loads as the app.

import type { AnchorHTMLAttributes } from "react";

type To = string | { pathname?: string; search?: string; hash?: string };

export function href(to: To): string {
  return typeof to === "string" ? to : `${to.pathname ?? window.location.pathname}${to.search ?? ""}${to.hash ?? ""}`;
}

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> & {
  to: To;
  replace?: boolean;
  prefetch?: string;
  viewTransition?: boolean;
};

export function Link({
  to,
  replace: _replace,
  prefetch: _prefetch,
  viewTransition: _viewTransition,
  children,
  ...rest
}: LinkProps) {
  return (
    <a href={href(to)} {...rest}>
      {children}
    </a>
  );
}

export function useNavigate() {
  return (to: To | number, options?: { replace?: boolean }) => {
    if (typeof to === "number") window.history.go(to);
    else if (options?.replace) window.location.replace(href(to));
    else window.location.assign(href(to));
  };
}

export function useLocation() {
  const { pathname, search, hash } = window.location;
  return { pathname, search, hash, state: null, key: "default" };
}

type SearchParamsInit = URLSearchParams | ((current: URLSearchParams) => URLSearchParams);

/** The address's parameters; setting them rewrites the address (no page load, as in the app). */
export function useSearchParams() {
  const set = (init: SearchParamsInit, options?: { replace?: boolean; preventScrollReset?: boolean }) => {
    const current = new URLSearchParams(window.location.search);
    const query = (typeof init === "function" ? init(current) : init).toString();
    const url = `${window.location.pathname}${query ? `?${query}` : ""}${window.location.hash}`;
    if (options?.replace) window.history.replaceState(window.history.state, "", url);
    else window.history.pushState(null, "", url);
  };
  return [new URLSearchParams(window.location.search), set] as const;
}
