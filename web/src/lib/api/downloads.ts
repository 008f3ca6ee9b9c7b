//! The download chooser's release, asked of the API once per page (`GET /api/downloads`): run-time
//! settings, so one build of the site serves every environment.

import { apiRequest } from "./client";
import type { Downloads } from "./types";

let pending: Promise<Downloads> | null = null;

/** The release and its disk images; a failed answer is not kept, so the next opening asks again. */
export function loadDownloads(): Promise<Downloads> {
  pending ??= apiRequest<Downloads>("/api/downloads").catch((error: unknown) => {
    pending = null;
    throw error;
  });
  return pending;
}

/** Tests start each case without the previous answer. */
export function forgetDownloads(): void {
  pending = null;
}
