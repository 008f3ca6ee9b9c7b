// @vitest-environment node
import { inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { OG_IMAGE } from "../src/lib/seo";
import { OG_CARD, ogCardPng } from "./ogCard.mjs";

describe("the Open Graph card", () => {
  it("is a 1200 x 630 RGB PNG whose pixels decompress to the full image", () => {
    const png = ogCardPng();
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.subarray(12, 16).toString("ascii")).toBe("IHDR");
    expect(png.readUInt32BE(16)).toBe(OG_CARD.width);
    expect(png.readUInt32BE(20)).toBe(OG_CARD.height);
    const idatLength = png.readUInt32BE(33);
    expect(png.subarray(37, 41).toString("ascii")).toBe("IDAT");
    const raw = inflateSync(png.subarray(41, 41 + idatLength));
    expect(raw.length).toBe((OG_CARD.width * 3 + 1) * OG_CARD.height);
    expect(png.subarray(-8, -4).toString("ascii")).toBe("IEND");
    expect(png.length).toBeLessThan(100_000);
  });

  it("is where the pages' og:image points", () => {
    expect(OG_IMAGE).toMatchObject(OG_CARD);
  });
});
