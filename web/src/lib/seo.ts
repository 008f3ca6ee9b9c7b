//! Search and social metadata for prerendered pages: one place builds the <title>, description,
//! canonical link, Open Graph and Twitter tags and the JSON-LD that describes the product and its offer.

import type { MetaDescriptor } from "react-router";

/** Public origin of the site; canonical links, Open Graph URLs and the sitemap use it. */
export const SITE_ORIGIN = "https://closewise.app";
export const SITE_NAME = "Closewise";

/** The paid plan, as the product catalogue describes it (Unlimited Sales Copilot, 20 USD a month). */
export const OFFER = { name: "Unlimited Sales Copilot", price: "20.00", currency: "USD" } as const;

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
  return [
    { title },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: SITE_NAME },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    { name: "twitter:card", content: "summary" },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: description },
    { "script:ld+json": softwareApplicationJsonLd(url, description) },
  ];
}
