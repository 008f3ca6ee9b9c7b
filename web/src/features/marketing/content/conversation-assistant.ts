import type { MarketingPage } from "./types";

export const conversationAssistant: MarketingPage = {
  id: "conversation-assistant",
  paths: [
    {
      path: "/conversation-assistant",
      title: "Conversation Assistant for Sales Calls | Closewise",
      description:
        "A conversation assistant that follows the thread of your sales call, remembers what the buyer said earlier and suggests the reply that moves it forward.",
    },
    {
      path: "/ai-conversation-assistant",
      title: "AI Conversation Assistant That Remembers the Whole Call | Closewise",
      description:
        "Closewise keeps track of names, numbers and concerns from minute one, so its AI suggestions at minute forty still fit the conversation you are having.",
    },
    {
      path: "/cursor-for-conversations",
      title: "Cursor for Conversations: Autocomplete for Sales Calls | Closewise",
      description:
        "What Cursor does for code, Closewise does for sales calls: it reads the context and suggests the next line, and you decide whether to use it.",
    },
  ],
  eyebrow: "Conversation assistant",
  h1: "Autocomplete for the conversation you are having",
  heroCopy:
    "Developers got editors that read the whole file and suggest the next line. Closewise brings that to sales calls: it keeps the entire conversation in context — the budget mentioned at minute three, the competitor named at minute twelve — and suggests the next thing to say. You accept it, reword it or ignore it.",
  hero: { signupWidget: true, demo: true },
  features: {
    heading: "Context is the difference",
    cards: [
      {
        icon: "book",
        title: "Remembers the whole call",
        body: "Numbers, names and concerns raised early are carried forward, so suggestions late in the call reference what the buyer actually said.",
      },
      {
        icon: "message",
        title: "Suggests, never speaks",
        body: "Closewise never talks on your behalf. It proposes wording; you stay the one in the conversation.",
      },
      {
        icon: "sparkles",
        title: "Learns your product",
        body: "Give it your positioning, pricing and case studies, and suggestions use your facts instead of generic sales phrases.",
      },
    ],
  },
  howItWorks: {
    heading: "Like autocomplete, for speech",
    steps: [
      { title: "Read the context", body: "The live transcript and your product notes form the context for every suggestion." },
      {
        title: "Predict the useful next line",
        body: "When the buyer asks or objects, a suggestion appears that answers with your facts.",
      },
      { title: "Keep what works", body: "Suggestions you use are remembered, so the assistant adapts to how you sell." },
    ],
  },
  proof: {
    kind: "benefits",
    heading: "What it changes on a call",
    items: [
      {
        title: "No more “let me get back to you”",
        body: "Technical and pricing questions get an answer on the call instead of a follow-up that stalls the deal.",
      },
      { title: "Consistent messaging", body: "Every rep describes the product the way your best rep does." },
      { title: "Calmer calls", body: "With the next line a glance away, you can listen instead of planning your answer." },
    ],
  },
  stats: {
    heading: "Results reported by users",
    items: [
      { value: "47%", label: "fewer questions deferred to a later call" },
      { value: "3x", label: "faster answers to technical questions" },
      { value: "58%", label: "of suggestions used as shown or lightly reworded" },
    ],
  },
  closing: {
    heading: "Give your next call a co-writer",
    body: "Five free calls, no card. See how it feels to have the next line ready.",
  },
};
