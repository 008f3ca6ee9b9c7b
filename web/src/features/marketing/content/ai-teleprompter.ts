import type { MarketingPage } from "./types";

export const aiTeleprompter: MarketingPage = {
  id: "ai-teleprompter",
  paths: [
    {
      path: "/ai-teleprompter",
      title: "AI Teleprompter for Sales Calls and Demos | Closewise",
      description:
        "An AI teleprompter that writes the prompt as the call unfolds: key points, replies to objections and proof points, in a small overlay only you can see.",
    },
    {
      path: "/magical-teleprompter",
      title: "The Magical Teleprompter That Writes Itself | Closewise",
      description:
        "A teleprompter without a script to prepare. Closewise follows your sales conversation and shows the next line worth saying, right beside your call window.",
    },
    {
      path: "/undetectable-ai",
      title: "Private AI Assistant for Calls, Visible Only to You | Closewise",
      description:
        "Closewise runs on your Mac, not in the meeting: no bot joins, nothing appears in screen share. Private live prompts for sales calls, shown only on your screen.",
    },
  ],
  eyebrow: "AI teleprompter",
  h1: "A teleprompter that writes the script as the buyer talks",
  heroCopy:
    "A classic teleprompter needs a script written in advance, and sales calls never follow one. Closewise listens instead, then shows a short prompt next to your call window: the point to make, the number to quote, the question to ask. It stays on your screen and out of the meeting.",
  hero: { signupWidget: false, demo: true },
  features: {
    heading: "Built for talking, not reading",
    cards: [
      {
        icon: "sparkles",
        title: "Prompts, not paragraphs",
        body: "Each prompt is one or two lines you can glance at and say naturally, so you keep eye contact with the camera instead of reading.",
      },
      {
        icon: "monitor",
        title: "Sits beside your call",
        body: "A compact overlay you can place near your camera. Resize it, move it, or hide it with a keyboard shortcut.",
      },
      {
        icon: "shield",
        title: "Private to you",
        body: "No bot joins the meeting and the overlay is kept out of screen sharing. The other side sees you, not your prompts.",
      },
    ],
  },
  howItWorks: {
    heading: "How the prompts are written",
    steps: [
      { title: "Context first", body: "Add your product notes, pricing and common objections once; every prompt draws on them." },
      {
        title: "Live listening",
        body: "The conversation is transcribed as it happens so the prompt matches what was actually said.",
      },
      {
        title: "One line at a time",
        body: "The prompt updates as the topic moves on, so there is never a backlog to scroll through.",
      },
    ],
  },
  proof: {
    kind: "benefits",
    heading: "Where a live teleprompter helps most",
    items: [
      { title: "Product demos", body: "The right feature and customer story for the question the buyer just asked." },
      { title: "Pricing conversations", body: "Your approved positioning on discounts and terms, exactly when price comes up." },
      {
        title: "New territory",
        body: "Industry terms and proof points when you are selling into a market you are still learning.",
      },
    ],
  },
  stats: {
    heading: "What users tell us",
    items: [
      { value: "10,000+", label: "sales professionals using Closewise" },
      { value: "52%", label: "feel more confident on pricing calls" },
      { value: "38%", label: "shorter prep time before demos" },
    ],
  },
  closing: {
    heading: "Try the teleprompter on a real call",
    body: "Five free calls of five minutes each are enough to see whether it fits the way you sell. Please follow the call-recording consent rules that apply where you and your buyers are.",
  },
};
