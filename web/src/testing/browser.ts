//! `npm run dev:mock`: the same handlers in a service worker, with a few seeded accounts so every
//! screen can be reached without a server. The db is kept in sessionStorage so that it survives the
//! full page loads of checkout; `closewiseMockDb.outbox` in the console shows the "sent" mail.

import { setupWorker } from "msw/browser";
import { db } from "./db";
import { handlers } from "./handlers";

const KEY = "closewise-mock-db";

function seed() {
  db.createUser({ email: "free@example.com", password: "secret123" });
  db.createUser({ email: "unverified@example.com", password: "secret123", verified: false });
  db.createUser({ email: "paid@example.com", password: "secret123", plan: "monthly" });
  db.createUser({
    email: "cancelling@example.com",
    password: "secret123",
    plan: "monthly",
    subscription: { cancel_at_period_end: true },
  });
}

export async function startMockApi() {
  const saved = sessionStorage.getItem(KEY);
  if (saved) db.restore(saved);
  else seed();
  const worker = setupWorker(...handlers);
  worker.events.on("response:mocked", () => sessionStorage.setItem(KEY, db.snapshot()));
  await worker.start({ onUnhandledRequest: "bypass" });
  (window as unknown as { closewiseMockDb: typeof db }).closewiseMockDb = db;
  console.info("[mock API] accounts free@, unverified@, paid@, cancelling@example.com, password secret123");
}
