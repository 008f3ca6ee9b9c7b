import type { MarketingPage } from "./types";
import { articles } from "./articles";

export const aiSalesAssistant: MarketingPage = {
  id: "ai-sales-assistant",
  paths: [
    {
      path: "/ai-sales-assistant",
      title: "AI Sales Assistant With Live Call Hints | Closewise",
      description:
        "An AI sales assistant that works during the call: objection handling, suggested replies and follow-up e-mail drafts for account executives and sales teams.",
    },
  ],
  eyebrow: "AI sales assistant",
  h1: "The AI sales assistant that works during the call, not after it",
  heroCopy:
    "Most sales AI summarises calls you have already won or lost. Closewise is on the call with you: it hears the objection, shows a reply that fits your product, and has the follow-up e-mail written before you say goodbye. Built for account executives who run several discovery calls and demos a day.",
  hero: { signupWidget: true, demo: true },
  features: {
    heading: "Three jobs, done live",
    cards: [
      {
        icon: "shield",
        title: "Objection handling",
        body: "Price, timing, incumbent vendor, “send me a deck”: each objection triggers a short reply built from your positioning and proof points.",
      },
      {
        icon: "message",
        title: "Suggested replies",
        body: "When the buyer asks something specific — security reviews, integrations, contract terms — the answer from your notes appears while they finish the question.",
      },
      {
        icon: "mail",
        title: "Follow-up drafts",
        body: "A recap e-mail with the buyer's own words, the agreed next step and the date, ready to edit and send as the call ends.",
      },
    ],
  },
  howItWorks: {
    heading: "A discovery call with Closewise",
    steps: [
      {
        title: "Minute 5",
        body: "The buyer mentions they evaluated a competitor last year. A hint suggests asking what stopped them buying.",
      },
      { title: "Minute 18", body: "“It seems expensive.” A reply reframes cost against the hours their team loses today." },
      {
        title: "Minute 30",
        body: "The call ends; a recap with the three pains they named and Thursday's demo is ready to send.",
      },
    ],
  },
  proof: {
    kind: "results",
    heading: "What account executives see",
    items: [
      { value: "35%", title: "higher close rate", body: "on deals where objections were answered on the first call." },
      { value: "40%", title: "less post-call admin", body: "with recaps and notes drafted automatically." },
      { value: "50%", title: "more next steps booked", body: "because the assistant prompts for one before the call ends." },
    ],
  },
  stats: {
    heading: "Closewise in numbers",
    items: [
      { value: "10,000+", label: "sales professionals" },
      { value: "4.9/5", label: "average rating" },
      { value: "$20", label: "per month, unlimited calls" },
    ],
  },
  articles: {
    heading: "Research behind live assistance",
    links: [articles.gongTalkListen, articles.forresterAi, articles.mckinseyGenAi],
  },
  closing: {
    heading: "Bring an assistant to your next discovery call",
    body: "Five free calls to try it. Upgrade to unlimited for $20 a month when it earns its place.",
  },
};
