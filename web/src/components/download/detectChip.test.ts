// @vitest-environment node
import { describe, expect, it } from "vitest";
import { detectMacChip } from "./detectChip";

const nav = (userAgent: string, hints?: { architecture?: string; platform?: string }) =>
  ({
    userAgent,
    userAgentData: hints ? { getHighEntropyValues: async () => hints } : undefined,
  }) as unknown as Navigator;

const MAC = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 Chrome/130 Safari/537.36";

describe("detectMacChip", () => {
  it("reads the architecture from client hints on a Mac", async () => {
    expect(await detectMacChip(nav(MAC, { architecture: "arm", platform: "macOS" }))).toBe("arm64");
    expect(await detectMacChip(nav(MAC, { architecture: "x86", platform: "macOS" }))).toBe("x64");
  });

  it("says nothing for other systems", async () => {
    expect(
      await detectMacChip(nav("Mozilla/5.0 (Windows NT 10.0; Win64; x64)", { architecture: "x86", platform: "Windows" })),
    ).toBeNull();
    expect(await detectMacChip(nav("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)"))).toBeNull();
  });

  it("says nothing on a Mac whose browser cannot tell (no hints, no WebGL)", async () => {
    expect(await detectMacChip(nav(MAC))).toBeNull();
  });
});
