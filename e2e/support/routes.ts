//! The public routes of the spec (section 2), in one place for the page and accessibility checks.

export const SPEC_LANDING_PAGES = [
  // Five groups of three paths sharing one layout.
  "/real-time-conversation-guidance",
  "/real-time-support",
  "/real-time-ai-coaching",
  "/ai-teleprompter",
  "/magical-teleprompter",
  "/undetectable-ai",
  "/desktop-assistant",
  "/ai-desktop-assistant",
  "/desktop-assistant-ai",
  "/conversation-assistant",
  "/ai-conversation-assistant",
  "/cursor-for-conversations",
  "/live-ai-transcription",
  "/power-your-meetings",
  "/ai-for-meeting",
  // Pages with their own content.
  "/ai-sales-assistant",
  "/sales-enablement-tool",
  "/real-time-sales-coaching",
  "/ai-sales-copilot",
  "/ai-for-outbound-sales",
  "/crm-sales-intelligence",
  "/sales-productivity-tool",
  "/email-assistant-for-sales",
  "/ai-pipeline-insights",
  "/sales-conversation-analysis",
  "/ai-sales-hints",
  "/best-ai-for-sales-teams",
  "/how-to-improve-sales-with-ai",
  "/real-time-ai-sales-guidance",
  "/boost-sdr-performance",
];

/** Public screens with the heading each shows. */
export const PUBLIC_SCREENS: { path: string; heading: string }[] = [
  { path: "/signin", heading: "Sign in to your account" },
  { path: "/signup", heading: "Create your account" },
  { path: "/pricing", heading: "Simple, Transparent Pricing" },
  { path: "/forgot-password", heading: "Reset your password" },
];

/** Screens behind sign-in. */
export const ACCOUNT_SCREENS: { path: string; heading: string }[] = [
  { path: "/dashboard", heading: "Dashboard" },
  { path: "/settings", heading: "Settings" },
  { path: "/activate", heading: "Activate the Closewise app" },
  { path: "/team", heading: "Team" },
];
