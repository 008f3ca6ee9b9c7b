//! `npm run dev:mock`: the same handlers in a service worker, with a few seeded accounts so every
//! screen can be reached without a server. The db is kept in sessionStorage so that it survives the
//! full page loads of checkout; `closewiseMockDb.outbox` in the console shows the "sent" mail.

import { setupWorker } from "msw/browser";
import { db } from "./db";
import { handlers } from "./handlers";

const KEY = "closewise-mock-db";

function seed() {
  const free = db.createUser({ email: "free@example.com", entitlements: { calls: { limit: 5, used: 3, remaining: 2 } } });
  db.startDeviceSession(free.id, "Work iMac", "macos", Date.now() - 2 * 86_400_000);
  // A desktop app waiting at /activate?user_code=WDJB-MJHT (for an hour, not the API's 10 minutes).
  db.deviceCode({ code: "WDJB-MJHT", deviceName: "Ana's MacBook Pro", platform: "macos", ttlMs: 3_600_000 });
  db.createUser({ email: "unverified@example.com", verified: false, checkout: "verify_email" });
  db.createUser({ email: "paid@example.com", plan: "monthly" });
  db.createUser({ email: "cancelling@example.com", plan: "monthly", subscription: { cancel_at_period_end: true } });
  // A paid team: owner@ owns it, member@ holds a seat, and an invitation waits at /invite?token=….
  db.createUser({ email: "owner@example.com", password: "secret123" });
  const { tokens } = db.seedTeam({
    owner: "owner@example.com",
    seats: 3,
    members: [{ email: "member@example.com" }],
    invites: [{ email: "free@example.com", role: "admin" }],
  });
  console.info(`[mock API] team invitation for free@example.com: /invite?token=${tokens[0]}`);
}

export async function startMockApi() {
  const saved = sessionStorage.getItem(KEY);
  if (saved) db.restore(saved);
  else seed();
  const worker = setupWorker(...handlers);
  worker.events.on("response:mocked", () => sessionStorage.setItem(KEY, db.snapshot()));
  await worker.start({ onUnhandledRequest: "bypass" });
  (window as unknown as { closewiseMockDb: typeof db }).closewiseMockDb = db;
  console.info(
    "[mock API] accounts free@, unverified@, paid@, cancelling@, owner@ (team Northwind Sales), member@example.com, password secret123; device code WDJB-MJHT",
  );
}
