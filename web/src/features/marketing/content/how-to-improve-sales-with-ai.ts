import type { MarketingPage } from "./types";
import { articles } from "./articles";

export const howToImproveSalesWithAi: MarketingPage = {
  id: "how-to-improve-sales-with-ai",
  paths: [
    {
      path: "/how-to-improve-sales-with-ai",
      title: "How to Improve Sales With AI: A Practical Playbook | Closewise",
      description:
        "A practical, step-by-step way to improve sales results with AI: start with the call, remove admin, coach on evidence, and measure what changes.",
    },
  ],
  eyebrow: "Playbook",
  h1: "How to improve sales with AI, one workflow at a time",
  heroCopy:
    "Buying an AI tool doesn't improve sales; changing a workflow does. The teams that get results pick one step of the sales process, apply AI to it, and measure the outcome before moving on. This is the order we recommend, starting where the revenue is decided: the conversation.",
  hero: { signupWidget: false, demo: true },
  features: {
    heading: "Three places to start",
    cards: [
      {
        icon: "message",
        title: "1. The live conversation",
        body: "Use live hints for objections and discovery gaps. It is the only step where AI changes what the buyer hears.",
      },
      {
        icon: "clock",
        title: "2. The admin around calls",
        body: "Automate notes, recaps and CRM updates. The hours saved go straight back into prospecting and deals.",
      },
      {
        icon: "trending",
        title: "3. Coaching and forecasting",
        body: "Once calls are captured, coach from real conversations and check the forecast against what buyers said.",
      },
    ],
  },
  howItWorks: {
    heading: "A four-week rollout",
    steps: [
      { title: "Week 1: baseline", body: "Record today's numbers: calls per day, next steps booked, hours on admin, win rate." },
      { title: "Week 2: live hints", body: "Turn on objection handling and discovery prompts for a pilot group of reps." },
      { title: "Week 3: automate admin", body: "Switch on recap drafts and CRM notes; track time saved per rep." },
      { title: "Week 4: compare", body: "Compare pilot and baseline, keep what moved the numbers, drop what didn't." },
    ],
  },
  proof: {
    kind: "results",
    heading: "Typical results after a month",
    items: [
      { value: "3.2 hours", title: "saved per rep per day", body: "from automated notes, recaps and CRM updates." },
      { value: "50%", title: "more next steps booked", body: "with end-of-call prompts." },
      { value: "30%", title: "more selling time", body: "redirected from admin to customer conversations." },
    ],
  },
  stats: {
    heading: "What the research and our users say",
    items: [
      { value: "75%", label: "of generative AI's value sits in four functions, sales among them (McKinsey)" },
      { value: "48%", label: "of users see gains in the first two weeks" },
      { value: "10,000+", label: "sellers using Closewise" },
    ],
  },
  articles: {
    heading: "Read the research",
    links: [articles.mckinseyGenAi, articles.mckinseySalesGrowth, articles.forresterAi],
  },
  closing: {
    heading: "Start with step one today",
    body: "Live hints take about two minutes to install. Try them on five free calls.",
  },
};
