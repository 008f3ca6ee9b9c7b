//! The web's side of the desktop app's sign-in (docs/api.md "The desktop app"): the `/authorize`
//! consent page, the `/activate` device code page and the devices list in settings. The OAuth grants
//! themselves are the app's calls; the web never makes them.

import { apiRequest } from "./client";
import type {
  AuthorizeCheck,
  AuthorizeDecision,
  AuthorizeParams,
  AuthorizeResult,
  Device,
  DeviceCodeDecision,
  DeviceCodeRequest,
} from "./types";

const AUTHORIZE_KEYS = [
  "response_type",
  "client_id",
  "redirect_uri",
  "code_challenge",
  "code_challenge_method",
  "state",
  "device_name",
  "platform",
] as const satisfies readonly (keyof AuthorizeParams)[];

/** The authorization request's parameters from the page's query; anything else is left behind. */
export function authorizeParams(search: URLSearchParams): Partial<AuthorizeParams> {
  const params: Partial<AuthorizeParams> = {};
  for (const key of AUTHORIZE_KEYS) {
    const value = search.get(key);
    if (value !== null) params[key] = value;
  }
  return params;
}

export function checkAuthorize(params: Partial<AuthorizeParams>) {
  const query = new URLSearchParams(params).toString();
  return apiRequest<AuthorizeCheck>(`/api/auth/authorize?${query}`);
}

export function decideAuthorize(params: Partial<AuthorizeParams>, decision: AuthorizeDecision) {
  return apiRequest<AuthorizeResult>("/api/auth/authorize", { method: "POST", body: { ...params, decision }, auth: true });
}

export function lookupDeviceCode(userCode: string) {
  return apiRequest<DeviceCodeRequest>("/api/auth/device/lookup", { method: "POST", body: { user_code: userCode }, auth: true });
}

export function decideDeviceCode(userCode: string, decision: "approve" | "deny") {
  return apiRequest<DeviceCodeDecision>(`/api/auth/device/${decision}`, {
    method: "POST",
    body: { user_code: userCode },
    auth: true,
  });
}

export function listDevices() {
  return apiRequest<{ devices: Device[] }>("/api/auth/devices", { auth: true });
}

export function signOutDevice(id: string) {
  return apiRequest<void>(`/api/auth/devices/${encodeURIComponent(id)}`, { method: "DELETE", auth: true });
}
