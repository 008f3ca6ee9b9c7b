import type { MarketingPage } from "./types";
import { articles } from "./articles";

export const aiSalesCopilot: MarketingPage = {
  id: "ai-sales-copilot",
  paths: [
    {
      path: "/ai-sales-copilot",
      title: "AI Sales Copilot: You Fly the Call, It Handles the Checklist | Closewise",
      description:
        "An AI sales copilot that tracks the call checklist for you — qualification, objections, next steps — so you can stay focused on the buyer in front of you.",
    },
  ],
  eyebrow: "AI sales copilot",
  h1: "You run the call. Your copilot watches the checklist.",
  heroCopy:
    "A pilot doesn't hand over the plane; the copilot handles the checklist so the pilot can fly. Closewise does the same for sales calls: it keeps track of what has been qualified, flags the risk you missed, and reminds you to lock in the next step, while you keep your attention on the buyer.",
  hero: { signupWidget: true, demo: true },
  features: {
    heading: "What the copilot keeps track of",
    cards: [
      {
        icon: "target",
        title: "Qualification status",
        body: "Budget, authority, need and timeline — or your own framework — checked off as the buyer answers, with the gaps shown before you wrap up.",
      },
      {
        icon: "shield",
        title: "Risk signals",
        body: "“We need to check with procurement”, a new stakeholder, a slipping date: flagged so you can address it on the call.",
      },
      {
        icon: "clock",
        title: "The next step",
        body: "Five minutes before time, a reminder to book a dated next meeting with the right people, not “I'll send some times”.",
      },
    ],
  },
  howItWorks: {
    heading: "Pre-flight, in-flight, landing",
    steps: [
      { title: "Before", body: "Open the copilot with your notes from the last call so it knows what is still open." },
      {
        title: "During",
        body: "Checklist items tick off as they are covered; hints appear only when something needs your attention.",
      },
      { title: "After", body: "A recap e-mail and CRM notes are drafted from what actually happened." },
    ],
  },
  proof: {
    kind: "benefits",
    heading: "Why sellers call it a copilot",
    items: [
      { title: "Nothing falls through", body: "Calls end with the questions asked and the next step booked." },
      { title: "Focus stays on the buyer", body: "You listen instead of tracking a mental checklist." },
      { title: "Stays out of the way", body: "It speaks up only when a cue matters, never with a stream of notifications." },
    ],
  },
  stats: {
    heading: "Copilot results",
    items: [
      { value: "50%", label: "more calls ending with a dated next step" },
      { value: "42%", label: "fewer deals lost to “no decision”" },
      { value: "3x", label: "more risks raised on the call instead of after it" },
    ],
  },
  articles: {
    heading: "On AI and the seller's judgment",
    links: [articles.forresterAi, articles.hubspotFollowUp],
  },
  closing: {
    heading: "Take a copilot on your next call",
    body: "Free for five calls. Unlimited for $20 a month.",
  },
};
