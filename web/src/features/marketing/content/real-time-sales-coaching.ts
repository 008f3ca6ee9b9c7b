import type { MarketingPage } from "./types";
import { articles } from "./articles";

export const realTimeSalesCoaching: MarketingPage = {
  id: "real-time-sales-coaching",
  paths: [
    {
      path: "/real-time-sales-coaching",
      title: "Real-Time Sales Coaching for Managers and Reps | Closewise",
      description:
        "Sales coaching that reaches reps during the call: talk ratio, questioning and next-step prompts live, plus call reviews managers can coach from afterwards.",
    },
  ],
  eyebrow: "Sales coaching",
  h1: "Coach every call, including the ones you can't join",
  heroCopy:
    "A sales manager with eight reps can listen to a handful of calls a week. The rest go uncoached. Closewise gives reps the coaching cue during the call — slow down, ask about impact, confirm the decision maker — and gives managers a short review of each call, so one-to-ones start from evidence instead of memory.",
  hero: { signupWidget: false, demo: true },
  features: {
    heading: "Coaching in two places",
    cards: [
      {
        icon: "zap",
        title: "During the call",
        body: "Live cues on talk time, monologues, missed qualification questions and next steps, in the moment they can still change the outcome.",
      },
      {
        icon: "users",
        title: "After the call",
        body: "A one-page review per call: what the buyer cared about, which questions were asked, where the rep talked too long.",
      },
      {
        icon: "trending",
        title: "Across the team",
        body: "Trends by rep over weeks, so you coach the habit that is costing deals rather than the last call you happened to hear.",
      },
    ],
  },
  howItWorks: {
    heading: "A coaching loop that runs every day",
    steps: [
      {
        title: "Pick one skill",
        body: "Choose the behaviour to work on — for example, asking about business impact before demoing.",
      },
      { title: "Reps get live cues", body: "The assistant prompts that behaviour on every relevant call." },
      { title: "Review the trend", body: "In the weekly one-to-one, look at how often it happened and what changed." },
    ],
  },
  proof: {
    kind: "results",
    heading: "Coaching outcomes",
    items: [
      {
        value: "28%",
        title: "more calls with full qualification",
        body: "when reps get a live prompt for the missing question.",
      },
      { value: "25%", title: "shorter rep monologues", body: "after four weeks of talk-time cues." },
      {
        value: "55%",
        title: "more coaching conversations",
        body: "because managers no longer need to sit in on calls to have material.",
      },
    ],
  },
  stats: {
    heading: "Coaching at scale",
    items: [
      { value: "43%", label: "target rep talk time on discovery calls" },
      { value: "67%", label: "of managers say they coach more often" },
      { value: "4.9/5", label: "rating from sales reps" },
    ],
  },
  articles: {
    heading: "Evidence on sales coaching",
    links: [articles.integrityCoaching, articles.gongTalkListen],
  },
  closing: {
    heading: "Start coaching every call",
    body: "Try it on your own calls first: five free calls, no card.",
  },
};
