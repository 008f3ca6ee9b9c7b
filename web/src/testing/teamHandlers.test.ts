//! The mock team API refuses what the real one refuses (docs/api.md "Teams" and "Team billing",
//! crates/domain/src/team_billing.rs): checkout only when `may_start_checkout` allows it, the team's
//! billing portal, transfers to non-members, the owner leaving and declining unverified.

import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { TeamSubscription } from "../lib/api/types";
import { db } from "./db";

const BASE = "http://localhost:3000";
const OWNER = "ana@northwind.example";
const here = dirname(fileURLToPath(import.meta.url));

async function call(method: string, path: string, token?: string, body?: unknown) {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(`${BASE}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  const json = (text ? JSON.parse(text) : undefined) as { error?: { code: string; message: string }; url?: string } | undefined;
  return { status: response.status, code: json?.error?.code, message: json?.error?.message, url: json?.url };
}

const tokenOf = (email: string) => db.startSession(db.findUser(email)!.user.id).accessToken;

function seed(input: { seats?: number; status?: TeamSubscription["status"] } = {}) {
  db.createUser({ email: OWNER });
  const seeded = db.seedTeam({
    owner: OWNER,
    ...input,
    members: [
      { email: "bo@northwind.example", role: "admin" },
      { email: "cy@northwind.example", role: "member" },
    ],
  });
  return { ...seeded, owner: tokenOf(OWNER) };
}

const checkout = {
  seats: 3,
  success_url: `${BASE}/team?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
  cancel_url: `${BASE}/team`,
};

describe("the mock team checkout", () => {
  it.each([
    ["active", 409],
    ["trialing", 409],
    ["past_due", 409],
    ["unpaid", 409],
    ["paused", 409],
    ["canceled", 200],
    ["incomplete", 200],
    ["incomplete_expired", 200],
  ] as const)("for a team whose subscription is %s answers %i", async (status, expected) => {
    const { owner } = seed({ seats: 3, status });
    const got = await call("POST", "/api/team/checkout", owner, checkout);
    expect(got.status).toBe(expected);
    if (expected === 409) expect(got.code).toBe("team_already_subscribed");
  });

  it("starts one for a team without a subscription", async () => {
    const { owner } = seed();
    expect((await call("POST", "/api/team/checkout", owner, checkout)).status).toBe(200);
  });

  it("checks the return addresses before the subscription, as the API does", async () => {
    const { owner } = seed({ seats: 3, status: "active" });
    const got = await call("POST", "/api/team/checkout", owner, { ...checkout, success_url: "https://evil.example/team" });
    expect(got).toMatchObject({
      status: 400,
      code: "invalid_redirect_url",
      message: "The return addresses must be pages of this site",
    });
  });

  it("holds a smaller number of seats from the checkout on", async () => {
    const { owner, team } = seed({ seats: 5, status: "canceled" });
    expect((await call("POST", "/api/team/checkout", owner, { ...checkout, seats: 3 })).status).toBe(200);
    expect(team.seats).toBe(3);
  });
});

describe("the mock team's billing is the owner's (docs/teams.md, \"Who pays\")", () => {
  it.each([
    ["bo@northwind.example", "an admin"],
    ["cy@northwind.example", "a member"],
  ])("refuses %s (%s) buying, previewing and changing seats with 403 forbidden_role", async (email) => {
    const { owner, team } = seed();
    const caller = tokenOf(email);
    expect(await call("POST", "/api/team/checkout", caller, checkout)).toMatchObject({ status: 403, code: "forbidden_role" });
    expect(db.team.checkouts.size).toBe(0);
    expect((await call("POST", "/api/team/checkout", owner, checkout)).status).toBe(200);
    const sessionId = [...db.team.checkouts.keys()].at(-1)!;
    db.team.checkouts.get(sessionId)!.paid = true;
    // Reading a paid checkout back is harmless: anyone in the team.
    expect((await call("POST", "/api/team/checkout/confirm", caller, { session_id: sessionId })).status).toBe(200);
    expect(await call("GET", "/api/team/seats/preview?seats=4", caller)).toMatchObject({ status: 403, code: "forbidden_role" });
    expect(await call("PUT", "/api/team/seats", caller, { seats: 4 })).toMatchObject({ status: 403, code: "forbidden_role" });
    expect(team.seats).toBe(3);
    expect((await call("GET", "/api/team/seats/preview?seats=4", owner)).status).toBe(200);
    expect((await call("PUT", "/api/team/seats", owner, { seats: 4 })).status).toBe(200);
    expect(team.seats).toBe(4);
  });
});

describe("the mock team billing portal", () => {
  it("opens for the owner once the team has a customer, back to /team by default or to a page of this site", async () => {
    const { owner, team } = seed();
    expect(await call("POST", "/api/team/billing/portal", owner, {})).toMatchObject({
      status: 404,
      code: "no_customer",
      message: "The team has no billing account yet. Buy seats first.",
    });
    // Starting the first checkout creates the team's customer.
    expect((await call("POST", "/api/team/checkout", owner, checkout)).status).toBe(200);
    expect(team.customerId).toBeTruthy();
    expect(await call("POST", "/api/team/billing/portal", owner, {})).toMatchObject({ status: 200, url: `${BASE}/team` });
    expect(await call("POST", "/api/team/billing/portal", owner, "")).toMatchObject({ status: 200, url: `${BASE}/team` });
    expect(await call("POST", "/api/team/billing/portal", owner, { return_url: `${BASE}/dashboard` })).toMatchObject({
      status: 200,
      url: `${BASE}/dashboard`,
    });
  });

  it("refuses other sites, admins, members, people in no team, and says when Stripe fails", async () => {
    seed({ seats: 3 });
    const owner = tokenOf(OWNER);
    expect(await call("POST", "/api/team/billing/portal", owner, { return_url: "https://evil.example/team" })).toMatchObject({
      status: 400,
      code: "invalid_redirect_url",
      message: "The return addresses must be pages of this site",
    });
    expect(await call("POST", "/api/team/billing/portal", tokenOf("bo@northwind.example"), {})).toMatchObject({
      status: 403,
      code: "forbidden_role",
    });
    expect(await call("POST", "/api/team/billing/portal", tokenOf("cy@northwind.example"), {})).toMatchObject({
      status: 403,
      code: "forbidden_role",
    });
    db.createUser({ email: "solo@example.com" });
    expect(await call("POST", "/api/team/billing/portal", tokenOf("solo@example.com"), {})).toMatchObject({
      status: 404,
      code: "team_not_found",
    });
    expect((await call("POST", "/api/team/billing/portal", undefined, {})).status).toBe(401);
    db.team.portalDown = true;
    expect(await call("POST", "/api/team/billing/portal", owner, {})).toMatchObject({
      status: 502,
      code: "portal_failed",
      message: "Could not open the billing portal. Please try again.",
    });
  });
});

describe("the mock team's refusals", () => {
  it("answers 404 team_not_found for a transfer to someone who is not a member, 400 invalid_transfer to oneself", async () => {
    const { owner } = seed({ seats: 3 });
    db.createUser({ email: "outsider@example.com" });
    const outsider = db.findUser("outsider@example.com")!.user.id;
    expect(await call("POST", "/api/team/transfer", owner, { user_id: outsider })).toMatchObject({
      status: 404,
      code: "team_not_found",
    });
    expect(await call("POST", "/api/team/transfer", owner, { user_id: db.findUser(OWNER)!.user.id })).toMatchObject({
      status: 400,
      code: "invalid_transfer",
    });
  });

  it("refuses the owner leaving with the API's own message", async () => {
    const { owner } = seed();
    const got = await call("POST", "/api/team/leave", owner);
    expect(got).toMatchObject({ status: 400, code: "owner_cannot_leave" });
    expect(got.message).toBe("The owner cannot leave the team. Transfer it to another member first.");
    // The API builds its errors in one place (crates/api/src/error.rs).
    const rust = readFileSync(resolve(here, "../../../crates/api/src/error.rs"), "utf8");
    expect(rust).toContain(`"${got.message}"`);
  });

  it("refuses declining for an unverified caller as accepting does", async () => {
    const { team } = seed({ seats: 4 });
    db.createUser({ email: "rep@northwind.example", verified: false });
    const token = db.team.invite(team.id, "rep@northwind.example", "member");
    const rep = tokenOf("rep@northwind.example");
    expect(await call("POST", "/api/team/invites/decline", rep, { token })).toMatchObject({
      status: 403,
      code: "email_not_verified",
    });
    expect(await call("POST", "/api/team/invites/accept", rep, { token })).toMatchObject({
      status: 403,
      code: "email_not_verified",
    });
    expect(db.team.inviteByToken(token)?.declinedAt).toBeNull();
  });

  it("checks the address before the verification, without regard to case, as the service does", async () => {
    const { team } = seed({ seats: 4 });
    db.createUser({ email: "rep@northwind.example", verified: false });
    db.createUser({ email: "eve@else.example", verified: false });
    const token = db.team.invite(team.id, "Rep@Northwind.example", "member");
    for (const path of ["/api/team/invites/accept", "/api/team/invites/decline"]) {
      expect(await call("POST", path, tokenOf("eve@else.example"), { token })).toMatchObject({
        status: 409,
        code: "invite_other_address",
      });
      expect(await call("POST", path, tokenOf("rep@northwind.example"), { token })).toMatchObject({
        status: 403,
        code: "email_not_verified",
      });
    }
  });
});
