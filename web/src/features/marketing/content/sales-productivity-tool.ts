import type { MarketingPage } from "./types";

export const salesProductivityTool: MarketingPage = {
  id: "sales-productivity-tool",
  paths: [
    {
      path: "/sales-productivity-tool",
      title: "Sales Productivity Tool That Gives Reps Hours Back | Closewise",
      description:
        "Cut the admin around every call — prep, notes, recaps, CRM updates — and spend the time selling. Closewise saves reps up to 3.2 hours a day.",
    },
  ],
  eyebrow: "Sales productivity",
  h1: "Give every rep back the hours lost around each call",
  heroCopy:
    "A thirty-minute call is rarely thirty minutes of work. There is the prep before it, the notes during it, and the recap, CRM update and task list after it. Multiply by six calls a day and the selling day shrinks to a few hours. Closewise does the work around the call so the time goes back to calls.",
  hero: { signupWidget: true, demo: false },
  features: {
    heading: "Where the time comes from",
    cards: [
      {
        icon: "book",
        title: "Prep in a minute",
        body: "A brief with what was said last time, open questions and the agreed agenda, generated from earlier calls.",
      },
      {
        icon: "mic",
        title: "No note-taking",
        body: "The transcript and highlights are captured automatically, so you can look at the buyer, not your keyboard.",
      },
      {
        icon: "mail",
        title: "Recap and admin done",
        body: "The recap e-mail, CRM notes and your task list are drafted before the next call starts.",
      },
    ],
  },
  howItWorks: {
    heading: "A day, before and after",
    steps: [
      { title: "Before", body: "Six calls, each wrapped in about thirty minutes of prep and admin." },
      { title: "After", body: "Prep and admin shrink to a quick review of drafts Closewise already wrote." },
      { title: "The difference", body: "Up to 3.2 hours a day back for prospecting, deals and coaching." },
    ],
  },
  proof: {
    kind: "results",
    heading: "Measured productivity",
    items: [
      { value: "3.2 hours", title: "saved per day", body: "across prep, notes, recaps and CRM updates." },
      { value: "40%", title: "more customer conversations per week", body: "with the same calendar." },
      { value: "70%", title: "less time on call notes", body: "because the transcript and summary write themselves." },
    ],
  },
  stats: {
    heading: "Productivity snapshot",
    items: [
      { value: "3.2 hours", label: "saved per rep per day" },
      { value: "45%", label: "faster call preparation" },
      { value: "10,000+", label: "professionals using Closewise" },
    ],
  },
  closing: {
    heading: "Win back your selling time",
    body: "Five free calls show how much time you save. No card needed.",
  },
};
