import type { FeatureCard, PagePath, Stat } from "./types";

export interface LandingContent {
  path: PagePath;
  eyebrow: string;
  h1: string;
  heroCopy: string;
  highlights: FeatureCard[];
  stats: Stat[];
  demo: { heading: string; intro: string };
  pricing: { heading: string; intro: string };
}

export const landing: LandingContent = {
  path: {
    path: "/",
    title: "Closewise | Live AI Hints for Every Sales Call",
    description:
      "Closewise gives live, on-screen hints during sales calls: objection handling, suggested replies and follow-up e-mail drafts. Free for 5 calls, then $20 a month.",
  },
  eyebrow: "AI sales assistant for macOS",
  h1: "Live hints on every sales call. Follow-ups written before you hang up.",
  heroCopy:
    "Closewise listens to your call and shows what to say next — the reply to the objection, the question you haven't asked, the next step to book — in a small overlay only you can see. When the call ends, the follow-up e-mail is already drafted.",
  highlights: [
    {
      icon: "shield",
      title: "Objection handling",
      body: "A short, specific reply the moment a buyer pushes back on price, timing or an incumbent.",
    },
    {
      icon: "message",
      title: "Suggested replies",
      body: "Answers from your own product notes while the buyer is still asking the question.",
    },
    {
      icon: "mail",
      title: "Follow-up drafts",
      body: "A recap in the buyer's words with the agreed next step, ready when you hang up.",
    },
  ],
  stats: [
    { value: "10,000+", label: "sales professionals" },
    { value: "4.9/5", label: "average rating" },
    { value: "3.2 hours", label: "saved per day" },
  ],
  demo: {
    heading: "See a call with Closewise",
    intro:
      "A customer raises three questions on a call. For each one, the rep gets a live hint, and a follow-up e-mail is drafted from the answer.",
  },
  pricing: {
    heading: "Simple pricing",
    intro: "Start with 5 free calls of 5 minutes each. Go unlimited for $20 a month.",
  },
};
