// @vitest-environment node
//! Drift test: the MSW handlers must answer only what docs/openapi.json (generated from the API's code)
//! describes. Every handler's path and method must be in the document, and the scenarios below drive
//! each one through its successes and refusals; setup.ts validates every answer (here) and every
//! request (in the other tests) against the document's schemas (./openapi.ts).

import { HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import { db } from "./db";
import { exchanges, refuse, routes, toHandler } from "./handlers";
import { exerciseDomainJoinHandlers, exerciseSetupLinkHandlers, exerciseSsoHandlers } from "./enterpriseContract";
import { exerciseMfaHandlers } from "./mfaContract";
import { contractCheck, operation } from "./openapi";
import { server } from "./server";

const BASE = "http://localhost:3000";
async function call(method: string, path: string, body?: unknown, token?: string) {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(`${BASE}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await response.text();
  return response.status;
}

/** The team endpoints (docs/teams.md), each through its success and its refusals. */
async function exerciseTeamHandlers(base: string, pw: string) {
  const tokenOf = (email: string) => db.startSession(db.createUser({ email, password: pw }).id).accessToken;
  const owner = tokenOf("owner@team.example");
  const admin = tokenOf("admin@team.example");
  const member = tokenOf("member@team.example");
  const outsider = tokenOf("outsider@team.example");
  const unverified = db.startSession(db.createUser({ email: "unverified@team.example", verified: false }).id).accessToken;
  await call("GET", "/api/team", undefined, owner);
  await call("GET", "/api/team");
  await call("POST", "/api/team", { name: "Northwind" }, owner);
  await call("POST", "/api/team", { name: "Again" }, owner);
  await call("GET", "/api/team", undefined, owner);
  await call("PATCH", "/api/team", { name: "Northwind Sales" }, owner);
  await call("PATCH", "/api/team", { name: "x" }, outsider);
  const team = db.team.teamOf(db.findUser("owner@team.example")!.user.id)!;
  await call("POST", "/api/team/invites", { email: "admin@team.example", role: "admin" }, owner);
  const checkout = {
    seats: 3,
    success_url: `${base}/team?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: `${base}/team`,
  };
  // The team's billing portal before it has a Stripe customer, and the refusals that come first.
  await call("POST", "/api/team/billing/portal", {}, owner);
  await call("POST", "/api/team/billing/portal", {});
  await call("POST", "/api/team/billing/portal", {}, outsider);
  await call("POST", "/api/team/billing/portal", { return_url: "https://evil.example/team" }, owner);
  await call("GET", "/api/team/seats/preview?seats=2", undefined, owner);
  await call("POST", "/api/team/checkout", checkout, owner);
  const sessionId = [...db.team.checkouts.keys()].at(-1)!;
  await call("POST", "/api/team/checkout/confirm", { session_id: "cs_unknown" }, owner);
  await call("POST", "/api/team/checkout/confirm", { session_id: sessionId }, outsider);
  await call("POST", "/api/team/billing/cancel", {}, owner);
  await call("POST", "/api/team/checkout/confirm", { session_id: sessionId }, owner);
  await call("POST", "/api/team/checkout", checkout, owner);
  // Cancelled at the period's end with a reason, refused twice, resumed, nothing left to resume.
  await call("POST", "/api/team/billing/cancel", { reason: "unused" }, owner);
  await call("POST", "/api/team/billing/cancel", {}, owner);
  await call("POST", "/api/team/billing/resume", undefined, owner);
  await call("POST", "/api/team/billing/resume", undefined, owner);
  await call("POST", "/api/team/billing/portal", {}, owner);
  await call("POST", "/api/team/billing/portal", { return_url: `${base}/team` }, owner);
  db.team.portalDown = true;
  await call("POST", "/api/team/billing/portal", {}, owner);
  db.team.portalDown = false;
  await call("POST", "/api/team/invites", { email: "admin@team.example", role: "admin" }, owner);
  const adminInvite = db.team.invites.filter((i) => i.email === "admin@team.example").at(-1)!;
  await call("POST", "/api/team/invites/lookup", { token: adminInvite.token });
  await call("POST", "/api/team/invites/lookup", { token: "inv_unknown" });
  await call("POST", "/api/team/invites/accept", { token: adminInvite.token }, admin);
  await call("POST", "/api/team/invites/accept", { token: adminInvite.token }, admin);
  const memberToken = db.team.invite(team.id, "member@team.example", "member");
  await call("POST", "/api/team/invites", { email: "full@team.example", role: "member" }, admin);
  await call("POST", "/api/team/invites", { email: "another-admin@team.example", role: "admin" }, admin);
  await call("POST", "/api/team/invites/accept", { token: memberToken }, member);
  await call("POST", "/api/team/invites", { email: "member@team.example", role: "member" }, owner);
  const declined = db.team.invite(team.id, "outsider@team.example", "member");
  const unverifiedInvite = db.team.invite(team.id, "unverified@team.example", "member");
  await call("POST", "/api/team/invites/decline", { token: unverifiedInvite }, unverified);
  db.team.inviteByToken(unverifiedInvite)!.revokedAt = db.now();
  await call("POST", "/api/team/invites/decline", { token: declined }, outsider);
  const expired = db.team.invite(team.id, "late@team.example", "member");
  db.team.inviteByToken(expired)!.expiresAt = db.now() - 1;
  await call("POST", "/api/team/invites/lookup", { token: expired });
  // An invitee's own open invitations, accepted from /team by id (another address's is not found).
  const mine = db.team.invites.find((i) => i.email === "outsider@team.example" && db.team.isPending(i));
  await call("GET", "/api/team/invites/mine", undefined, outsider);
  await call("POST", `/api/team/invites/${mine?.id ?? "none"}/accept`, undefined, member);
  await call("GET", "/api/team/invites/mine", undefined, unverified);
  await call("POST", "/api/team/invites", { email: "rep@team.example", role: "member" }, member);
  await call("GET", "/api/team/seats/preview?seats=2", undefined, owner);
  await call("GET", "/api/team/seats/preview?seats=4", undefined, owner);
  await call("GET", "/api/team/seats/preview?seats=4", undefined, member);
  await call("PUT", "/api/team/seats", { seats: 2, proration_date: 1 }, owner);
  await call("PUT", "/api/team/seats", { seats: 4, proration_date: 1 }, owner);
  await call("GET", "/api/team/adoption", undefined, owner);
  await call("GET", "/api/team/adoption", undefined, member);
  await call("GET", "/api/team/audit", undefined, admin);
  await call("GET", "/api/team/audit", undefined, member);
  await call("POST", "/api/team/reclaim", { user_ids: [], seats: 4, dry_run: true }, owner);
  await call("POST", "/api/team/reclaim", { user_ids: [], seats: 4 }, owner);
  await call("POST", "/api/team/billing/portal", {}, admin);
  await call("POST", "/api/team/billing/portal", {}, member);
  const pending = db.team.invite(team.id, "rep@team.example", "member");
  const invite = db.team.inviteByToken(pending)!;
  await call("POST", `/api/team/invites/${invite.id}/resend`, undefined, owner);
  await call("POST", `/api/team/invites/${invite.id}/resend`, undefined, owner);
  await call("POST", `/api/team/invites/unknown/resend`, undefined, owner);
  await call("DELETE", `/api/team/invites/${invite.id}`, undefined, owner);
  await call("DELETE", `/api/team/invites/${invite.id}`, undefined, owner);
  const memberId = db.findUser("member@team.example")!.user.id;
  const adminId = db.findUser("admin@team.example")!.user.id;
  // The lists a page at a time: the first, the next, a bad limit or cursor; no invites for members.
  await call("GET", "/api/team/members?limit=1", undefined, owner);
  await call("GET", `/api/team/members?limit=1&cursor=${db.team.membersOf(team.id)[0]!.userId}`, undefined, member);
  await call("GET", "/api/team/members?limit=0", undefined, owner);
  await call("GET", "/api/team/members?cursor=nope", undefined, owner);
  await call("GET", "/api/team/members", undefined, outsider);
  await call("GET", "/api/team/invites", undefined, owner);
  await call("GET", "/api/team/invites?limit=501", undefined, admin);
  await call("GET", "/api/team/invites", undefined, member);
  await call("PUT", `/api/team/members/${memberId}/role`, { role: "admin" }, admin);
  await call("PUT", `/api/team/members/${memberId}/role`, { role: "admin" }, owner);
  await call("DELETE", `/api/team/members/${adminId}`, undefined, member);
  await call("DELETE", "/api/team/members/unknown", undefined, owner);
  await call("POST", "/api/team/transfer", { user_id: crypto.randomUUID() }, owner);
  await call("POST", "/api/team/transfer", { user_id: adminId }, owner);
  await call("POST", "/api/team/leave", undefined, admin);
  await call("POST", "/api/team/leave", undefined, owner);
  await call("DELETE", `/api/team/members/${memberId}`, undefined, owner);
  await call("DELETE", "/api/team", { password: "wrong" }, admin);
  await call("DELETE", "/api/team", { password: "wrong" }, owner);
  await call("DELETE", "/api/team", { password: pw }, owner);
  await call("POST", "/api/team/leave", undefined, owner);
}

/** Drives every handler through its success and error answers. */

async function exerciseHandlers() {
  const pw = "secret123";
  // accounts
  await call("POST", "/api/auth/signup", { email: "new@example.com", password: pw });
  const verifyToken = db.oneTimeToken("new@example.com", "verify");
  await call("POST", "/api/auth/verify", { token: verifyToken });
  await call("POST", "/api/auth/verify", { token: verifyToken });
  await call("POST", "/api/auth/verify", { token: "bogus" });
  await call("POST", "/api/auth/verify", { token: db.oneTimeToken("new@example.com", "verify", -1) });
  // Two sign-ups of one unconfirmed address: the link asks for a password (docs/api.md).
  await call("POST", "/api/auth/signup", { email: "twice@example.com", password: pw });
  await call("POST", "/api/auth/signup", { email: "twice@example.com", password: "another-secret" });
  const chooseAnswer = await fetch(`${BASE}/api/auth/verify`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ token: db.oneTimeToken("twice@example.com", "verify") }),
  }).then((r) => r.json() as Promise<{ password_token: string }>);
  const passwordToken = chooseAnswer.password_token;
  await call("POST", "/api/auth/verify/password", { password_token: "bogus", password: "chosen-secret" });
  await call("POST", "/api/auth/verify/password", { password_token: passwordToken, password: "chosen-secret" });
  await call("POST", "/api/auth/verify/password", { password_token: passwordToken, password: "chosen-secret" });
  db.createUser({ email: "unverified@example.com", password: pw, verified: false });
  await call("POST", "/api/auth/resend", { email: "unverified@example.com", type: "signup" });
  await call("POST", "/api/auth/resend", { email: "unverified@example.com", type: "signup" });
  await call("POST", "/api/auth/token?grant_type=password", { email: "new@example.com", password: pw });
  await call("POST", "/api/auth/token?grant_type=password", { email: "new@example.com", password: "wrong" });
  await call("POST", "/api/auth/token?grant_type=password", { email: "unverified@example.com", password: pw });
  await call("POST", "/api/auth/token?grant_type=refresh_token", {});
  const spent = db.refreshCookie!;
  await call("POST", "/api/auth/token?grant_type=refresh_token", {});
  await call("POST", "/api/auth/token?grant_type=refresh_token", { refresh_token: spent });
  await call("POST", "/api/auth/token?grant_type=refresh_token", { refresh_token: "unknown" });
  const session = db.startSession(db.findUser("new@example.com")!.user.id);
  const token = session.accessToken;
  await call("GET", "/api/auth/user", undefined, token);
  await call("GET", "/api/auth/user");
  await call("GET", "/api/auth/user", undefined, "bad-token");
  await call("POST", "/api/auth/recover", { email: "new@example.com" });
  await call("POST", "/api/auth/recover", { email: "new@example.com" });
  const resetToken = db.oneTimeToken("new@example.com", "reset");
  await call("POST", "/api/auth/reset", { token: "bogus", password: "another-secret" });
  await call("POST", "/api/auth/reset", { token: resetToken, password: "another-secret" });
  await call("POST", "/api/auth/reset", { token: resetToken, password: "another-secret" });
  const s2 = db.startSession(db.findUser("new@example.com")!.user.id).accessToken;
  await call("POST", "/api/auth/password", { current_password: "wrong", password: "third-secret" }, s2);
  await call("POST", "/api/auth/password", { current_password: "another-secret", password: "third-secret" }, s2);
  await call("POST", "/api/auth/password", { current_password: "x-secret", password: "y-secret" });
  // plans and billing
  await call("GET", "/api/plan", undefined, s2);
  await call("GET", "/api/plan");
  await call("GET", "/api/products");
  await call("GET", "/api/downloads");
  await call("GET", "/api/subscription", undefined, s2);
  await call("GET", "/api/subscription");
  const success = `${BASE}/success?session_id={CHECKOUT_SESSION_ID}`;
  const checkout = {
    price_id: "price_closewise_monthly",
    mode: "subscription",
    success_url: success,
    cancel_url: `${BASE}/pricing`,
  };
  await call("POST", "/api/checkout", checkout);
  await call("POST", "/api/billing/portal", { return_url: `${BASE}/dashboard` }, s2);
  await call("POST", "/api/checkout", checkout, s2);
  const sessionId = [...db.checkoutSessions.keys()].at(-1)!;
  await call("POST", "/api/checkout/confirm", { session_id: "cs_unknown" }, s2);
  await call("POST", "/api/checkout/confirm", { session_id: sessionId }, s2);
  await call("POST", "/api/checkout", checkout, s2);
  await call("POST", "/api/billing/portal", { return_url: `${BASE}/dashboard` }, s2);
  await call("GET", "/api/billing/interval/preview?interval=week", undefined, s2);
  await call("GET", "/api/billing/interval/preview?interval=year", undefined, s2);
  await call("PUT", "/api/billing/interval", { interval: "year", proration_date: 1 }, s2);
  await call("GET", "/api/billing/cancellation-reasons");
  await call("POST", "/api/billing/resume", undefined, s2);
  await call("POST", "/api/billing/cancel", { reason: "too_expensive" }, s2);
  await call("POST", "/api/billing/cancel", {}, s2);
  await call("POST", "/api/billing/resume", undefined, s2);
  await call("POST", "/api/billing/cancel", undefined, s2);
  await call("POST", "/api/billing/cancel", {});
  const other = db.createUser({ email: "other@example.com", password: pw });
  const otherToken = db.startSession(other.id).accessToken;
  await call("POST", "/api/checkout/confirm", { session_id: sessionId }, otherToken);
  await call("POST", "/api/billing/cancel", {}, otherToken);
  db.checkoutSessions.set("cs_unpaid", { id: "cs_unpaid", userId: other.id, paid: false });
  await call("POST", "/api/checkout/confirm", { session_id: "cs_unpaid" }, otherToken);
  const unverifiedToken = db.startSession(db.findUser("unverified@example.com")!.user.id).accessToken;
  await call("POST", "/api/checkout", checkout, unverifiedToken);
  // the desktop app: browser sign-in, device codes, devices, entitlements
  const authorize = {
    response_type: "code",
    client_id: "closewise-desktop",
    redirect_uri: "http://127.0.0.1:53682/callback",
    code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    code_challenge_method: "S256",
    state: "xyz",
    device_name: "Ana's Mac",
    platform: "macos",
  };
  const query = (params: Record<string, string>) => new URLSearchParams(params).toString();
  await call("GET", `/api/auth/authorize?${query(authorize)}`);
  await call("POST", "/api/auth/authorize", { ...authorize, decision: "allow" }, s2);
  await call("POST", "/api/auth/authorize", { ...authorize, decision: "deny" }, s2);
  await call("POST", "/api/auth/authorize", { ...authorize, decision: "allow" });
  await call("POST", "/api/auth/authorize", { ...authorize, decision: "allow" }, unverifiedToken);
  // sudo mode: a password entered 16 minutes ago is refused, then entered again (wrong, then right)
  const stale = db.startSession(db.findUser("new@example.com")!.user.id);
  stale.passwordAt = db.now() - 16 * 60_000;
  await call("POST", "/api/auth/authorize", { ...authorize, decision: "allow" }, stale.accessToken);
  await call("POST", "/api/auth/device/approve", { user_code: db.deviceCode() }, stale.accessToken);
  await call("POST", "/api/auth/reauthenticate", { password: "wrong" }, stale.accessToken);
  await call("POST", "/api/auth/reauthenticate", { password: "third-secret" });
  await call("POST", "/api/auth/reauthenticate", { password: "third-secret" }, stale.accessToken);
  await call("POST", "/api/auth/authorize", { ...authorize, decision: "allow" }, stale.accessToken);
  const code = db.deviceCode();
  await call("POST", "/api/auth/device/lookup", { user_code: code.toLowerCase() }, s2);
  await call("POST", "/api/auth/device/lookup", { user_code: "BCDF-GHJK" }, s2);
  await call("POST", "/api/auth/device/lookup", { user_code: code }, unverifiedToken);
  await call("POST", "/api/auth/device/lookup", { user_code: db.deviceCode({ ttlMs: -1 }) }, s2);
  await call("POST", "/api/auth/device/approve", { user_code: code }, s2);
  await call("POST", "/api/auth/device/approve", { user_code: code }, s2);
  await call("POST", "/api/auth/device/deny", { user_code: db.deviceCode() }, s2);
  await call("POST", "/api/auth/device/deny", { user_code: "BCDF-GHJK" }, s2);
  await call("GET", "/api/auth/devices", undefined, s2);
  await call("GET", "/api/auth/devices");
  const device = db.sessions.find((s) => s.device && !s.revoked)!;
  await call("DELETE", `/api/auth/devices/${device.id}`, undefined, s2);
  await call("DELETE", `/api/auth/devices/${device.id}`, undefined, s2);
  await call("GET", "/api/entitlements", undefined, s2);
  await call("GET", "/api/entitlements", undefined, unverifiedToken);
  await call("GET", "/api/entitlements");
  // a refusal the server decides, set as a fixture, is checked against the document too
  server.use(
    refuse("post", "/api/auth/signup", 422, "weak_password", "This password is too common. Please choose another one", {
      once: true,
    }),
  );
  await call("POST", "/api/auth/signup", { email: "weak@example.com", password: "password" });
  await exerciseTeamHandlers(BASE, pw);
  await exerciseDomainJoinHandlers(call, pw);
  await exerciseSsoHandlers(call, pw);
  await exerciseSetupLinkHandlers(call, pw);
  await exerciseMfaHandlers(call, pw);
  // sessions end
  await call("DELETE", "/api/account", { password: "wrong" }, otherToken);
  await call("DELETE", "/api/account", { password: pw }, otherToken);
  await call("POST", "/api/auth/logout?scope=global", undefined, s2);
  await call("POST", "/api/auth/logout?scope=local", undefined, s2);
}

describe("MSW handlers against docs/openapi.json", () => {
  it("handle only paths and methods the document has", () => {
    for (const route of routes) {
      const key = `${route.method} ${route.path}`;
      expect(operation(route.method, route.path), `${key} is answered by MSW but missing from docs/openapi.json`).toBeDefined();
    }
  });

  it("answer, for success and error alike, only what the document's response schemas allow", async () => {
    const exercised = new Set<string>();
    const check = exchanges.check!;
    exchanges.check = (method, path, request, response) => {
      exercised.add(`${method} ${path}`);
      return check(method, path, request, response);
    };
    try {
      await exerciseHandlers();
    } finally {
      exchanges.check = check;
    }
    for (const route of routes) {
      expect(exercised, `no scenario exercises ${route.method} ${route.path}`).toContain(`${route.method} ${route.path}`);
    }
    expect(contractCheck.problems.splice(0)).toEqual([]);
  });

  it("catch a handler answering outside the document, and a request outside it", async () => {
    server.use(
      toHandler({ method: "get", path: "/api/plan", resolver: () => HttpResponse.json({ plan_type: 1 }) }),
      toHandler({ method: "post", path: "/api/auth/recover", resolver: () => HttpResponse.json({}, { status: 418 }) }),
    );
    await call("GET", "/api/plan");
    await call("POST", "/api/auth/recover", { mail: "ana@example.com" });
    expect(contractCheck.problems.splice(0)).toEqual([
      expect.stringMatching(/^get \/api\/plan 200: .*must have required property/),
      expect.stringMatching(/^post \/api\/auth\/recover request: .*must have required property 'email'/),
      "post /api/auth/recover answered 418, which the document does not list",
    ]);
  });
});
