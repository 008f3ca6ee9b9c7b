//! Drift test: the MSW handlers must answer only what docs/openapi.json (generated from the API's code)
//! describes. Every handler's path and method must be in the document, and every response the handlers
//! give in the scenarios below (successes and errors) must validate against the document's schema for
//! that status.

import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "./db";
import { routes } from "./handlers";
import { server } from "./server";

interface Operation {
  responses: Record<string, { content?: Record<string, { schema?: object }> }>;
}
type Doc = { paths: Record<string, Record<string, Operation>>; components: object };

const here = dirname(fileURLToPath(import.meta.url));
const doc = JSON.parse(readFileSync(resolve(here, "../../../docs/openapi.json"), "utf8")) as Doc;

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addFormat("int32", { type: "number", validate: (n: number) => Number.isInteger(n) && Math.abs(n) <= 2 ** 31 });
ajv.addFormat("int64", { type: "number", validate: (n: number) => Number.isInteger(n) });
ajv.addSchema({ $id: "openapi.json", components: doc.components });

function rewriteRefs(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rewriteRefs);
  if (schema && typeof schema === "object") {
    return Object.fromEntries(
      Object.entries(schema).map(([k, v]) => [
        k,
        k === "$ref" && typeof v === "string" && v.startsWith("#/") ? `openapi.json${v}` : rewriteRefs(v),
      ]),
    );
  }
  return schema;
}

/** The handlers' paths with `{param}` templates, as patterns for the concrete paths requested. */
const templates = [...new Set(routes.map((r) => r.path))]
  .filter((path) => path.includes("{"))
  .map((path) => ({ path, pattern: new RegExp(`^${path.replace(/\{\w+\}/g, "[^/]+")}$`) }));

function operation(method: string, url: string): { key: string; op: Operation | undefined } {
  const concrete = new URL(url).pathname;
  const path = templates.find((t) => t.pattern.test(concrete))?.path ?? concrete;
  return { key: `${method.toLowerCase()} ${path}`, op: doc.paths[path]?.[method.toLowerCase()] };
}

interface Seen {
  key: string;
  status: number;
  body: unknown;
}
const seen: Seen[] = [];

beforeAll(() => {
  server.events.on("response:mocked", async ({ request, response }) => {
    const text = await response.clone().text();
    seen.push({
      key: operation(request.method, request.url).key,
      status: response.status,
      body: text ? (JSON.parse(text) as unknown) : undefined,
    });
  });
});
afterAll(() => server.events.removeAllListeners());

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

/** Drives every handler through its success and error answers. */
async function exerciseHandlers() {
  const pw = "secret123";
  // accounts
  await call("POST", "/api/auth/signup", { email: "new@example.com", password: pw });
  await call("POST", "/api/auth/signup", { email: "nope", password: pw });
  await call("POST", "/api/auth/signup", { email: "weak@example.com", password: "abc" });
  const verifyToken = db.oneTimeToken("new@example.com", "verify");
  await call("POST", "/api/auth/verify", { token: verifyToken });
  await call("POST", "/api/auth/verify", { token: verifyToken });
  await call("POST", "/api/auth/verify", { token: "bogus" });
  await call("POST", "/api/auth/verify", { token: db.oneTimeToken("new@example.com", "verify", -1) });
  db.createUser({ email: "unverified@example.com", password: pw, verified: false });
  await call("POST", "/api/auth/resend", { email: "unverified@example.com", type: "signup" });
  await call("POST", "/api/auth/resend", { email: "unverified@example.com", type: "signup" });
  await call("POST", "/api/auth/resend", { email: "x@example.com", type: "magiclink" });
  await call("POST", "/api/auth/token?grant_type=password", { email: "new@example.com", password: pw });
  await call("POST", "/api/auth/token?grant_type=password", { email: "new@example.com", password: "wrong" });
  await call("POST", "/api/auth/token?grant_type=password", { email: "unverified@example.com", password: pw });
  await call("POST", "/api/auth/token", { email: "new@example.com", password: pw });
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
  await call("POST", "/api/auth/reset", { token: resetToken, password: "abc" });
  await call("POST", "/api/auth/reset", { token: "bogus", password: "another-secret" });
  await call("POST", "/api/auth/reset", { token: resetToken, password: "another-secret" });
  await call("POST", "/api/auth/reset", { token: resetToken, password: "another-secret" });
  const s2 = db.startSession(db.findUser("new@example.com")!.user.id).accessToken;
  await call("POST", "/api/auth/password", { current_password: "wrong", password: "third-secret" }, s2);
  await call("POST", "/api/auth/password", { current_password: "another-secret", password: "abc" }, s2);
  await call("POST", "/api/auth/password", { current_password: "another-secret", password: "third-secret" }, s2);
  await call("POST", "/api/auth/password", { current_password: "x", password: "y" });
  // plans and billing
  await call("GET", "/api/plan", undefined, s2);
  await call("GET", "/api/plan");
  await call("GET", "/api/products");
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
  await call("POST", "/api/checkout", { ...checkout, success_url: "https://evil.example/x" }, s2);
  await call("POST", "/api/checkout", { ...checkout, price_id: "price_unknown" }, s2);
  await call("POST", "/api/billing/portal", { return_url: `${BASE}/dashboard` }, s2);
  await call("POST", "/api/checkout", checkout, s2);
  const sessionId = [...db.checkoutSessions.keys()].at(-1)!;
  await call("POST", "/api/checkout/confirm", { session_id: "cs_unknown" }, s2);
  await call("POST", "/api/checkout/confirm", { session_id: sessionId }, s2);
  await call("POST", "/api/checkout", checkout, s2);
  await call("POST", "/api/billing/portal", { return_url: `${BASE}/dashboard` }, s2);
  const other = db.createUser({ email: "other@example.com", password: pw });
  const otherToken = db.startSession(other.id).accessToken;
  await call("POST", "/api/checkout/confirm", { session_id: sessionId }, otherToken);
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
  await call("GET", `/api/auth/authorize?${query({ ...authorize, client_id: "other" })}`);
  await call("GET", `/api/auth/authorize?${query({ ...authorize, redirect_uri: "http://localhost:1/callback" })}`);
  await call("GET", `/api/auth/authorize?${query({ ...authorize, code_challenge_method: "plain" })}`);
  await call("POST", "/api/auth/authorize", { ...authorize, decision: "allow" }, s2);
  await call("POST", "/api/auth/authorize", { ...authorize, decision: "deny" }, s2);
  await call("POST", "/api/auth/authorize", { ...authorize, decision: "allow" });
  await call("POST", "/api/auth/authorize", { ...authorize, decision: "allow" }, unverifiedToken);
  await call("POST", "/api/auth/authorize", { ...authorize, state: "", decision: "allow" }, s2);
  const code = db.deviceCode();
  await call("POST", "/api/auth/device/lookup", { user_code: code.toLowerCase() }, s2);
  await call("POST", "/api/auth/device/lookup", { user_code: "BCDF-GHJK" }, s2);
  await call("POST", "/api/auth/device/lookup", { user_code: code }, unverifiedToken);
  await call("POST", "/api/auth/device/lookup", { user_code: db.deviceCode({ ttlMs: -1 }) }, s2);
  await call("POST", "/api/auth/device/approve", { user_code: code }, s2);
  await call("POST", "/api/auth/device/approve", { user_code: code }, s2);
  await call("POST", "/api/auth/device/deny", { user_code: db.deviceCode() }, s2);
  await call("POST", "/api/auth/device/deny", { user_code: "BCDF-GHJK" }, s2);
  for (let i = 0; i < 10; i++) await call("POST", "/api/auth/device/lookup", { user_code: "BCDF-GHJK" }, s2);
  await call("GET", "/api/auth/devices", undefined, s2);
  await call("GET", "/api/auth/devices");
  const device = db.sessions.find((s) => s.device && !s.revoked)!;
  await call("DELETE", `/api/auth/devices/${device.id}`, undefined, s2);
  await call("DELETE", `/api/auth/devices/${device.id}`, undefined, s2);
  await call("GET", "/api/entitlements", undefined, s2);
  await call("GET", "/api/entitlements", undefined, unverifiedToken);
  await call("GET", "/api/entitlements");
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
      const inDoc = Boolean(doc.paths[route.path]?.[route.method]);
      expect(inDoc, `${key} is answered by MSW but missing from docs/openapi.json`).toBe(true);
    }
  });

  it("answer, for success and error alike, only what the document's response schemas allow", async () => {
    await exerciseHandlers();
    const exercised = new Set(seen.map((s) => s.key));
    for (const route of routes) {
      expect(exercised, `no scenario exercises ${route.method} ${route.path}`).toContain(`${route.method} ${route.path}`);
    }
    const problems: string[] = [];
    for (const { key, status, body } of seen) {
      const [method, path] = key.split(" ") as [string, string];
      const op = doc.paths[path]?.[method];
      const response = op?.responses[String(status)];
      if (!response) {
        problems.push(`${key} answered ${status}, which the document does not list`);
        continue;
      }
      const schema = response.content?.["application/json"]?.schema;
      if (!schema) {
        if (body !== undefined) problems.push(`${key} ${status} has a body the document does not describe`);
        continue;
      }
      const validate = ajv.compile(rewriteRefs(schema) as object);
      if (!validate(body)) problems.push(`${key} ${status}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(body)}`);
    }
    expect(problems).toEqual([]);
  });
});
