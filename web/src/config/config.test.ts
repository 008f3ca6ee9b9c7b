// @vitest-environment node
import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "./index";

describe("parseConfig", () => {
  it("gives working defaults when nothing is set", () => {
    const cfg = parseConfig({});
    expect(cfg.apiBase).toBe("");
    expect(cfg.productName).toBe("Closewise");
    expect(cfg.supportEmail).toBe("support@closewise.app");
    expect(cfg.analyticsKey).toBeNull();
  });

  it("has no build-time download settings: the release is the API's run-time answer (GET /api/downloads)", () => {
    const cfg = parseConfig({ VITE_DOWNLOAD_BASE_URL: "https://dl.example.com", VITE_APP_VERSION: "v9.9.9" });
    expect(Object.keys(cfg)).not.toContain("downloadBaseUrl");
    expect(Object.keys(cfg)).not.toContain("appVersion");
  });

  it.each([
    ["VITE_API_BASE", "not a url"],
    ["VITE_API_BASE", "ftp://example.com"],
    ["VITE_SUPPORT_EMAIL", "support"],
  ])("refuses %s=%s with a message naming the variable", (key, value) => {
    expect(() => parseConfig({ [key]: value })).toThrow(ConfigError);
    expect(() => parseConfig({ [key]: value })).toThrow(key);
  });

  it("treats an empty analytics key as not configured", () => {
    expect(parseConfig({ VITE_POSTHOG_KEY: "  " }).analyticsKey).toBeNull();
    expect(parseConfig({ VITE_POSTHOG_KEY: "phc_abc" }).analyticsKey).toBe("phc_abc");
  });
});
