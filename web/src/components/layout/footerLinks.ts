//! Names and canonical paths of the landing pages, for the footer. Kept apart from the page copy so that
//! a page does not download every other page's text just to render its footer links.

export interface PageLink {
  id: string;
  label: string;
  path: string;
}

export const sharedLayoutLinks: PageLink[] = [
  { id: "real-time-conversation-guidance", label: "Real-Time Conversation Guidance", path: "/real-time-conversation-guidance" },
  { id: "ai-teleprompter", label: "AI Teleprompter", path: "/ai-teleprompter" },
  { id: "desktop-assistant", label: "Desktop Assistant", path: "/desktop-assistant" },
  { id: "conversation-assistant", label: "Conversation Assistant", path: "/conversation-assistant" },
  { id: "live-ai-transcription", label: "Live AI Transcription", path: "/live-ai-transcription" },
];

export const ownContentLinks: PageLink[] = [
  { id: "ai-sales-assistant", label: "AI Sales Assistant", path: "/ai-sales-assistant" },
  { id: "sales-enablement-tool", label: "Sales Enablement Tool", path: "/sales-enablement-tool" },
  { id: "real-time-sales-coaching", label: "Real-Time Sales Coaching", path: "/real-time-sales-coaching" },
  { id: "ai-sales-copilot", label: "AI Sales Copilot", path: "/ai-sales-copilot" },
  { id: "ai-for-outbound-sales", label: "AI for Outbound Sales", path: "/ai-for-outbound-sales" },
  { id: "crm-sales-intelligence", label: "CRM Sales Intelligence", path: "/crm-sales-intelligence" },
  { id: "sales-productivity-tool", label: "Sales Productivity Tool", path: "/sales-productivity-tool" },
  { id: "email-assistant-for-sales", label: "Email Assistant for Sales", path: "/email-assistant-for-sales" },
  { id: "ai-pipeline-insights", label: "AI Pipeline Insights", path: "/ai-pipeline-insights" },
  { id: "sales-conversation-analysis", label: "Sales Conversation Analysis", path: "/sales-conversation-analysis" },
  { id: "ai-sales-hints", label: "AI Sales Hints", path: "/ai-sales-hints" },
  { id: "best-ai-for-sales-teams", label: "Best AI for Sales Teams", path: "/best-ai-for-sales-teams" },
  { id: "how-to-improve-sales-with-ai", label: "How to Improve Sales With AI", path: "/how-to-improve-sales-with-ai" },
  { id: "real-time-ai-sales-guidance", label: "Real-Time AI Sales Guidance", path: "/real-time-ai-sales-guidance" },
  { id: "boost-sdr-performance", label: "Boost SDR Performance", path: "/boost-sdr-performance" },
];
