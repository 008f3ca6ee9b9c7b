import type { MarketingPage } from "./types";
import { articles } from "./articles";

export const realTimeConversationGuidance: MarketingPage = {
  id: "real-time-conversation-guidance",
  paths: [
    {
      path: "/real-time-conversation-guidance",
      title: "Real-Time Conversation Guidance for Sales Calls | Closewise",
      description:
        "Closewise listens to your sales call and shows what to say next: answers to objections, questions to ask and the next step to propose, live on your screen.",
    },
    {
      path: "/real-time-support",
      title: "Real-Time Support During Live Sales Calls | Closewise",
      description:
        "Get support the moment a prospect pushes back. Closewise surfaces a tested reply, the facts you need and a follow-up question while the call is still going.",
    },
    {
      path: "/real-time-ai-coaching",
      title: "Real-Time AI Coaching Inside Every Call | Closewise",
      description:
        "AI coaching that happens during the call, not a week later: talk-time nudges, missed discovery questions and objection replies, shown only to you.",
    },
  ],
  eyebrow: "Live guidance",
  h1: "Know what to say next, while the call is still happening",
  heroCopy:
    "Most call coaching arrives after the deal is already decided. Closewise follows the conversation as it happens and puts the next best move on your screen: the reply to the objection you just heard, the discovery question you skipped, the moment to ask for a next step.",
  hero: { signupWidget: true, demo: true },
  features: {
    heading: "Guidance that keeps pace with the conversation",
    cards: [
      {
        icon: "message",
        title: "Replies to what was just said",
        body: "When a buyer says “we already have a vendor” or “send me something”, a short, specific reply appears within seconds, written for that objection rather than pulled from a generic script.",
      },
      {
        icon: "target",
        title: "Discovery you won't skip",
        body: "Closewise tracks which questions you have covered — pain, impact, timeline, decision process — and prompts the one that is still open before the call runs out.",
      },
      {
        icon: "clock",
        title: "Talk-time nudges",
        body: "If you have been talking for two minutes straight, a quiet reminder suggests a question that hands the conversation back to the buyer.",
      },
    ],
  },
  howItWorks: {
    heading: "What happens during a call",
    steps: [
      { title: "It listens", body: "The desktop app transcribes both sides of the call locally on your screen as you talk." },
      {
        title: "It recognises the moment",
        body: "Objections, buying signals, competitor mentions and unanswered questions are detected as they are said.",
      },
      {
        title: "It suggests, you decide",
        body: "One short suggestion at a time, phrased so you can say it in your own words — never a wall of text to read out.",
      },
    ],
  },
  proof: {
    kind: "benefits",
    heading: "Why reps keep it open on every call",
    items: [
      { title: "Fewer frozen moments", body: "Pricing and competitor pushback stop being the part of the call you dread." },
      { title: "Better discovery", body: "Calls end with the information your forecast actually needs." },
      {
        title: "Coaching that sticks",
        body: "You practise the right habit on live calls instead of hearing about it in a review.",
      },
    ],
  },
  stats: {
    heading: "Teams using live guidance report",
    items: [
      { value: "35%", label: "more objections handled without escalation" },
      { value: "43%", label: "of rep talk time on calls that close" },
      { value: "4.9/5", label: "average rating from sales users" },
    ],
  },
  articles: {
    heading: "Further reading on running better calls",
    links: [articles.gongTalkListen, articles.salesloftTalkTime],
  },
  closing: {
    heading: "Take guidance into your next call",
    body: "Install the app in about 2 minutes and run five calls free. No card needed for the trial.",
  },
};
