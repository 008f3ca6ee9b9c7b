//! Text pages (privacy, terms, download, support): a heading, an introduction and titled sections.
//! `{support}` in any text stands for the configured support address and is rendered as a mailto link;
//! `{activate}` links to the device code page, `{signup}` to sign-up that comes back to /download.

export interface DocumentBlock {
  /** A paragraph, or a bulleted list when given as an array. */
  text?: string;
  list?: string[];
  /** An ordered list (steps). */
  steps?: string[];
}

export interface DocumentSection {
  id: string;
  heading: string;
  blocks: DocumentBlock[];
}

export interface DocumentPage {
  path: string;
  title: string;
  description: string;
  h1: string;
  intro: string;
  /** Shown under the heading, e.g. "Last updated: 23 November 2026". */
  updated?: string;
  sections: DocumentSection[];
}
