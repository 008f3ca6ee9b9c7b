//! The marketing site's routes, spread into src/routes.ts, and its public paths, used for prerendering
//! and the sitemap. Kept free of React so the build config can import it.

import { marketingPages } from "./content/pages";

export interface MarketingRoute {
  /** Route path without the leading slash; "" is the index route "/". */
  path: string;
  /** Route module, relative to src/. */
  file: string;
}

/** Module file for a landing-page path: "/ai-teleprompter" -> "features/marketing/routes/ai-teleprompter.tsx". */
export function routeFileFor(path: string): string {
  return path === "/" ? "features/marketing/routes/landing.tsx" : `features/marketing/routes${path}.tsx`;
}

/** Canonical path of each landing page (the first of its paths). */
export const canonicalMarketingPaths: string[] = ["/", ...marketingPages.map((page) => page.paths[0].path)];

/** Every public marketing path: "/" and the thirty landing-page paths (aliases included). */
export const marketingPaths: string[] = ["/", ...marketingPages.flatMap((page) => page.paths.map((entry) => entry.path))];

export const marketingRoutes: MarketingRoute[] = marketingPaths.map((path) => ({
  path: path.slice(1),
  file: routeFileFor(path),
}));

/**
 * The prerendered public pages served as static HTML with islands (no React Router app at start): the
 * marketing pages and the public documents. Sign-in and sign-up stay pages of the React app.
 */
export const islandPaths: string[] = [...marketingPaths, "/pricing", "/privacy", "/terms", "/support", "/download"];
