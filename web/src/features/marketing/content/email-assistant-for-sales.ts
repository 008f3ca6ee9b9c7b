import type { MarketingPage } from "./types";
import { articles } from "./articles";

export const emailAssistantForSales: MarketingPage = {
  id: "email-assistant-for-sales",
  paths: [
    {
      path: "/email-assistant-for-sales",
      title: "Email Assistant for Sales: Follow-Ups Written From the Call | Closewise",
      description:
        "Follow-up e-mails drafted from what the buyer actually said: their pains in their words, the agreed next step and date, ready to send when the call ends.",
    },
  ],
  eyebrow: "Sales e-mail assistant",
  h1: "Follow-up e-mails written from the call you just had",
  heroCopy:
    "Generic AI writes e-mails from a prompt. Closewise writes them from the conversation: the three problems the buyer described, the numbers they mentioned, the stakeholder they want to bring in, and the meeting you agreed. The draft is waiting when you hang up, so it goes out while the call is still fresh.",
  hero: { signupWidget: true, demo: true },
  features: {
    heading: "E-mails that prove you listened",
    cards: [
      {
        icon: "mail",
        title: "Recaps in the buyer's words",
        body: "The pains and goals are quoted back as the buyer put them, which makes the e-mail easy to forward internally.",
      },
      {
        icon: "target",
        title: "One clear next step",
        body: "Every draft ends with the dated next step you agreed on the call — not “let me know your thoughts”.",
      },
      {
        icon: "users",
        title: "Versions for each stakeholder",
        body: "A short version for the champion, a business-case version for their manager, drafted from the same call.",
      },
    ],
  },
  howItWorks: {
    heading: "What goes into a draft",
    steps: [
      { title: "Subject", body: "Specific to the call, like “Recap: cutting onboarding time for the Berlin team”." },
      { title: "Body", body: "What you heard, what you'll do, what they'll do, and the date it happens." },
      { title: "Your voice", body: "Drafts follow your tone and signature; you edit and send from your own mailbox." },
    ],
  },
  proof: {
    kind: "benefits",
    heading: "Why it beats templates",
    items: [
      { title: "Sent in minutes, not days", body: "Recaps go out the same hour, while the buyer still remembers the call." },
      {
        title: "Nothing invented",
        body: "Every point in the draft comes from the transcript, so you never promise what wasn't discussed.",
      },
      { title: "Better replies", body: "Specific e-mails get answers; templates get archived." },
    ],
  },
  stats: {
    heading: "E-mail results",
    items: [
      { value: "38%", label: "higher reply rate than template follow-ups" },
      { value: "42%", label: "faster from call end to e-mail sent" },
      { value: "65%", label: "of drafts sent with light edits only" },
    ],
  },
  articles: {
    heading: "Follow-up e-mail best practice",
    links: [articles.capterraFollowUp, articles.hubspotFollowUp, articles.chorusFollowUp],
  },
  closing: {
    heading: "Never write a recap from memory again",
    body: "Try it on five calls for free.",
  },
};
