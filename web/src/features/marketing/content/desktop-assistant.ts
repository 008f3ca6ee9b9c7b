import type { MarketingPage } from "./types";
import { articles } from "./articles";

export const desktopAssistant: MarketingPage = {
  id: "desktop-assistant",
  paths: [
    {
      path: "/desktop-assistant",
      title: "Desktop Sales Assistant for Mac | Closewise",
      description:
        "A native Mac app that works with Zoom, Google Meet, Teams and your dialer. Live hints, transcripts and follow-up drafts without browser extensions.",
    },
    {
      path: "/ai-desktop-assistant",
      title: "AI Desktop Assistant for Sales Professionals | Closewise",
      description:
        "Closewise is an AI desktop assistant for sellers: one app for every call tool you use, with live objection handling and follow-up e-mails ready when you hang up.",
    },
    {
      path: "/desktop-assistant-ai",
      title: "Desktop Assistant AI That Works With Any Call App | Closewise",
      description:
        "Install once, use on every call. Closewise's desktop AI listens to the call on your Mac, whatever the meeting app, and shows hints in a small overlay.",
    },
  ],
  eyebrow: "Desktop app for macOS",
  h1: "One desktop assistant for every call app you use",
  heroCopy:
    "Your calls happen in Zoom on Monday, Google Meet on Tuesday and a dialer in between. A browser extension only covers one of them. Closewise runs as a native Mac app, so the same live hints, transcript and follow-up drafts are there whichever tool the buyer picked.",
  hero: { signupWidget: true, demo: false },
  features: {
    heading: "Why a desktop app",
    cards: [
      {
        icon: "monitor",
        title: "Works with any meeting tool",
        body: "Zoom, Google Meet, Microsoft Teams, Slack huddles or a softphone: if the audio plays on your Mac, Closewise can follow the call.",
      },
      {
        icon: "zap",
        title: "Fast on Apple Silicon and Intel",
        body: "Separate builds for Apple Silicon (M1, M2, M3) and Intel Macs keep the overlay responsive while you screen share.",
      },
      {
        icon: "clock",
        title: "Installed in about two minutes",
        body: "Download, drag to Applications, sign in. No IT ticket, no calendar access required to get your first hint.",
      },
    ],
  },
  howItWorks: {
    heading: "Getting set up",
    steps: [
      {
        title: "Download the right build",
        body: "Pick Apple Silicon or Intel; the download page tells you how to check which Mac you have.",
      },
      { title: "Allow audio access", body: "macOS asks once for permission to hear the call audio and your microphone." },
      { title: "Start a call as usual", body: "Closewise notices the call and opens its overlay; close it any time." },
    ],
  },
  proof: {
    kind: "results",
    heading: "What changes after the first week",
    items: [
      {
        value: "3.2 hours",
        title: "saved per day",
        body: "Notes, recaps and CRM updates are drafted while you talk instead of after.",
      },
      {
        value: "45%",
        title: "fewer tabs during calls",
        body: "Battlecards and pricing notes come to you, so you stop searching mid-sentence.",
      },
      {
        value: "30%",
        title: "faster follow-up",
        body: "The recap e-mail is ready when the call ends, while the buyer still remembers it.",
      },
    ],
  },
  stats: {
    heading: "At a glance",
    items: [
      { value: "2 min", label: "typical install time" },
      { value: "10,000+", label: "users on macOS" },
      { value: "4.9/5", label: "average user rating" },
    ],
  },
  articles: {
    heading: "Read more",
    links: [articles.mckinseyGenAi],
  },
  closing: {
    heading: "Put the assistant on your Mac",
    body: "Start with five free calls. Windows support is coming soon.",
  },
};
