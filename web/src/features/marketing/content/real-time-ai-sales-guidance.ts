import type { MarketingPage } from "./types";
import { articles } from "./articles";

export const realTimeAiSalesGuidance: MarketingPage = {
  id: "real-time-ai-sales-guidance",
  paths: [
    {
      path: "/real-time-ai-sales-guidance",
      title: "Real-Time AI Sales Guidance for Demos and Negotiations | Closewise",
      description:
        "Real-time AI guidance for the high-stakes parts of a deal — demos, pricing and negotiation — with replies grounded in your pricing rules and approved positioning.",
    },
  ],
  eyebrow: "Real-time guidance",
  h1: "Real-time AI guidance for the moments that decide the deal",
  heroCopy:
    "Discovery is forgiving; a demo that misses the buyer's question or a negotiation where you concede too early is not. Closewise gives real-time guidance tuned for late-stage calls: which feature answers the concern just raised, what you're allowed to offer on price, and how to trade a concession for a commitment.",
  hero: { signupWidget: true, demo: true },
  features: {
    heading: "Guidance for late-stage calls",
    cards: [
      {
        icon: "monitor",
        title: "Demo navigation",
        body: "When the buyer asks about a workflow, the hint names the screen to show and the customer story that goes with it.",
      },
      {
        icon: "shield",
        title: "Pricing guardrails",
        body: "Your discount rules and approval thresholds, surfaced when price comes up, so nothing is promised that finance will reject.",
      },
      {
        icon: "target",
        title: "Give-get negotiation",
        body: "When a concession is requested, a prompt suggests what to ask for in return: a signed date, a longer term, a reference.",
      },
    ],
  },
  howItWorks: {
    heading: "In a negotiation call",
    steps: [
      { title: "The ask", body: "“Can you do 20% off?” is recognised as a discount request." },
      { title: "The guardrail", body: "The hint shows what you can offer without approval, and what you need in return." },
      { title: "The trade", body: "A suggested reply ties any concession to a signature date or multi-year term." },
    ],
  },
  proof: {
    kind: "benefits",
    heading: "Why late-stage guidance pays",
    items: [
      { title: "Protected margins", body: "Discounts are traded for value instead of given away under pressure." },
      { title: "Sharper demos", body: "Every demo answers the question the buyer actually asked." },
      { title: "Fewer surprises", body: "Procurement and legal questions get consistent, approved answers." },
    ],
  },
  stats: {
    heading: "Late-stage results",
    items: [
      { value: "25%", label: "smaller average discount" },
      { value: "40%", label: "fewer demo follow-up calls needed" },
      { value: "55%", label: "of negotiations closed with a give-get trade" },
    ],
  },
  articles: {
    heading: "Further reading",
    links: [articles.salesloftTalkTime],
  },
  closing: {
    heading: "Go into your next negotiation prepared",
    body: "Five free calls. Unlimited for $20 a month.",
  },
};
