//! Entitlements (docs/api.md "Entitlements and calls"): the dashboard's call meter. Starting, timing
//! and ending calls are the desktop app's calls; the web never makes them.

import { apiRequest } from "./client";
import type { Entitlements } from "./types";

export function getEntitlements() {
  return apiRequest<Entitlements>("/api/entitlements", { auth: true });
}
