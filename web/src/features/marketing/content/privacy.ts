import type { DocumentPage } from "../documentTypes";

export const privacy: DocumentPage = {
  path: "/privacy",
  title: "Privacy Policy | Closewise",
  description:
    "What Closewise keeps and why: the desktop app's live call hints, your web account, Stripe payments, analytics only with consent, cookies, retention and deletion.",
  h1: "Privacy Policy",
  updated: "Last updated: 23 November 2026",
  intro:
    "Closewise has two parts: a desktop app that listens to your sales calls on your computer to show live hints, and this website with your account. This page says what each part handles, what we keep, and how to have it removed.",
  sections: [
    {
      id: "desktop-app",
      heading: "What the desktop app hears",
      blocks: [
        {
          text: "While you use it on a call, the desktop app listens to the call's audio on your computer so that it can show live hints: suggested replies, objection handling and follow-up drafts. Call audio is processed for these live hints as described in the desktop app's own notice, which it shows before it first listens.",
        },
        {
          text: "The desktop app's notice is the authority on what happens to call audio. If anything about it is unclear, write to {support} before you use the app on a call.",
        },
      ],
    },
    {
      id: "account",
      heading: "What the website keeps about your account",
      blocks: [
        {
          list: [
            "Your e-mail address, to sign you in and to send account mail such as the verification link.",
            "A hash of your password (argon2id). We never store the password itself and cannot read it.",
            "Your plan (Free Trial or Unlimited Sales Copilot) and your subscription's status.",
            "Session records for each sign-in: the browser's user agent and the IP address it came from, so you can sign out everywhere and we can spot misuse.",
            "An audit trail of changes our operators make to your account, so every change has a name and a reason.",
          ],
        },
      ],
    },
    {
      id: "payments",
      heading: "Payments",
      blocks: [
        {
          text: "Payments are processed by Stripe. You enter your card on Stripe's own page; card data never touches our servers. We receive from Stripe what we need to run your subscription: its status, its renewal or end date, and the card's brand and last four digits to show on your dashboard.",
        },
      ],
    },
    {
      id: "analytics",
      heading: "Analytics and consent",
      blocks: [
        {
          text: "We use PostHog to learn which pages and features are used, and only after you agree. Until you choose Accept in the consent banner nothing is sent and the analytics code is not even loaded. If you choose Decline, or your browser sends Global Privacy Control or Do Not Track, nothing is sent.",
        },
        {
          text: "When you agree, page views are recorded by address without query strings or fragments, so links with tokens (e-mail verification, password reset) are never sent.",
        },
      ],
    },
    {
      id: "cookies",
      heading: "Cookies and local storage",
      blocks: [
        {
          list: [
            "cw_refresh: one httpOnly session cookie that keeps you signed in. It is sent only to /api/auth and lasts 30 days; signing out removes it.",
            "Your analytics answer (Accept or Decline) is kept in your browser's localStorage so we do not ask again.",
          ],
        },
        { text: "We set no advertising or third-party tracking cookies." },
      ],
    },
    {
      id: "retention",
      heading: "How long we keep it",
      blocks: [
        {
          text: "We keep your account data for as long as you have an account. Session records and the audit trail are kept with the account. Call audio is handled as the desktop app's notice describes.",
        },
      ],
    },
    {
      id: "deletion",
      heading: "Deleting your account",
      blocks: [
        {
          text: "You can delete your account at any time under Account settings, Delete account. Deletion removes your account and cancels your subscription. If you cannot sign in, write to {support} from the address you signed up with.",
        },
      ],
    },
    {
      id: "contact",
      heading: "Contact",
      blocks: [{ text: "Questions about privacy, call audio or your data: {support}." }],
    },
  ],
};
