import type { MarketingPage } from "./types";

export const aiSalesHints: MarketingPage = {
  id: "ai-sales-hints",
  paths: [
    {
      path: "/ai-sales-hints",
      title: "AI Sales Hints: One Short Cue at the Right Moment | Closewise",
      description:
        "Small, timely hints during sales calls — a question to ask, a proof point, a reply to an objection — designed to be read in a glance, not studied.",
    },
  ],
  eyebrow: "Live hints",
  h1: "One short hint, exactly when you need it",
  heroCopy:
    "A live assistant that floods you with text is worse than none: you end up reading instead of listening. Closewise is designed around the hint — one short cue, shown at the moment it matters, gone when the conversation moves on. Most hints are under fifteen words.",
  hero: { signupWidget: true, demo: true },
  features: {
    heading: "Designed to be glanced at",
    cards: [
      {
        icon: "zap",
        title: "Short by design",
        body: "A hint is a cue, not a script: “Ask what happens if they do nothing this quarter.” You supply the words.",
      },
      {
        icon: "clock",
        title: "Timed to the conversation",
        body: "Hints appear after the buyer finishes a thought, not while they are mid-sentence, and fade when the topic changes.",
      },
      {
        icon: "filter",
        title: "Only what matters",
        body: "Tune how chatty the assistant is; by default it stays silent unless there is an objection, a question or a missed step.",
      },
    ],
  },
  howItWorks: {
    heading: "Kinds of hints you'll see",
    steps: [
      { title: "Objection", body: "“Price concern — compare to the cost of the manual process they described.”" },
      { title: "Discovery", body: "“You haven't asked who else is involved in the decision.”" },
      { title: "Close", body: "“Ten minutes left — propose a date for the technical review.”" },
    ],
  },
  proof: {
    kind: "results",
    heading: "Why fewer, better hints win",
    items: [
      { value: "58%", title: "of hints acted on", body: "because each one is short enough to use mid-conversation." },
      { value: "35%", title: "more objections answered on the call", body: "instead of deferred to e-mail." },
      { value: "4.9/5", title: "user rating", body: "with “not distracting” the most common comment." },
    ],
  },
  stats: {
    heading: "Hints in numbers",
    items: [
      { value: "<15", label: "words in a typical hint" },
      { value: "60%", label: "of users keep the default quiet mode" },
      { value: "10,000+", label: "sellers using live hints" },
    ],
  },
  closing: {
    heading: "Try a call with hints",
    body: "Five free calls, five minutes each. See whether one good hint changes the call.",
  },
};
