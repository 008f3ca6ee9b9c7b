import type { ArticleLink } from "./types";

// Every address here was checked to exist (found in a crawl of the live article) before it was
// added. Do not add an address that has not been opened and read; fewer real links beat many guesses.
export const articles = {
  gongTalkListen: {
    title: "The highest converting talk-to-listen ratio in sales",
    source: "Gong Labs",
    url: "https://www.gong.io/resources/labs/talk-to-listen-conversion-ratio/",
    summary: "Research on 25,537 B2B sales calls: average reps talk 65–75% of the call; top performers hold closer to 43%.",
  },
  salesloftTalkTime: {
    title: "New research: how much talk impacts close rate",
    source: "Salesloft",
    url: "https://salesloft.com/resources/blog/2017/04/new-research-much-talk-impacts-close-rate/",
    summary: "What the talk-to-listen data means for the way reps run discovery and demo calls.",
  },
  yeswareColdCalling: {
    title: "The definitive guide to cold calling",
    source: "Yesware",
    url: "https://www.yesware.com/blog/cold-calling/",
    summary: "Mindset, scripts, objections and follow-up for outbound calling, backed by research.",
  },
  hubspotFollowUp: {
    title: "The number one follow-up mistake salespeople make",
    source: "HubSpot",
    url: "https://blog.hubspot.com/sales/number-one-follow-up-mistake",
    summary: "Why the best follow-up is the next meeting you book before the call ends.",
  },
  chorusFollowUp: {
    title: "How to master your sales call follow-up",
    source: "Chorus",
    url: "https://www.chorus.ai/blog/sales-call-follow-up",
    summary: "Planning follow-ups into the first call and keeping deals moving through long cycles.",
  },
  capterraFollowUp: {
    title: "Sales and the art and science of the follow-up email",
    source: "Capterra",
    url: "https://blog.capterra.com/sales-and-the-art-and-science-of-the-follow-up-email/",
    summary: "How many times to follow up, how to space the e-mails and what to put in them.",
  },
  forresterAi: {
    title: "Will artificial intelligence replace salespeople?",
    source: "Forrester",
    url: "https://www.forrester.com/blogs/artificial-intelligence-replace-salespeople/",
    summary: "Where AI helps sellers, and why judgment on the call stays with the rep.",
  },
  mckinseyGenAi: {
    title: "The economic potential of generative AI: the next productivity frontier",
    source: "McKinsey & Company",
    url: "https://mckinsey.com/featured-insights/mckinsey-live/webinars/the-economic-potential-of-generative-ai-the-next-productivity-frontier",
    summary: "Marketing and sales is one of four functions expected to capture most of generative AI's value.",
  },
  mckinseySalesGrowth: {
    title: "Let's talk about sales growth",
    source: "McKinsey & Company",
    url: "https://mckinsey.com/capabilities/growth-marketing-and-sales/our-insights/lets-talk-about-sales-growth",
    summary: "How high-growth sales organisations use analytics and technology differently.",
  },
  integrityCoaching: {
    title: "The business and personal case for coaching effectiveness",
    source: "Integrity Solutions",
    url: "https://www.integritysolutions.com/blog/coaching-effectiveness-business-personal-cases/",
    summary: "Survey data linking hours of manager coaching to sales goal achievement.",
  },
  atdEnablement: {
    title: "The foundation of sales enablement and sales effectiveness",
    source: "ATD",
    url: "https://www.td.org/insights/mashup-of-sales-enablement-and-sales-effectiveness",
    summary: "Clear definitions of sales productivity, enablement and effectiveness, and how they connect.",
  },
  spekitOnboarding: {
    title: "Build an airtight onboarding flow",
    source: "Spekit",
    url: "https://spekit.com/scaling-sales-course/lesson-2-build-an-airtight-onboarding-flow",
    summary: "Structuring orientation, ramp and certification so new reps know what comes next.",
  },
  elevateRamp: {
    title: "Sales ramp-up time: how to calculate and shorten it",
    source: "Elevate",
    url: "https://elevate.so/blog/sales-ramp-up-time",
    summary: "Three ways to measure ramp, and Bridge Group benchmarks of roughly three months for SDRs.",
  },
  alithyaForecast: {
    title: "Sales forecast accuracy best practices",
    source: "Alithya",
    url: "https://www.alithya.com/en/insights/blog-posts/sales-forecast-accuracy-best-practices",
    summary: "Why pipeline and forecast differ, and what has to be true before a deal enters the forecast.",
  },
} satisfies Record<string, ArticleLink>;
