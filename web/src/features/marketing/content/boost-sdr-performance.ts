import type { MarketingPage } from "./types";
import { articles } from "./articles";

export const boostSdrPerformance: MarketingPage = {
  id: "boost-sdr-performance",
  paths: [
    {
      path: "/boost-sdr-performance",
      title: "Boost SDR Performance: Faster Ramp, More Meetings per Dial | Closewise",
      description:
        "Help SDRs ramp faster and turn more dials into meetings: live objection replies, call scoring and follow-ups that quote the call. Built for SDR managers.",
    },
  ],
  eyebrow: "For SDR teams",
  h1: "Ramp SDRs faster and turn more dials into meetings",
  heroCopy:
    "A new SDR takes around three months to hit quota, and most of that time is spent learning to handle the same objections on live calls — with a manager who can only listen to a few of them. Closewise gives every SDR the answer to the objection on the call, and gives managers a clear view of the dials-to-meetings funnel for each rep.",
  hero: { signupWidget: true, demo: true },
  features: {
    heading: "Built around the SDR funnel",
    cards: [
      {
        icon: "phone",
        title: "Dials to conversations",
        body: "Openers tailored to the persona help SDRs earn the first thirty seconds instead of getting hung up on.",
      },
      {
        icon: "shield",
        title: "Conversations to meetings",
        body: "Live replies to the top brush-offs — the part of the job new SDRs find hardest — from day one.",
      },
      {
        icon: "users",
        title: "Meetings that hold",
        body: "Qualification prompts and a clean hand-off note, so AEs get meetings that don't no-show or disqualify.",
      },
    ],
  },
  howItWorks: {
    heading: "Ramping a new SDR",
    steps: [
      { title: "Week 1", body: "Shadow top reps' analysed calls and load the team's objection playbook." },
      { title: "Weeks 2–4", body: "Live calls with hints on every objection; managers review flagged calls daily." },
      { title: "Month 2 on", body: "Hints fade as skills grow; scorecards show which step of the funnel to coach next." },
    ],
  },
  proof: {
    kind: "results",
    heading: "SDR team results",
    items: [
      { value: "48%", title: "faster ramp to quota", body: "when new SDRs have live objection replies from their first week." },
      { value: "3x", title: "more meetings per 100 dials", body: "for reps in the bottom half of the team." },
      { value: "67%", title: "of booked meetings held", body: "thanks to qualification prompts and clear hand-offs." },
    ],
  },
  stats: {
    heading: "SDR metrics that move",
    items: [
      { value: "52%", label: "more conversations lasting over a minute" },
      { value: "32%", label: "fewer no-show meetings" },
      { value: "70%", label: "less time on call logging" },
    ],
  },
  articles: {
    heading: "Reading for SDR leaders",
    links: [articles.elevateRamp, articles.spekitOnboarding, articles.yeswareColdCalling],
  },
  closing: {
    heading: "Give your SDRs a head start",
    body: "Try it on five calls free, then roll it out to the floor.",
  },
};
