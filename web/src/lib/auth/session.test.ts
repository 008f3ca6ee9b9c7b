import { afterEach, describe, expect, it, vi } from "vitest";
import { db } from "../../testing/db";
import { getPlan } from "../api/billing";
import { ApiError, NetworkError, setAuthBridge } from "../api/client";
import type { Session } from "../api/types";
import { AuthManager, type AuthApi, type SessionHint } from "./session";

const user = {
  id: "u1",
  email: "ana@example.com",
  email_confirmed_at: "2026-11-22T00:00:00Z",
  created_at: "2026-11-22T00:00:00Z",
};
let n = 0;
function session(expiresAt: number): Session {
  n += 1;
  return { access_token: `at${n}`, token_type: "bearer", expires_in: 3600, expires_at: expiresAt, user };
}

function stubApi(overrides: Partial<AuthApi> = {}): AuthApi {
  return {
    refresh: vi.fn(async () => session(Math.floor(Date.now() / 1000) + 3600)),
    signIn: vi.fn(async () => session(Math.floor(Date.now() / 1000) + 3600)),
    signOut: vi.fn(async () => undefined),
    ...overrides,
  };
}

const managers: AuthManager[] = [];
function manager(api: AuthApi, channelName = `t-${Math.random()}`, hint: SessionHint = { get: () => true, set: () => {} }) {
  const m = new AuthManager({ api, channelName, hint });
  managers.push(m);
  return m;
}

afterEach(() => {
  managers.splice(0).forEach((m) => m.stop());
  vi.useRealTimers();
  setAuthBridge(null);
});

describe("AuthManager", () => {
  it("starts loading, then restores the session from the refresh cookie", async () => {
    const auth = manager(stubApi());
    expect(auth.getSnapshot().status).toBe("loading");
    await auth.start();
    expect(auth.getSnapshot().status).toBe("signedIn");
    expect(auth.accessToken()).toMatch(/^at/);
  });

  it("is signed out when the cookie is missing or ended (401)", async () => {
    const auth = manager(
      stubApi({ refresh: vi.fn(async () => Promise.reject(new ApiError(401, "invalid_refresh_token", "ended"))) }),
    );
    await auth.start();
    expect(auth.getSnapshot().status).toBe("signedOut");
  });

  it("refreshes on the 30 s tick once fewer than 3 ticks (90 s) remain", async () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date("2026-11-22T00:00:00Z"));
    const now = Date.now();
    const refresh = vi
      .fn<AuthApi["refresh"]>()
      .mockResolvedValueOnce(session(Math.floor(now / 1000) + 150))
      .mockResolvedValue(session(Math.floor(now / 1000) + 3600));
    const auth = manager(stubApi({ refresh }));
    await auth.start();
    expect(refresh).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(30_000); // 120 s left: not yet
    expect(refresh).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(30_000); // 90 s left: not below the threshold yet
    expect(refresh).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(30_000); // 60 s left: refresh
    expect(refresh).toHaveBeenCalledTimes(2);
    expect(auth.getSnapshot().status).toBe("signedIn");
  });

  it("retries network failures with exponential back-off from 200 ms", async () => {
    vi.useFakeTimers();
    const refresh = vi
      .fn<AuthApi["refresh"]>()
      .mockRejectedValueOnce(new NetworkError("offline"))
      .mockRejectedValueOnce(new NetworkError("offline"))
      .mockResolvedValue(session(Math.floor(Date.now() / 1000) + 3600));
    const auth = manager(stubApi({ refresh }));
    const started = auth.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(refresh).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(199);
    expect(refresh).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(refresh).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(399);
    expect(refresh).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    await started;
    expect(refresh).toHaveBeenCalledTimes(3);
    expect(auth.getSnapshot().status).toBe("signedIn");
  });

  it("keeps trying after the back-off while the server stays away: never signed out, the hint kept", async () => {
    vi.useFakeTimers();
    const refresh = vi.fn<AuthApi["refresh"]>().mockRejectedValue(new NetworkError("offline"));
    const hint = { present: true, get: () => hint.present, set: (p: boolean) => void (hint.present = p) };
    const auth = manager(stubApi({ refresh }), undefined, hint);
    const started = auth.start();
    await vi.advanceTimersByTimeAsync(30_000);
    await started;
    // 200+400+...+12800 = 25 400 ms < 30 s; the next (25 600 ms) would pass the tick.
    expect(refresh).toHaveBeenCalledTimes(8);
    expect(auth.getSnapshot().status).toBe("loading");
    expect(hint.present).toBe(true);
    // The server is back: the next try (one tick later) restores the session.
    refresh.mockResolvedValue(session(Math.floor(Date.now() / 1000) + 3600));
    await vi.advanceTimersByTimeAsync(30_000);
    expect(auth.getSnapshot().status).toBe("signedIn");
  });

  it.each([
    ["too many requests (429)", () => new ApiError(429, "rate_limited", "slow down", 1)],
    ["the server restarting (503)", () => new ApiError(503, "unavailable", "restarting")],
    ["the network down", () => new NetworkError("offline")],
  ])("does not sign out on %s while restoring, and tries again when the browser is back online", async (_name, failure) => {
    vi.useFakeTimers();
    const refresh = vi.fn<AuthApi["refresh"]>().mockRejectedValue(failure());
    const hint = { present: true, get: () => hint.present, set: (p: boolean) => void (hint.present = p) };
    const auth = manager(stubApi({ refresh }), undefined, hint);
    const started = auth.start();
    await vi.advanceTimersByTimeAsync(29_000);
    await started;
    expect(auth.getSnapshot().status).toBe("loading");
    expect(hint.present).toBe(true);
    const calls = refresh.mock.calls.length;
    refresh.mockResolvedValue(session(Math.floor(Date.now() / 1000) + 3600));
    window.dispatchEvent(new Event("online"));
    await vi.advanceTimersByTimeAsync(0);
    expect(refresh).toHaveBeenCalledTimes(calls + 1);
    expect(auth.getSnapshot().status).toBe("signedIn");
  });

  it("keeps a signed-in session whose refresh fails for a while, even past its expiry", async () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date("2026-11-22T00:00:00Z"));
    const now = Date.now();
    const refresh = vi
      .fn<AuthApi["refresh"]>()
      .mockResolvedValueOnce(session(Math.floor(now / 1000) + 60))
      .mockRejectedValue(new ApiError(502, "bad_gateway", "down"));
    const auth = manager(stubApi({ refresh }));
    await auth.start();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(auth.getSnapshot().status).toBe("signedIn");
  });

  it("signs out only when the refresh token is refused", async () => {
    vi.useFakeTimers();
    const refresh = vi
      .fn<AuthApi["refresh"]>()
      .mockRejectedValueOnce(new NetworkError("offline"))
      .mockRejectedValue(new ApiError(401, "invalid_refresh_token", "ended"));
    const hint = { present: true, get: () => hint.present, set: (p: boolean) => void (hint.present = p) };
    const auth = manager(stubApi({ refresh }), undefined, hint);
    const started = auth.start();
    await vi.advanceTimersByTimeAsync(200);
    await started;
    expect(auth.getSnapshot().status).toBe("signedOut");
    expect(hint.present).toBe(false);
  });

  it("refreshes once for many callers at the same time", async () => {
    const api = stubApi();
    const auth = manager(api);
    await auth.start();
    await Promise.all([auth.refresh(), auth.refresh(), auth.refresh()]);
    expect(api.refresh).toHaveBeenCalledTimes(2);
  });

  it("shares sign-in, refresh and sign-out with the other tabs", async () => {
    const channel = `shared-${Math.random()}`;
    const tabA = manager(
      stubApi({ refresh: vi.fn(async () => Promise.reject(new ApiError(401, "invalid_refresh_token", "x"))) }),
      channel,
    );
    const tabB = manager(
      stubApi({ refresh: vi.fn(async () => Promise.reject(new ApiError(401, "invalid_refresh_token", "x"))) }),
      channel,
    );
    await Promise.all([tabA.start(), tabB.start()]);
    expect(tabB.getSnapshot().status).toBe("signedOut");

    await tabA.signIn("ana@example.com", "secret123");
    await vi.waitFor(() => expect(tabB.getSnapshot().status).toBe("signedIn"));
    expect(tabB.accessToken()).toBe(tabA.accessToken());

    await tabA.signOut();
    await vi.waitFor(() => expect(tabB.getSnapshot().status).toBe("signedOut"));
  });
});

describe("session hint", () => {
  it("makes no refresh call for a browser that never signed in, and remembers a sign-in", async () => {
    const api = stubApi();
    const auth = new AuthManager({ api, channelName: `h-${Math.random()}` });
    managers.push(auth);
    await auth.start();
    expect(api.refresh).not.toHaveBeenCalled();
    expect(auth.getSnapshot().status).toBe("signedOut");
    await auth.signIn("ana@example.com", "secret123");
    expect(window.localStorage.getItem("closewise.session")).toBe("1");
    await auth.signOut();
    expect(window.localStorage.getItem("closewise.session")).toBeNull();
  });
});

describe("session hint on guarded pages", () => {
  it("still asks the server once when a guarded page needs a session the hint does not know about", async () => {
    const api = stubApi();
    const auth = new AuthManager({ api, channelName: `g-${Math.random()}` });
    managers.push(auth);
    await auth.start();
    expect(auth.mayHaveSession()).toBe(true);
    await auth.ensureRestored();
    expect(api.refresh).toHaveBeenCalledTimes(1);
    expect(auth.getSnapshot().status).toBe("signedIn");
    expect(auth.mayHaveSession()).toBe(false);
  });
});

describe("API client with the session (against the MSW handlers)", () => {
  it("refreshes after a 401 and retries the call once", async () => {
    db.createUser({ email: "ana@example.com" });
    db.signInBrowser("ana@example.com");
    window.localStorage.setItem("closewise.session", "1");
    const auth = new AuthManager({ channelName: `c-${Math.random()}` });
    managers.push(auth);
    setAuthBridge(auth);
    await auth.start();
    const first = auth.accessToken();
    // The access token expires on the server side.
    db.sessions.forEach((s) => (s.accessExpiresAt = 0));
    const plan = await getPlan();
    expect(plan.plan_type).toBe("free");
    expect(auth.accessToken()).not.toBe(first);
  });

  it("gives up after one retry and signs out when the session has ended", async () => {
    db.createUser({ email: "ana@example.com" });
    db.signInBrowser("ana@example.com");
    window.localStorage.setItem("closewise.session", "1");
    const auth = new AuthManager({ channelName: `c-${Math.random()}` });
    managers.push(auth);
    setAuthBridge(auth);
    await auth.start();
    db.sessions.forEach((s) => (s.revoked = true));
    await expect(getPlan()).rejects.toMatchObject({ status: 401 });
    expect(auth.getSnapshot().status).toBe("signedOut");
  });
});
