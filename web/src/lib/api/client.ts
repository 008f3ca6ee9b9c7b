//! The one way the app talks to the API: JSON in and out, the bearer token from the auth session,
//! errors turned into `ApiError` with the server's code and human message, and one retry after a 401
//! (refresh the session, then try again once).

import { config } from "../../config";

/** A second factor the API accepts (`ErrorDetail.methods`). */
export type MfaMethod = "totp" | "recovery_code" | "passkey";

/** What an `mfa_required` answer adds to the error: the sign-in's token (not on step-up) and the factors. */
export interface MfaDetail {
  mfaToken?: string;
  methods?: MfaMethod[];
}

export class ApiError extends Error {
  override name = "ApiError";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly retryAfter: number | null = null,
    readonly mfa: MfaDetail = {},
  ) {
    super(message);
  }
}

/** The request never got an answer (offline, DNS, CORS...). */
export class NetworkError extends Error {
  override name = "NetworkError";
}

/** What the app says when the API does not answer at all. */
export const UNREACHABLE = "Can't reach Closewise — check your connection";

/** A failure in words: the server's message, the unreachable text for no answer, else `fallback`. */
export function failureMessage(error: unknown, fallback = "An unexpected error occurred"): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof NetworkError) return UNREACHABLE;
  return fallback;
}

export interface AuthBridge {
  accessToken(): string | null;
  /** Refreshes the session after a 401; resolves to the new access token or null when signed out. */
  refreshAfterUnauthorized(): Promise<string | null>;
}

let bridge: AuthBridge | null = null;

export function setAuthBridge(next: AuthBridge | null): void {
  bridge = next;
}

export interface RequestOptions {
  method?: "GET" | "POST" | "DELETE" | "PUT" | "PATCH";
  body?: unknown;
  /** Send the bearer token (and refresh + retry once on 401). */
  auth?: boolean;
  /** Include cookies (the refresh token lives in an httpOnly cookie). */
  credentials?: RequestCredentials;
  /** An explicit bearer token (no refresh-and-retry), e.g. for signing out. */
  token?: string;
  signal?: AbortSignal;
}

export function apiUrl(path: string): string {
  return `${config.apiBase}${path}`;
}

async function send(path: string, options: RequestOptions, token: string | null): Promise<Response> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  try {
    return await fetch(apiUrl(path), {
      method: options.method ?? "GET",
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: options.credentials ?? "same-origin",
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    throw new NetworkError(error instanceof Error ? error.message : "Network request failed");
  }
}

export async function toApiError(response: Response): Promise<ApiError> {
  const retryAfterHeader = response.headers.get("Retry-After");
  const retryAfter = retryAfterHeader && /^\d+$/.test(retryAfterHeader) ? Number(retryAfterHeader) : null;
  try {
    const body = (await response.json()) as Partial<{
      error: { code?: unknown; message?: unknown; mfa_token?: unknown; methods?: unknown };
    }>;
    const code = typeof body.error?.code === "string" ? body.error.code : "unknown";
    const message = typeof body.error?.message === "string" ? body.error.message : `Request failed (${response.status})`;
    const mfa: MfaDetail = {};
    if (typeof body.error?.mfa_token === "string") mfa.mfaToken = body.error.mfa_token;
    if (Array.isArray(body.error?.methods))
      mfa.methods = body.error.methods.filter((m): m is MfaMethod => m === "totp" || m === "recovery_code" || m === "passkey");
    return new ApiError(response.status, code, message, retryAfter, mfa);
  } catch {
    return new ApiError(response.status, "unknown", `Request failed (${response.status})`, retryAfter);
  }
}

async function parse<T>(response: Response): Promise<T> {
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const useAuth = options.auth ?? false;
  let token = options.token ?? (useAuth ? (bridge?.accessToken() ?? null) : null);
  if (useAuth && !token) throw new ApiError(401, "not_signed_in", "Please sign in to continue");

  let response = await send(path, options, token);
  if (useAuth && response.status === 401 && bridge) {
    token = await bridge.refreshAfterUnauthorized();
    if (!token) throw await toApiError(response);
    response = await send(path, options, token);
  }
  if (!response.ok) throw await toApiError(response);
  return parse<T>(response);
}
