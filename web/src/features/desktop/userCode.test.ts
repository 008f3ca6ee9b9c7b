// @vitest-environment node
import { describe, expect, it } from "vitest";
import { formatUserCode, isCompleteUserCode } from "./userCode";

describe("formatUserCode", () => {
  it.each([
    ["wdjb mjht", "WDJB-MJHT"],
    ["WDJB-MJHT", "WDJB-MJHT"],
    ["wdjbmjht", "WDJB-MJHT"],
    [" wd-jb mj ht ", "WDJB-MJHT"],
    ["WDJB-MJHTXYZ", "WDJB-MJHT"],
    ["wdj", "WDJ"],
    ["WDJB-", "WDJB"],
    ["wdjbm", "WDJB-M"],
  ])("shows %j as %j", (typed, shown) => {
    expect(formatUserCode(typed)).toBe(shown);
  });

  it("knows a complete code", () => {
    expect(isCompleteUserCode("WDJB-MJHT")).toBe(true);
    expect(isCompleteUserCode("WDJB-MJH")).toBe(false);
  });
});
