//! The desktop app's sign-in, devices and entitlements (docs/api.md "The desktop app"). The server's
//! checks of an authorization request, its lookup budget and its entitlement rules are not here: the
//! entitlements are the user's fixture (db.createUser), a refusal a test needs is set (`refuse`).

import { db, formatUserCode } from "../db";
import { type MockRoute, apiError, json, noContent, readBody, reauthenticationRequired, route, signedIn } from "./common";

const CLIENT_ID = "closewise-desktop";
const unconfirmed = () => apiError(403, "email_not_confirmed", "Please verify your email address before signing in to the app.");
const refusal = (status: number, code: string, message: string) => ({ error: apiError(status, code, message) });

/** The pending device request behind the body's `user_code` for a verified caller, or the contract's error. */
type Found = { error: Response; row?: never } | { error?: never; row: NonNullable<ReturnType<typeof db.deviceCodes.get>> };
async function pendingDeviceCode(request: Request, verified: boolean): Promise<Found> {
  const row = db.deviceCodes.get((await readBody<"UserCodeBody">(request)).user_code.replace(/[\s-]/g, "").toUpperCase());
  if (!verified) return { error: unconfirmed() };
  if (!row) return refusal(404, "invalid_user_code", "That code is not valid. Check the code shown in the app and try again.");
  if (row.expiresAt < db.now())
    return refusal(400, "expired_user_code", "That code has expired. Start the sign-in again in the app.");
  return row.status === "pending" ? { row } : refusal(409, "user_code_used", "That code has already been used.");
}

export const desktopRoutes: MockRoute[] = [
  route("get", "/api/auth/authorize", ({ request }) => {
    const { redirect_uri, device_name = null, platform = null } = Object.fromEntries(new URL(request.url).searchParams);
    const client = { client_id: CLIENT_ID, client_name: "Closewise for desktop", requested_from: "127.0.0.1" };
    return json({ ...client, redirect_uri, device_name, platform });
  }),
  signedIn("post", "/api/auth/authorize", async ({ user, session }, { request }) => {
    const body = await readBody<"AuthorizeBody">(request);
    if (!user.email_confirmed_at) return unconfirmed();
    const state = `state=${encodeURIComponent(body.state!)}`;
    if (body.decision === "deny") return json({ redirect_to: `${body.redirect_uri}?error=access_denied&${state}` });
    const stale = reauthenticationRequired(session);
    if (stale) return stale;
    // The app exchanges the code at once; the mock starts its session here so the devices list shows it.
    db.startDeviceSession(user.id, body.device_name ?? "Desktop app", body.platform ?? "unknown");
    return json({ redirect_to: `${body.redirect_uri}?code=${db.id("code")}&${state}` });
  }),
  signedIn("post", "/api/auth/device/lookup", async ({ user }, { request }) => {
    const found = await pendingDeviceCode(request, Boolean(user.email_confirmed_at));
    if (found.error) return found.error;
    const { userCode, deviceName: device_name, platform, requestedFrom: requested_from, sameNetwork: same_network } = found.row;
    const [requested_at, expires_at] = [db.iso(found.row.requestedAt), db.iso(found.row.expiresAt)];
    const code = { user_code: formatUserCode(userCode), device_name, platform, status: "pending" };
    return json({ ...code, requested_from, same_network, requested_at, expires_at });
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
      .map(({ id, device }) => ({ id, ...device!, current: id === session.id, created_at: db.iso(device!.createdAt) }))
      .map(({ createdAt, ...device }) => ({ ...device, last_seen_at: db.iso(createdAt) }));
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
    const team = db.team.teamOf(user.id);
    const entitlement_token = "mock.entitlement.token"; // The desktop app checks it; nothing here does.
    return json({ ...db.entitlements.get(user.id), team: team ? { id: team.id, name: team.name } : null, entitlement_token });
  }),
];
