import type { MarketingPage } from "./types";
import { articles } from "./articles";

export const crmSalesIntelligence: MarketingPage = {
  id: "crm-sales-intelligence",
  paths: [
    {
      path: "/crm-sales-intelligence",
      title: "CRM Sales Intelligence: Auto-Logged Calls, Clean Pipeline Data | Closewise",
      description:
        "Keep the CRM accurate without manual data entry: calls logged automatically, next steps and close dates captured from the conversation, and deal fields kept current.",
    },
  ],
  eyebrow: "CRM intelligence",
  h1: "A CRM that updates itself from your sales calls",
  heroCopy:
    "CRM data goes stale for one reason: updating it is manual work at the end of a long day. Fields stay blank, next steps say “follow up”, close dates drift. Closewise captures what was said on the call — stakeholders, budget, timeline, next step — and turns it into activity logs and field updates you approve in one click.",
  hero: { signupWidget: false, demo: false },
  features: {
    heading: "CRM hygiene without the busywork",
    cards: [
      {
        icon: "database",
        title: "Auto-logged activity",
        body: "Every call is logged with duration, participants and a short summary, so activity reports reflect what really happened.",
      },
      {
        icon: "filter",
        title: "Fields filled from the conversation",
        body: "Budget mentioned, a new stakeholder, a decision date: suggested updates to the deal record, waiting for your approval.",
      },
      {
        icon: "clock",
        title: "Real next steps",
        body: "The next step is written as the meeting you agreed — who, what and when — instead of a vague note.",
      },
    ],
  },
  howItWorks: {
    heading: "From call to clean record",
    steps: [
      { title: "Connect your CRM", body: "Available on the Monthly plan; pick which fields Closewise may suggest updates for." },
      { title: "Talk as usual", body: "Details are captured from the transcript while you focus on the buyer." },
      {
        title: "Approve in one click",
        body: "Review the suggested updates after the call; nothing is written without your say-so.",
      },
    ],
  },
  proof: {
    kind: "benefits",
    heading: "Why RevOps teams like it",
    items: [
      {
        title: "Forecasts built on facts",
        body: "Stages and dates reflect what the buyer said, not what the rep remembers on Friday.",
      },
      { title: "Complete activity data", body: "Every call is counted, so coaching and capacity planning use real numbers." },
      { title: "Reps keep their evenings", body: "The admin that used to follow each call is a quick review." },
    ],
  },
  stats: {
    heading: "Data quality gains",
    items: [
      { value: "75%", label: "fewer deals with an empty next step" },
      { value: "3.2 hours", label: "saved per rep per day on admin" },
      { value: "85%", label: "deal prediction accuracy with complete call data" },
    ],
  },
  articles: {
    heading: "On pipeline and forecast quality",
    links: [articles.alithyaForecast, articles.mckinseySalesGrowth],
  },
  closing: {
    heading: "Stop typing your calls into the CRM",
    body: "Start free, then connect your CRM on the Monthly plan.",
  },
};
