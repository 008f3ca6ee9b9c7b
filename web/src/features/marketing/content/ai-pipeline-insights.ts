import type { MarketingPage } from "./types";
import { articles } from "./articles";

export const aiPipelineInsights: MarketingPage = {
  id: "ai-pipeline-insights",
  paths: [
    {
      path: "/ai-pipeline-insights",
      title: "AI Pipeline Insights From What Buyers Actually Say | Closewise",
      description:
        "Pipeline insights built from call content, not rep optimism: deal risk, stalled next steps and competitor pressure, flagged before the quarter slips.",
    },
  ],
  eyebrow: "Pipeline insights",
  h1: "See which deals are at risk from what buyers say on calls",
  heroCopy:
    "Pipeline reviews usually run on the rep's gut feel and a stage field that was last touched two weeks ago. The real signals are in the conversations: the economic buyer who has never joined a call, the “we'll revisit in Q3”, the competitor who keeps coming up. Closewise reads those signals from every call and shows them on the deal.",
  hero: { signupWidget: false, demo: false },
  features: {
    heading: "Signals your CRM can't see",
    cards: [
      {
        icon: "trending",
        title: "Deal risk from conversations",
        body: "Timeline pushed, budget questioned, champion gone quiet: each risk is tied to the moment on the call where it came up.",
      },
      {
        icon: "users",
        title: "Stakeholder coverage",
        body: "Who has joined the calls, who is only mentioned, and whether the person who signs has ever spoken to you.",
      },
      {
        icon: "chart",
        title: "Forecast confidence",
        body: "Each committed deal is checked against what was said, so your call on the number rests on evidence.",
      },
    ],
  },
  howItWorks: {
    heading: "Using insights in a pipeline review",
    steps: [
      { title: "Sort by risk", body: "Start the review with deals whose calls raised red flags this week." },
      {
        title: "Open the moment",
        body: "Jump to the exact quote that triggered the flag, instead of asking the rep to recall it.",
      },
      { title: "Agree the action", body: "Decide the next step per deal and track whether it happened on the next call." },
    ],
  },
  proof: {
    kind: "results",
    heading: "What sales leaders report",
    items: [
      { value: "85%", title: "deal prediction accuracy", body: "when forecasts combine stage data with call signals." },
      { value: "32%", title: "fewer deals slipping quarter to quarter", body: "because risks are raised weeks earlier." },
      { value: "25%", title: "shorter pipeline reviews", body: "with evidence ready instead of status updates." },
    ],
  },
  stats: {
    heading: "Pipeline visibility",
    items: [
      { value: "85%", label: "deal prediction accuracy" },
      { value: "58%", label: "of at-risk deals flagged before the rep raised them" },
      { value: "3x", label: "more stakeholder gaps found" },
    ],
  },
  articles: {
    heading: "Forecasting and pipeline reading",
    links: [articles.alithyaForecast],
  },
  closing: {
    heading: "Bring evidence to your next forecast call",
    body: "Start with your own deals on the free trial; go unlimited for $20 a month.",
  },
};
