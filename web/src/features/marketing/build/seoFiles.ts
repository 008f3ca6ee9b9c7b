//! sitemap.xml and robots.txt, emitted into the client build by a small Vite plugin.
//! Hook-up (vite.config.ts): `plugins: [tailwindcss(), reactRouter(), marketingSeoFiles()]`.

import type { Plugin } from "vite";
import { absoluteUrl, SITE_ORIGIN } from "../../../lib/seo";
import { canonicalMarketingPaths } from "../routes";

/** Public pages outside the marketing feature that search engines should find. */
export const accountPublicPaths = ["/pricing", "/signin", "/signup", "/privacy", "/terms", "/support", "/download"];

/** Canonical paths only: alias paths of the shared-layout pages are left out (they canonicalise elsewhere). */
export const sitemapPaths: string[] = [...canonicalMarketingPaths, ...accountPublicPaths];

/** Areas that are useless or private for a crawler. */
export const disallowedPaths = ["/api/", "/dashboard", "/success", "/settings", "/setup"];

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");
}

export function sitemapXml(paths: string[] = sitemapPaths, origin: string = SITE_ORIGIN): string {
  const unique = [...new Set(paths)];
  if (unique.length !== paths.length) throw new Error("sitemap paths must be unique");
  const urls = unique
    .map((path) => `  <url>\n    <loc>${escapeXml(absoluteUrl(path, origin))}</loc>\n  </url>`)
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}

export function robotsTxt(origin: string = SITE_ORIGIN): string {
  const disallow = disallowedPaths.map((path) => `Disallow: ${path}`).join("\n");
  return `User-agent: *\nAllow: /\n${disallow}\n\nSitemap: ${absoluteUrl("/sitemap.xml", origin)}\n`;
}

/** Emits sitemap.xml and robots.txt next to the prerendered pages (client build only). */
export function marketingSeoFiles(origin: string = SITE_ORIGIN): Plugin {
  return {
    name: "closewise:marketing-seo-files",
    apply: "build",
    generateBundle() {
      // React Router builds a client and a server bundle; the files belong with the client assets.
      if (this.environment && this.environment.name !== "client") return;
      this.emitFile({ type: "asset", fileName: "sitemap.xml", source: sitemapXml(sitemapPaths, origin) });
      this.emitFile({ type: "asset", fileName: "robots.txt", source: robotsTxt(origin) });
    },
  };
}
