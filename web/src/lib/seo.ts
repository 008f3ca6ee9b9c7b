//! Search and social metadata for prerendered pages: one place builds the <title>, description,
//! canonical link, Open Graph and Twitter tags and the JSON-LD that describes the product and its offer.

import type { MetaDescriptor } from "react-router";

export const DEFAULT_SITE_ORIGIN = "https://closewise.app";
export const SITE_NAME = "Closewise";

/** The build's `APP_BASE_URL` as a bare origin; unset means the public address. */
export function parseSiteOrigin(raw: string | undefined): string {
  const value = raw?.trim();
  if (!value) return DEFAULT_SITE_ORIGIN;
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch {
    // reported below
  }
  const origin = url && (url.protocol === "https:" || url.protocol === "http:") ? url.origin : null;
  if (!origin || value.replace(/\/+$/, "") !== origin) {
    throw new Error(`APP_BASE_URL must be an http(s) origin such as https://closewise.app, got "${value}"`);
  }
  return origin;
}

// vite.config.ts exposes APP_BASE_URL to the build (envPrefix); outside Vite (its own config) there is no import.meta.env.
const env = import.meta.env as Record<string, unknown> | undefined;

/** Public origin of the site; canonical links, Open Graph URLs and the sitemap use it. */
export const SITE_ORIGIN = parseSiteOrigin(typeof env?.APP_BASE_URL === "string" ? env.APP_BASE_URL : undefined);

/** The paid plan, as the product catalogue describes it (Unlimited Sales Copilot, 20 USD a month). */
export const OFFER = { name: "Unlimited Sales Copilot", price: "20.00", currency: "USD" } as const;

/** The shared social card, drawn at build time by scripts/ogCard.mjs into dist/. */
export const OG_IMAGE = { path: "/og/closewise.png", width: 1200, height: 630 } as const;

export interface PageSeo {
  title: string;
  description: string;
  /** Path of the canonical version of this page, e.g. "/ai-teleprompter". */
  canonicalPath: string;
}

/** Absolute URL for a site path ("/" stays "https://closewise.app/"). */
export function absoluteUrl(path: string, origin: string = SITE_ORIGIN): string {
  if (!path.startsWith("/")) throw new Error(`Site paths start with "/": got "${path}"`);
  return `${origin.replace(/\/+$/, "")}${path}`;
}

export function softwareApplicationJsonLd(url: string, description: string) {
  return {
    "@context": "https://schema.org",
    "@type": "SoftwareApplication",
    name: SITE_NAME,
    applicationCategory: "BusinessApplication",
    operatingSystem: "macOS",
    url,
    description,
    offers: {
      "@type": "Offer",
      name: OFFER.name,
      price: OFFER.price,
      priceCurrency: OFFER.currency,
      priceSpecification: {
        "@type": "UnitPriceSpecification",
        price: OFFER.price,
        priceCurrency: OFFER.currency,
        billingDuration: "P1M",
        unitText: "month",
      },
    },
  };
}

/** React Router `meta` descriptors for one page. */
export function seoMeta({ title, description, canonicalPath }: PageSeo): MetaDescriptor[] {
  if (!title.trim() || !description.trim()) throw new Error("Every page needs a title and a description");
  const url = absoluteUrl(canonicalPath);
  const image = absoluteUrl(OG_IMAGE.path);
  return [
    { title },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: SITE_NAME },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    { property: "og:image", content: image },
    { property: "og:image:width", content: String(OG_IMAGE.width) },
    { property: "og:image:height", content: String(OG_IMAGE.height) },
    { property: "og:image:alt", content: `${SITE_NAME}: live AI hints for sales calls` },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: description },
    { name: "twitter:image", content: image },
    { "script:ld+json": softwareApplicationJsonLd(url, description) },
  ];
}
