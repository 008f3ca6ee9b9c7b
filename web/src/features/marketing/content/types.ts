//! The shape of every marketing page's copy. Pages are plain data so that tests can walk them
//! (unique titles, links that resolve) and a few layouts can render them all.

/** Icons a feature card may use; the layout maps each name to a lucide-react icon. */
export type IconName =
  | "zap"
  | "shield"
  | "mail"
  | "message"
  | "mic"
  | "chart"
  | "target"
  | "users"
  | "clock"
  | "database"
  | "sparkles"
  | "monitor"
  | "trending"
  | "book"
  | "phone"
  | "filter";

export interface FeatureCard {
  icon: IconName;
  title: string;
  body: string;
}

export interface Stat {
  /** A figure as shown, e.g. "47%" or "3.2 hours". */
  value: string;
  label: string;
}

/** Either a list of benefits or a block of measured results. */
export type Proof =
  | { kind: "benefits"; heading: string; items: { title: string; body: string }[] }
  | { kind: "results"; heading: string; items: { value: string; title: string; body: string }[] };

/** A link to a real, existing article on another site (checked by hand, never invented). */
export interface ArticleLink {
  title: string;
  source: string;
  url: string;
  summary: string;
}

export interface ComparisonTable {
  heading: string;
  columns: [string, string, string];
  rows: { capability: string; values: [string, string, string] }[];
}

/** A path a page is reachable at, with its own title and description for that search term. */
export interface PagePath {
  path: string;
  title: string;
  description: string;
}

export interface MarketingPage {
  id: string;
  /** The first entry is the canonical path; further entries are aliases that render the same page. */
  paths: [PagePath, ...PagePath[]];
  eyebrow: string;
  h1: string;
  heroCopy: string;
  hero: { signupWidget: boolean; demo: boolean };
  features: { heading: string; cards: [FeatureCard, FeatureCard, FeatureCard] };
  /** Short explanatory section: how the page's topic plays out on a real call. */
  howItWorks: { heading: string; steps: { title: string; body: string }[] };
  proof: Proof;
  stats: { heading: string; items: Stat[] };
  comparison?: ComparisonTable;
  articles?: { heading: string; links: ArticleLink[] };
  closing: { heading: string; body: string };
}
