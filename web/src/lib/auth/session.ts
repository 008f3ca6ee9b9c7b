//! The browser's session: the access token lives in memory only, the refresh token in the httpOnly
//! `cw_refresh` cookie. On start the session is restored from the cookie; it is refreshed before it
//! expires (a 30 s tick, refreshing when fewer than 3 ticks remain), temporary failures (network down,
//! 429, 5xx) are retried with exponential back-off from 200 ms, then once a tick (doubling up to five
//! minutes) and at once when the browser is back online: only a refused refresh token signs out (a
//! restore that cannot reach the server stays "loading" and keeps the hint). Every change is shared with the app's other tabs through a
//! BroadcastChannel, so signing in, refreshing or signing out in one tab is reflected in all of them.

import * as authApi from "../api/auth";
import { ApiError } from "../api/client";
import type { Session, User } from "../api/types";

export interface ActiveSession {
  accessToken: string;
  /** Unix seconds. */
  expiresAt: number;
  user: User;
}

export type AuthState =
  | { status: "loading"; session: null; user: null }
  | { status: "signedIn"; session: ActiveSession; user: User }
  | { status: "signedOut"; session: null; user: null };

export const LOADING: AuthState = { status: "loading", session: null, user: null };
const SIGNED_OUT: AuthState = { status: "signedOut", session: null, user: null };

/**
 * The spec's auth events ("signed in, signed out, token refreshed, user updated, password recovery,
 * MFA verified"), for listeners of `onEvent`. A sign-in finished with a second factor is "MFA
 * verified" then "signed in".
 */
export type AuthEvent = "SIGNED_IN" | "SIGNED_OUT" | "TOKEN_REFRESHED" | "USER_UPDATED" | "PASSWORD_RECOVERY" | "MFA_VERIFIED";

type Message = { type: "session"; session: ActiveSession } | { type: "signedOut" };

export interface AuthApi {
  refresh(): Promise<Session>;
  signIn(body: { email: string; password: string }): Promise<Session>;
  signOut(token: string, scope: "local" | "global"): Promise<void>;
}

/**
 * Whether this browser may hold a session cookie. The cookie is httpOnly, so a flag in localStorage
 * remembers it: visitors who never signed in cause no refresh call (and no 401) at all.
 */
export interface SessionHint {
  get(): boolean;
  set(present: boolean): void;
}

const HINT_KEY = "closewise.session";

export const localStorageHint: SessionHint = {
  get() {
    try {
      return window.localStorage.getItem(HINT_KEY) === "1";
    } catch {
      return true; // storage blocked: ask the server
    }
  },
  set(present) {
    try {
      if (present) window.localStorage.setItem(HINT_KEY, "1");
      else window.localStorage.removeItem(HINT_KEY);
    } catch {
      // storage blocked: nothing to remember
    }
  },
};

export interface AuthManagerOptions {
  api?: AuthApi;
  hint?: SessionHint;
  now?: () => number;
  channelName?: string;
  tickMs?: number;
  thresholdTicks?: number;
  backoffStartMs?: number;
}

const defaultApi: AuthApi = {
  refresh: authApi.refreshSession,
  signIn: authApi.signInWithPassword,
  signOut: authApi.signOutRequest,
};

function toActive(session: Session): ActiveSession {
  return { accessToken: session.access_token, expiresAt: session.expires_at, user: session.user };
}

/** The server refused the refresh token (missing, ended, revoked): the only failure that signs out. */
function refused(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 400 || error.status === 401 || error.status === 403);
}

/** The longest wait between two tries once the quick back-off is spent. */
const MAX_RETRY_MS = 5 * 60_000;

export class AuthManager {
  private state: AuthState = LOADING;
  private listeners = new Set<() => void>();
  private eventListeners = new Set<(event: AuthEvent) => void>();
  private channel: BroadcastChannel | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private restoring: Promise<void> | null = null;
  private refreshing: Promise<ActiveSession | null> | null = null;
  /** The next try after a refresh that failed for a reason that passes; `laterTries` counts them. */
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private laterTries = 0;
  /** True while "signed out" only because the hint said no session; a guarded page still asks. */
  private skippedRestore = false;
  /** The restore (still loading) has failed for want of an answer (offline, 5xx, 429) and retries. */
  private unreachable = false;
  /** Ends the back-off's current wait at once (Try again, back online). */
  private wake: (() => void) | null = null;
  private readonly api: AuthApi;
  private readonly hint: SessionHint;
  private readonly now: () => number;
  private readonly channelName: string;
  private readonly tickMs: number;
  private readonly thresholdTicks: number;
  private readonly backoffStartMs: number;

  constructor(options: AuthManagerOptions = {}) {
    this.api = options.api ?? defaultApi;
    this.hint = options.hint ?? localStorageHint;
    this.now = options.now ?? Date.now;
    this.channelName = options.channelName ?? "closewise-auth";
    this.tickMs = options.tickMs ?? 30_000;
    this.thresholdTicks = options.thresholdTicks ?? 3;
    this.backoffStartMs = options.backoffStartMs ?? 200;
  }

  getSnapshot = (): AuthState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Hears this tab's auth events; answers the function that stops it. */
  onEvent = (listener: (event: AuthEvent) => void): (() => void) => {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  };

  private emit(event: AuthEvent) {
    for (const listener of this.eventListeners) listener(event);
  }

  accessToken(): string | null {
    return this.state.status === "signedIn" ? this.state.session.accessToken : null;
  }

  /** Opens the cross-tab channel, starts the refresh tick and restores the session once. */
  start(): Promise<void> {
    if (!this.channel && typeof BroadcastChannel !== "undefined") {
      this.channel = new BroadcastChannel(this.channelName);
      this.channel.onmessage = (event: MessageEvent<Message>) => this.receive(event.data);
    }
    if (!this.timer) this.timer = setInterval(() => void this.tick(), this.tickMs);
    if (typeof document !== "undefined") document.addEventListener("visibilitychange", this.onVisible);
    if (typeof window !== "undefined") window.addEventListener("online", this.onOnline);
    this.restoring ??= this.hint.get()
      ? this.refresh().then(() => undefined)
      : Promise.resolve().then(() => {
          if (this.state.status === "loading") {
            this.skippedRestore = true;
            this.set(SIGNED_OUT);
          }
        });
    return this.restoring;
  }

  stop(): void {
    this.channel?.close();
    this.channel = null;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (typeof document !== "undefined") document.removeEventListener("visibilitychange", this.onVisible);
    if (typeof window !== "undefined") window.removeEventListener("online", this.onOnline);
    this.cancelRetry();
  }

  async signIn(email: string, password: string): Promise<User> {
    const session = toActive(await this.api.signIn({ email, password }));
    this.adopt(session, true);
    this.emit("SIGNED_IN");
    return session.user;
  }

  /**
   * Adopts the session a second factor (a code after `mfa_required`) or a passkey sign-in answered;
   * `mfa`: the sign-in passed a second factor ("MFA verified").
   */
  async signInWith(grant: () => Promise<Session>, { mfa }: { mfa: boolean }): Promise<User> {
    const session = toActive(await grant());
    this.adopt(session, true);
    if (mfa) this.emit("MFA_VERIFIED");
    this.emit("SIGNED_IN");
    return session.user;
  }

  /** Ends the session on the server (this one, or every one with "global") and in every tab. */
  async signOut(scope: "local" | "global" = "local"): Promise<void> {
    const token = this.accessToken();
    if (token) {
      try {
        await this.api.signOut(token, scope);
      } catch (error) {
        // An already invalid token means the session is over anyway.
        if (!(error instanceof ApiError && error.status === 401)) throw error;
      }
    }
    this.clear();
  }

  /** Forgets the session here and in the other tabs (after sign-out or account deletion). */
  clear(): void {
    this.set(SIGNED_OUT);
    this.post({ type: "signedOut" });
    this.emit("SIGNED_OUT");
  }

  /** Records a changed user (e.g. just verified) and tells the other tabs. */
  updateUser(user: User): void {
    if (this.state.status !== "signedIn") return;
    this.adopt({ ...this.state.session, user }, true);
    this.emit("USER_UPDATED");
  }

  /**
   * The state once it is known (signed in or out). A restore that keeps failing for a reason that
   * passes stays "loading", so this waits through its retries.
   */
  settled(): Promise<AuthState> {
    if (this.state.status !== "loading") return Promise.resolve(this.state);
    return new Promise((resolve) => {
      const stop = this.subscribe(() => {
        if (this.state.status === "loading") return;
        stop();
        resolve(this.state);
      });
    });
  }

  /** Whether the restore could not reach the server yet: the page says so rather than load on. */
  isUnreachable(): boolean {
    return this.unreachable;
  }

  /**
   * The state once known, or "unreachable" when a try of the restore got no answer and `graceMs` have
   * passed (a blip that the next quick try mends says nothing), or after `withinMs` without an answer:
   * a guarded page then says it cannot reach the server, and offers Try again.
   */
  settledOrUnreachable(withinMs: number, graceMs = 1000): Promise<AuthState | "unreachable"> {
    if (this.state.status !== "loading") return Promise.resolve(this.state);
    return new Promise((resolve) => {
      let graceOver = false;
      const done = (answer: AuthState | "unreachable") => {
        clearTimeout(timer);
        clearTimeout(grace);
        stop();
        resolve(answer);
      };
      const check = () => {
        if (this.state.status !== "loading") done(this.state);
        else if (this.unreachable && graceOver) done("unreachable");
      };
      const timer = setTimeout(() => done("unreachable"), withinMs);
      const grace = setTimeout(() => {
        graceOver = true;
        check();
      }, graceMs);
      const stop = this.subscribe(check);
    });
  }

  /** Try again (or back online): a restore waiting for its next try tries now. */
  retryNow(): void {
    if (this.state.status !== "loading" || (!this.unreachable && !this.retryTimer)) return;
    this.unreachable = false;
    if (this.refreshing) this.wake?.();
    else void this.refresh();
  }

  /** The back-off's wait, cut short by `wake`. */
  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  /** Whether a guarded page should still ask the server before sending the visitor to sign in. */
  mayHaveSession(): boolean {
    return this.skippedRestore && this.state.status === "signedOut";
  }

  /** For guarded pages: asks the server once even when the hint said there is no session. */
  async ensureRestored(): Promise<void> {
    if (!this.mayHaveSession()) return;
    this.skippedRestore = false;
    this.state = LOADING; // quietly: not a sign-out to share with other tabs
    for (const listener of this.listeners) listener();
    await this.refresh();
  }

  /** Refreshes once even when many callers ask at the same time. */
  refresh(): Promise<ActiveSession | null> {
    this.refreshing ??= this.refreshWithRetry().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  async refreshAfterUnauthorized(): Promise<string | null> {
    const session = await this.refresh();
    return session?.accessToken ?? null;
  }

  private async refreshWithRetry(): Promise<ActiveSession | null> {
    this.cancelRetry();
    const started = this.now();
    for (let attempt = 0; ; attempt++) {
      try {
        const session = toActive(await this.api.refresh());
        this.laterTries = 0;
        this.adopt(session, true);
        this.emit("TOKEN_REFRESHED");
        return session;
      } catch (error) {
        if (refused(error)) {
          // A tab that could not restore a session says nothing to the others; a session that ended does.
          if (this.state.status === "loading") this.set(SIGNED_OUT);
          else this.clear();
          return null;
        }
        if (this.state.status === "loading" && !this.unreachable) {
          this.unreachable = true;
          for (const listener of this.listeners) listener();
        }
        const waitMs = error instanceof ApiError && error.retryAfter !== null ? error.retryAfter * 1000 : 0;
        const delay = Math.max(this.backoffStartMs * 2 ** attempt, waitMs);
        if (this.now() - started + delay < this.tickMs) {
          await this.pause(delay);
          this.wake = null;
          continue;
        }
        // Still failing after the back-off (offline, rate limited, the server restarting): keep the
        // session or the restore as it is and the hint with it, and try again later.
        this.scheduleRetry(waitMs);
        return this.state.status === "signedIn" ? this.state.session : null;
      }
    }
  }

  private scheduleRetry(atLeastMs: number) {
    const delay = Math.max(Math.min(this.tickMs * 2 ** this.laterTries, MAX_RETRY_MS), atLeastMs);
    this.laterTries += 1;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.refresh();
    }, delay);
  }

  private cancelRetry() {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  /** Back online: a refresh that was waiting to try again tries now. */
  private onOnline = () => {
    if (this.unreachable) this.retryNow();
    else if (this.retryTimer && !this.refreshing) void this.refresh();
  };

  private async tick(): Promise<void> {
    if (this.state.status !== "signedIn" || this.refreshing) return;
    const remaining = this.state.session.expiresAt * 1000 - this.now();
    if (remaining < this.thresholdTicks * this.tickMs) await this.refresh();
  }

  private onVisible = () => {
    if (document.visibilityState === "visible") void this.tick();
  };

  private adopt(session: ActiveSession, broadcast: boolean) {
    this.set({ status: "signedIn", session, user: session.user });
    if (broadcast) this.post({ type: "session", session });
  }

  private receive(message: Message) {
    if (message.type === "session") this.adopt(message.session, false);
    else if (message.type === "signedOut" && this.state.status !== "signedOut") this.set(SIGNED_OUT);
  }

  private post(message: Message) {
    try {
      this.channel?.postMessage(message);
    } catch {
      // A closed channel (tab shutting down) is not an error worth surfacing.
    }
  }

  private set(next: AuthState) {
    if (next.status !== "loading") this.hint.set(next.status === "signedIn");
    if (next.status !== "loading") this.unreachable = false;
    if (next.status === "signedIn") this.skippedRestore = false;
    this.state = next;
    for (const listener of this.listeners) listener();
  }
}
