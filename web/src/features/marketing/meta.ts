import type { MetaDescriptor } from "react-router";
import { seoMeta } from "../../lib/seo";
import type { MarketingPage } from "./content/types";

/** Meta for a landing page served at `path`; aliases keep their own title but point canonical at the first path. */
export function landingPageMeta(page: MarketingPage, path: string): MetaDescriptor[] {
  const entry = page.paths.find((candidate) => candidate.path === path);
  if (!entry) throw new Error(`${path} is not a path of the "${page.id}" page`);
  return seoMeta({ title: entry.title, description: entry.description, canonicalPath: page.paths[0].path });
}
