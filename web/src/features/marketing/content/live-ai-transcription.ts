import type { MarketingPage } from "./types";
import { articles } from "./articles";

export const liveAiTranscription: MarketingPage = {
  id: "live-ai-transcription",
  paths: [
    {
      path: "/live-ai-transcription",
      title: "Live AI Transcription for Sales Calls | Closewise",
      description:
        "Accurate live transcription of both sides of the call, with speaker labels, searchable notes and a summary with action items ready the moment you hang up.",
    },
    {
      path: "/power-your-meetings",
      title: "Power Your Meetings With Live AI Notes and Summaries | Closewise",
      description:
        "Stop typing notes during meetings. Closewise transcribes, highlights decisions and owners, and writes the recap so you can give the meeting your full attention.",
    },
    {
      path: "/ai-for-meeting",
      title: "AI for Meetings: Transcripts, Summaries and Next Steps | Closewise",
      description:
        "AI for every customer meeting: a live transcript, the questions you still need to ask, and a summary with next steps and owners when the meeting ends.",
    },
  ],
  eyebrow: "Live transcription",
  h1: "Every word captured, so you can listen instead of typing",
  heroCopy:
    "Typing notes during a call costs you the details you were supposed to be noting. Closewise transcribes both sides live, marks decisions, numbers and next steps as they are said, and turns the whole meeting into a summary and a follow-up draft the moment it ends.",
  hero: { signupWidget: false, demo: false },
  features: {
    heading: "From conversation to record, automatically",
    cards: [
      {
        icon: "mic",
        title: "Live transcript with speakers",
        body: "See who said what as it happens, and scroll back to check the exact wording of a commitment before you confirm it.",
      },
      {
        icon: "filter",
        title: "Highlights that matter",
        body: "Budgets, dates, competitors, stakeholders and action items are picked out so you don't have to reread forty minutes of text.",
      },
      {
        icon: "mail",
        title: "Summary and recap draft",
        body: "A concise summary with owners and dates, plus a recap e-mail to the buyer, ready before you close the meeting window.",
      },
    ],
  },
  howItWorks: {
    heading: "After the meeting ends",
    steps: [
      {
        title: "Summary",
        body: "Decisions, open questions and next steps, each with an owner and a date when one was mentioned.",
      },
      { title: "Recap e-mail", body: "A draft to the buyer in your tone, confirming what was agreed." },
      { title: "Notes for your CRM", body: "Structured notes ready to paste or sync, so the record matches the conversation." },
    ],
  },
  proof: {
    kind: "results",
    heading: "What teams get back",
    items: [
      { value: "3.2 hours", title: "saved per day", body: "on notes, recaps and updates across a full calendar of calls." },
      { value: "65%", title: "fewer missed action items", body: "because commitments are captured when they are spoken." },
      { value: "42%", title: "faster recap e-mails", body: "sent while the meeting is still fresh for everyone." },
    ],
  },
  stats: {
    heading: "By the numbers",
    items: [
      { value: "10,000+", label: "professionals transcribing calls" },
      { value: "70%", label: "less time writing meeting notes" },
      { value: "4.9/5", label: "average user rating" },
    ],
  },
  articles: {
    heading: "Why follow-up speed matters",
    links: [articles.chorusFollowUp, articles.hubspotFollowUp],
  },
  closing: {
    heading: "Make your next meeting the last one you take notes in",
    body: "Start free with five calls of five minutes, then go unlimited for $20 a month.",
  },
};
