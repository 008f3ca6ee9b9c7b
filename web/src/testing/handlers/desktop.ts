//! The desktop app's sign-in, devices and entitlements (docs/api.md "The desktop app"). The server's
//! checks of an authorization request, its lookup budget and its entitlement rules are not here: the
//! entitlements are the user's fixture (db.createUser), a refusal a test needs is set (`refuse`).

import { db, formatUserCode } from "../db";
import { type MockRoute, apiError, json, noContent, readBody, reauthenticationRequired, signedIn } from "./common";

const CLIENT_ID = "closewise-desktop";
const emailNotConfirmed = () =>
  apiError(403, "email_not_confirmed", "Please verify your email address before signing in to the app.");

/** The pending device request behind the body's `user_code` for a verified caller, or the contract's error. */
async function pendingDeviceCode(request: Request, verified: boolean) {
  const raw = (await readBody<"UserCodeBody">(request)).user_code;
  const row = db.deviceCodes.get(raw.replace(/[\s-]/g, "").toUpperCase());
  if (!verified) return { error: emailNotConfirmed() };
  if (!row)
    return {
      error: apiError(404, "invalid_user_code", "That code is not valid. Check the code shown in the app and try again."),
    };
  if (row.expiresAt < db.now())
    return { error: apiError(400, "expired_user_code", "That code has expired. Start the sign-in again in the app.") };
  if (row.status !== "pending") return { error: apiError(409, "user_code_used", "That code has already been used.") };
  return { row };
}

const base64url = (value: string) => btoa(value).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
/** Shaped like the API's EdDSA entitlement token; the signature is not real (nothing here verifies it). */
function entitlementToken(sub: string, claims: object) {
  const iat = Math.floor(db.now() / 1000);
  const header = base64url(JSON.stringify({ alg: "EdDSA", typ: "entitlement+jwt", kid: "mock" }));
  const payload = base64url(
    JSON.stringify({ iss: "http://localhost", aud: CLIENT_ID, sub, ...claims, iat, valid_until: iat + 86_400 }),
  );
  return `${header}.${payload}.bW9jaw`;
}

export const desktopRoutes: MockRoute[] = [
  {
    method: "get",
    path: "/api/auth/authorize",
    resolver: ({ request }) => {
      const params = Object.fromEntries(new URL(request.url).searchParams);
      const { redirect_uri, device_name = null, platform = null } = params;
      return json({
        client_id: CLIENT_ID,
        client_name: "Closewise for desktop",
        redirect_uri,
        device_name,
        platform,
        requested_from: "127.0.0.1",
      });
    },
  },
  signedIn("post", "/api/auth/authorize", async ({ user, session }, { request }) => {
    const body = await readBody<"AuthorizeBody">(request);
    if (!user.email_confirmed_at) return emailNotConfirmed();
    const back = `${body.redirect_uri}?${body.decision === "deny" ? "error=access_denied" : `code=${db.id("code")}`}&state=${encodeURIComponent(body.state!)}`;
    const stale = body.decision === "deny" ? null : reauthenticationRequired(session);
    if (stale) return stale;
    // The app exchanges the code at once; the mock starts its session here so the devices list shows it.
    if (body.decision !== "deny") db.startDeviceSession(user.id, body.device_name ?? "Desktop app", body.platform ?? "unknown");
    return json({ redirect_to: back });
  }),
  signedIn("post", "/api/auth/device/lookup", async ({ user }, { request }) => {
    const found = await pendingDeviceCode(request, Boolean(user.email_confirmed_at));
    if (found.error) return found.error;
    const { row } = found;
    return json({
      ...{ user_code: formatUserCode(row.userCode), device_name: row.deviceName, platform: row.platform, status: "pending" },
      ...{ requested_from: row.requestedFrom, same_network: row.sameNetwork },
      ...{ requested_at: db.iso(row.requestedAt), expires_at: db.iso(row.expiresAt) },
    });
  }),
  signedIn("post", "/api/auth/device/approve", async ({ user, session }, { request }) => {
    const found = reauthenticationRequired(session) ?? (await pendingDeviceCode(request, Boolean(user.email_confirmed_at)));
    if (found instanceof Response) return found;
    if (found.error) return found.error;
    Object.assign(found.row, { status: "approved", userId: user.id });
    // The device's next poll gets its session; the mock starts it here so the devices list shows it.
    db.startDeviceSession(user.id, found.row.deviceName, found.row.platform);
    return json({ status: "approved" });
  }),
  signedIn("post", "/api/auth/device/deny", async ({ user }, { request }) => {
    const found = await pendingDeviceCode(request, Boolean(user.email_confirmed_at));
    if (found.error) return found.error;
    found.row.status = "denied";
    return json({ status: "denied" });
  }),
  signedIn("get", "/api/auth/devices", ({ user, session }) => {
    const devices = db.sessions
      .filter((s) => s.userId === user.id && s.device && !s.revoked)
      .sort((a, b) => b.device!.createdAt - a.device!.createdAt)
      .map(({ id, device }) => ({
        ...{ id, name: device!.name, platform: device!.platform, current: id === session.id },
        ...{ created_at: db.iso(device!.createdAt), last_seen_at: db.iso(device!.lastSeenAt) },
      }));
    return json({ devices });
  }),
  signedIn("delete", "/api/auth/devices/{id}", ({ user }, { params }) => {
    const row = db.sessions.find((s) => s.id === params.id && s.userId === user.id && s.device && !s.revoked);
    if (!row) return apiError(404, "device_not_found", "That device is not signed in.");
    row.revoked = true;
    return noContent();
  }),
  signedIn("get", "/api/entitlements", ({ user }) => {
    // The fixture's decisions (`source`, `unlimited`...), and the team the user is in now.
    const answer = db.entitlements.get(user.id)!;
    const team = db.team.teamOf(user.id);
    return json({
      ...answer,
      team: team ? { id: team.id, name: team.name } : null,
      entitlement_token: entitlementToken(user.id, { plan_type: answer.plan_type, unlimited: answer.unlimited }),
    });
  }),
];
