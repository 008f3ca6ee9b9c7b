import type { DocumentPage } from "../documentTypes";

export const support: DocumentPage = {
  path: "/support",
  title: "Contact and Support | Closewise",
  description:
    "How to reach Closewise: write to support about your account, billing, the desktop app, privacy questions or deleting your data, and what to include so we can help.",
  h1: "Contact and Support",
  intro: "Write to {support}. A person reads every message.",
  sections: [
    {
      id: "what-to-include",
      heading: "What to include",
      blocks: [
        {
          list: [
            "The e-mail address of your Closewise account.",
            "What you were doing and what you expected to happen.",
            "For the desktop app: your Mac's chip (Apple Silicon or Intel) and the app's version.",
          ],
        },
        { text: "Never send your password or your full card number: we will never ask for them." },
      ],
    },
    {
      id: "self-service",
      heading: "Things you can do yourself",
      blocks: [
        {
          list: [
            "Change your password, sign out everywhere or delete your account: Account settings.",
            "Change your card or cancel your subscription: Manage Billing on your dashboard.",
            "Reset a forgotten password: Forgot password? on the sign-in page.",
          ],
        },
      ],
    },
  ],
};
