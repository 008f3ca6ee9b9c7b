import type { MarketingPage } from "./types";
import { articles } from "./articles";

export const salesEnablementTool: MarketingPage = {
  id: "sales-enablement-tool",
  paths: [
    {
      path: "/sales-enablement-tool",
      title: "Sales Enablement Tool That Works Inside the Call | Closewise",
      description:
        "Battlecards, pricing rules and case studies surfaced at the moment a buyer asks, not buried in a content library. Live sales enablement for every rep.",
    },
  ],
  eyebrow: "Sales enablement",
  h1: "Sales enablement that shows up when the buyer asks",
  heroCopy:
    "Enablement teams build battlecards, talk tracks and case studies that reps rarely open mid-call, because nobody can search a wiki while a buyer is talking. Closewise puts that content where it is used: the competitor battlecard appears when the competitor is named, the right case study when the buyer describes a problem you have solved before.",
  hero: { signupWidget: true, demo: false },
  features: {
    heading: "Your playbook, delivered in the moment",
    cards: [
      {
        icon: "book",
        title: "Battlecards on cue",
        body: "Name-drop a competitor and the three differences that matter, plus the landmine question to ask, appear beside the call.",
      },
      {
        icon: "target",
        title: "Case studies that match",
        body: "When a buyer describes their situation, the most similar customer story is suggested with the one number worth quoting.",
      },
      {
        icon: "chart",
        title: "See what gets used",
        body: "Learn which talk tracks reps actually use on calls and which never come up, so you maintain the content that matters.",
      },
    ],
  },
  howItWorks: {
    heading: "Rolling it out to a team",
    steps: [
      { title: "Load your playbook", body: "Add battlecards, pricing guidance, objection answers and case studies once." },
      { title: "Reps install the app", body: "About two minutes per Mac; every rep gets the same content on every call." },
      { title: "Refine from real calls", body: "Update a talk track and every rep has the new version on their next call." },
    ],
  },
  proof: {
    kind: "benefits",
    heading: "Why enablement leaders choose live delivery",
    items: [
      { title: "Content that gets used", body: "Material appears at the moment of need instead of waiting in a portal." },
      { title: "One message across the team", body: "New hires and veterans position the product the same way." },
      { title: "Changes land immediately", body: "A pricing or packaging change reaches every call the same day." },
    ],
  },
  stats: {
    heading: "Enablement impact",
    items: [
      { value: "60%", label: "more battlecard usage on competitive calls" },
      { value: "32%", label: "higher win rate against named competitors" },
      { value: "48%", label: "faster time to first closed deal for new hires" },
    ],
  },
  articles: {
    heading: "Sales enablement reading",
    links: [articles.atdEnablement, articles.spekitOnboarding],
  },
  closing: {
    heading: "Put your playbook on every call",
    body: "Start a free trial for yourself, then roll it out to the team.",
  },
};
