//! The scripted call the landing-page demo plays: a customer's three questions, and for each the live
//! hint the rep sees and the follow-up e-mail Closewise drafts from the answer.

export interface DemoExchange {
  speaker: string;
  question: string;
  suggestion: string;
  email: { subject: string; body: string };
}

export const demoScript: [DemoExchange, DemoExchange, DemoExchange] = [
  {
    speaker: "Dana, VP Sales at Northwind",
    question: "We already record our calls. Why would we add another tool?",
    suggestion:
      "Recordings help after the call. Ask which deals slipped last quarter because an objection went unanswered on the call itself.",
    email: {
      subject: "Live help on calls vs. recordings, for Northwind",
      body: "Hi Dana, thanks for the time today. As discussed, recordings show what went wrong; Closewise helps your reps while the call can still be saved. I've attached a one-page comparison. Shall we review it Thursday at 10?",
    },
  },
  {
    speaker: "Dana, VP Sales at Northwind",
    question: "What would it cost to roll this out to twelve reps?",
    suggestion: "It's $20 per rep per month with unlimited calls. Suggest a pilot: three reps start on the free trial this week.",
    email: {
      subject: "Pricing for 12 reps and a 3-rep pilot",
      body: "Hi Dana, for twelve reps the Monthly plan is $20 per rep, unlimited calls. To de-risk it, three of your reps can start the free trial this week. Who should I invite first?",
    },
  },
  {
    speaker: "Dana, VP Sales at Northwind",
    question: "Legal will ask whether the other side can see it.",
    suggestion:
      "It runs only on the rep's Mac: no bot joins the meeting and the overlay stays out of screen sharing. Offer the security overview.",
    email: {
      subject: "Security overview for your legal team",
      body: "Hi Dana, as promised, here is our security overview for legal. Closewise runs on the rep's own Mac, no bot joins your calls and nothing appears in screen share. Happy to join a call with them next week.",
    },
  },
];
