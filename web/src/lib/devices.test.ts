// @vitest-environment node
import { describe, expect, it } from "vitest";
import { platformName, relativeTime } from "./devices";

describe("platformName", () => {
  it("names the platforms the app reports and says when there is none", () => {
    expect(platformName("macos")).toBe("macOS");
    expect(platformName("Windows")).toBe("Windows");
    expect(platformName("unknown")).toBe("Unknown platform");
    expect(platformName(null)).toBe("Unknown platform");
    expect(platformName("beos")).toBe("beos");
  });
});

describe("relativeTime", () => {
  const now = Date.parse("2026-11-23T15:00:00Z");
  it.each([
    ["2026-11-23T14:59:40Z", "just now"],
    ["2026-11-23T14:58:00Z", "2 minutes ago"],
    ["2026-11-23T12:00:00Z", "3 hours ago"],
    ["2026-11-22T15:00:00Z", "yesterday"],
    ["2026-11-20T15:00:00Z", "3 days ago"],
  ])("says %s is %s", (iso, text) => {
    expect(relativeTime(iso, now)).toBe(text);
  });
});
