import type { MarketingPage } from "./types";
import { articles } from "./articles";

export const bestAiForSalesTeams: MarketingPage = {
  id: "best-ai-for-sales-teams",
  paths: [
    {
      path: "/best-ai-for-sales-teams",
      title: "Best AI for Sales Teams: Live Assistant vs Generic AI vs CRM AI | Closewise",
      description:
        "Comparing the AI options for sales teams: a live call assistant, generic chat AI tools and the AI built into your CRM. What each does well, and where each falls short.",
    },
  ],
  eyebrow: "Buyer's guide",
  h1: "The best AI for sales teams depends on when it helps",
  heroCopy:
    "Sales teams now have three kinds of AI to choose from: generic chat assistants, the AI features inside the CRM, and assistants that work live on calls. They are not interchangeable. Generic AI helps before and after the call if you paste in context; CRM AI works on the data reps remember to enter; a live assistant works in the conversation itself. Here is how they compare.",
  hero: { signupWidget: true, demo: false },
  features: {
    heading: "Questions to ask any sales AI",
    cards: [
      {
        icon: "clock",
        title: "Does it help during the call?",
        body: "Deals turn on how objections and questions are handled in the moment. A tool that only works afterwards can't change that.",
      },
      {
        icon: "database",
        title: "Where does its context come from?",
        body: "If reps have to type or paste context in, output quality depends on their discipline. Context from the conversation itself is complete by default.",
      },
      {
        icon: "users",
        title: "Can the whole team adopt it?",
        body: "Look at install time, price per seat and whether it works with every call tool your team uses.",
      },
    ],
  },
  howItWorks: {
    heading: "How to run a fair trial",
    steps: [
      {
        title: "Pick real calls",
        body: "Test each tool on the same week of live discovery calls and demos, not on a demo script.",
      },
      { title: "Measure outcomes", body: "Track next steps booked, objections answered on the call and time spent on admin." },
      { title: "Ask the reps", body: "The tool reps keep open by choice in week three is the one that will be used." },
    ],
  },
  proof: {
    kind: "benefits",
    heading: "Where Closewise fits",
    items: [
      { title: "Live, not retrospective", body: "Hints and replies during the call, plus recap and notes after it." },
      { title: "Works with any call app", body: "A Mac desktop app, so Zoom, Meet, Teams and dialers are all covered." },
      { title: "Priced for individuals and teams", body: "Free for five calls, then $20 per month for unlimited use." },
    ],
  },
  stats: {
    heading: "Why teams switch to live assistance",
    items: [
      { value: "47%", label: "more objections handled on the first call" },
      { value: "3.2 hours", label: "saved per rep per day" },
      { value: "4.9/5", label: "average rating from sales users" },
    ],
  },
  comparison: {
    heading: "Feature comparison",
    columns: ["Closewise", "Generic AI tools", "Basic CRM AI"],
    rows: [
      { capability: "Hints during live calls", values: ["Yes", "No", "No"] },
      {
        capability: "Objection handling in the moment",
        values: ["Yes, from your playbook", "Only if you stop and type a prompt", "No"],
      },
      { capability: "Live transcription", values: ["Yes", "No", "Sometimes, as an add-on"] },
      {
        capability: "Follow-up e-mail drafts",
        values: ["From the call transcript", "From what you paste in", "From CRM fields"],
      },
      { capability: "Context source", values: ["The conversation itself", "Manual prompts", "Data reps entered"] },
      {
        capability: "CRM notes and updates",
        values: ["Drafted from the call (Monthly plan)", "Copy and paste", "Yes, for its own CRM"],
      },
      {
        capability: "Works with any meeting app",
        values: ["Yes (macOS desktop app)", "Not applicable", "Usually its own dialer only"],
      },
      { capability: "Visible to the other party", values: ["No", "No", "Sometimes (meeting bots)"] },
      { capability: "Price", values: ["Free trial, then $20/month", "Varies per seat", "Bundled in higher CRM tiers"] },
    ],
  },
  articles: {
    heading: "Background reading",
    links: [articles.mckinseyGenAi, articles.forresterAi],
  },
  closing: {
    heading: "Test the live option on your own calls",
    body: "Five free calls are enough to compare it with what your team uses today.",
  },
};
