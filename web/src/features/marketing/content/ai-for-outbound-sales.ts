import type { MarketingPage } from "./types";
import { articles } from "./articles";

export const aiForOutboundSales: MarketingPage = {
  id: "ai-for-outbound-sales",
  paths: [
    {
      path: "/ai-for-outbound-sales",
      title: "AI for Outbound Sales: Cold Calls That Turn Into Meetings | Closewise",
      description:
        "Live help on cold calls: get past the gatekeeper, answer the brush-off in the first 30 seconds, and turn the conversation into a booked meeting and a sequence step.",
    },
  ],
  eyebrow: "Outbound sales",
  h1: "AI for cold calls: from “who is this?” to a booked meeting",
  heroCopy:
    "Outbound calls are won or lost in the first thirty seconds, and the same five brush-offs come up on most of them: “not interested”, “send me an e-mail”, “we already use someone”, “no budget”, “call me next quarter”. Closewise recognises each one live and shows a short, honest reply that earns another minute — then drafts the follow-up for your sequence.",
  hero: { signupWidget: true, demo: true },
  features: {
    heading: "Built for the dialling session",
    cards: [
      {
        icon: "phone",
        title: "Gatekeepers and switchboards",
        body: "Suggested lines for getting routed to the right person without pretending to be someone you're not, and for asking who owns the problem.",
      },
      {
        icon: "shield",
        title: "Brush-off replies in seconds",
        body: "“Just send me something” gets a reply that asks what would make the e-mail worth opening — and turns it into a reason to book fifteen minutes.",
      },
      {
        icon: "mail",
        title: "Sequence-ready follow-ups",
        body: "After each connect, a short e-mail that references what the prospect actually said, ready to drop into the next step of your sequence.",
      },
    ],
  },
  howItWorks: {
    heading: "Anatomy of a cold call with Closewise",
    steps: [
      {
        title: "Opener",
        body: "A permission-based opener built from the prospect's role and company, so the first line is about them.",
      },
      { title: "Pushback", body: "The objection is recognised and a reply appears while the prospect is still talking." },
      { title: "Ask", body: "A prompt to propose a specific time, then a calendar-ready recap the moment you hang up." },
    ],
  },
  proof: {
    kind: "results",
    heading: "What outbound teams measure",
    items: [
      { value: "47%", title: "more conversations past 60 seconds", body: "when the first brush-off gets a real answer." },
      { value: "3x", title: "more meetings from the same dials", body: "reported by SDR teams in their first month." },
      {
        value: "38%",
        title: "higher reply rate on follow-ups",
        body: "because the e-mail quotes the call instead of a template.",
      },
    ],
  },
  stats: {
    heading: "Outbound by the numbers",
    items: [
      { value: "52%", label: "of connects turned into a next step" },
      { value: "30%", label: "less time writing follow-up e-mails" },
      { value: "10,000+", label: "sellers using Closewise" },
    ],
  },
  articles: {
    heading: "Cold calling resources",
    links: [articles.yeswareColdCalling, articles.capterraFollowUp],
  },
  closing: {
    heading: "Make your next call block count",
    body: "Try it on five real dials for free. Unlimited calling is $20 a month.",
  },
};
