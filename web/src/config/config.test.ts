import { describe, expect, it } from "vitest";
import { ConfigError, downloadUrl, macDownloads, parseConfig } from "./index";

describe("parseConfig", () => {
  it("gives working defaults when nothing is set", () => {
    const cfg = parseConfig({});
    expect(cfg.apiBase).toBe("");
    expect(cfg.productName).toBe("Closewise");
    expect(cfg.supportEmail).toBe("support@closewise.app");
    expect(cfg.appVersion).toBe("v1.0.0");
    expect(cfg.analyticsKey).toBeNull();
  });

  it("has no download addresses unless the build sets VITE_DOWNLOAD_BASE_URL (no placeholder release)", () => {
    const cfg = parseConfig({});
    expect(cfg.downloadBaseUrl).toBeNull();
    expect(macDownloads(cfg)).toBeNull();
    expect(macDownloads(parseConfig({ VITE_DOWNLOAD_BASE_URL: "https://dl.example.com" }))).toEqual({
      arm64: "https://dl.example.com/v1.0.0/Closewise-1.0.0-arm64.dmg",
      x64: "https://dl.example.com/v1.0.0/Closewise-1.0.0-x64.dmg",
    });
  });

  it("builds the v1.0.0 disk image addresses for both chips", () => {
    const cfg = parseConfig({ VITE_DOWNLOAD_BASE_URL: "https://dl.example.com/releases/" });
    expect(downloadUrl(cfg, "arm64")).toBe("https://dl.example.com/releases/v1.0.0/Closewise-1.0.0-arm64.dmg");
    expect(downloadUrl(cfg, "x64")).toBe("https://dl.example.com/releases/v1.0.0/Closewise-1.0.0-x64.dmg");
  });

  it.each([
    ["VITE_API_BASE", "not a url"],
    ["VITE_API_BASE", "ftp://example.com"],
    ["VITE_SUPPORT_EMAIL", "support"],
    ["VITE_APP_VERSION", "1.0"],
    ["VITE_DOWNLOAD_BASE_URL", "/relative"],
  ])("refuses %s=%s with a message naming the variable", (key, value) => {
    expect(() => parseConfig({ [key]: value })).toThrow(ConfigError);
    expect(() => parseConfig({ [key]: value })).toThrow(key);
  });

  it("treats an empty analytics key as not configured", () => {
    expect(parseConfig({ VITE_POSTHOG_KEY: "  " }).analyticsKey).toBeNull();
    expect(parseConfig({ VITE_POSTHOG_KEY: "phc_abc" }).analyticsKey).toBe("phc_abc");
  });
});
