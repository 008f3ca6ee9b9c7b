import type { MarketingPage } from "./types";
import { articles } from "./articles";

export const salesConversationAnalysis: MarketingPage = {
  id: "sales-conversation-analysis",
  paths: [
    {
      path: "/sales-conversation-analysis",
      title: "Sales Conversation Analysis: Talk Ratio, Questions, Objections | Closewise",
      description:
        "Analyse every sales conversation: talk-to-listen ratio, question count, longest monologue, objections raised and how they were handled, call by call.",
    },
  ],
  eyebrow: "Conversation analysis",
  h1: "Understand what actually happens on your sales calls",
  heroCopy:
    "Research on thousands of recorded B2B calls keeps finding the same patterns: top performers listen more, ask better-spaced questions and avoid long monologues. Closewise measures those patterns on your own calls, so you can see where a conversation went off track and what the winning calls had in common.",
  hero: { signupWidget: false, demo: true },
  features: {
    heading: "The metrics that separate winning calls",
    cards: [
      {
        icon: "chart",
        title: "Talk-to-listen ratio",
        body: "How much of the call you spoke, with the monologues over two minutes marked on the timeline.",
      },
      {
        icon: "message",
        title: "Questions and their timing",
        body: "How many questions you asked, whether they were spread across the call or front-loaded, and which got long answers.",
      },
      {
        icon: "shield",
        title: "Objections and outcomes",
        body: "Each objection raised, how it was answered, and whether the conversation moved on or stalled.",
      },
    ],
  },
  howItWorks: {
    heading: "Reading a call analysis",
    steps: [
      { title: "The timeline", body: "Who spoke when, with objections, questions and buying signals pinned to the moment." },
      {
        title: "The scorecard",
        body: "Talk ratio, question count, longest monologue and next-step status against your team's best calls.",
      },
      { title: "The takeaway", body: "One concrete thing to do differently on the next call, not a list of twenty." },
    ],
  },
  proof: {
    kind: "benefits",
    heading: "What analysis is good for",
    items: [
      { title: "Self-coaching", body: "Reps see their own patterns without waiting for a manager review." },
      { title: "Finding what works", body: "Compare won and lost deals to find the questions and stories that move buyers." },
      { title: "Onboarding", body: "New hires study the analysed calls of top performers in their first week." },
    ],
  },
  stats: {
    heading: "Patterns found in winning calls",
    items: [
      { value: "43%", label: "rep talk time on calls that close" },
      { value: "65%", label: "talk time above which close rates fall" },
      { value: "28%", label: "more questions asked after analysis feedback" },
    ],
  },
  articles: {
    heading: "Conversation research",
    links: [articles.gongTalkListen, articles.salesloftTalkTime],
  },
  closing: {
    heading: "See your own calls clearly",
    body: "Analyse five calls free and compare them with what top performers do.",
  },
};
