// @vitest-environment node
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { MAX_LINES, current, differences, documentPath, generate } from "./genApi.mjs";

describe("src/lib/api/gen/", () => {
  it("is what `npm run gen:api` makes of docs/openapi.json today (rerun it after changing the API)", async () => {
    const fresh = await generate();
    expect(differences(fresh), "run `npm run gen:api` in web/").toEqual([]);
    for (const [name, text] of fresh) expect(text.split("\n").length - 1, name).toBeLessThanOrEqual(MAX_LINES);
  }, 180_000);

  it("names a stale, a missing and a left-over file (the check above can fail)", () => {
    const files = current();
    const [first, second] = [...files.keys()];
    const fresh = new Map(files);
    fresh.set(first!, `${files.get(first!)}// changed\n`);
    fresh.delete(second!);
    fresh.set("extra.gen.ts", "");
    expect(differences(fresh, files)).toEqual([`${first} is stale`, `${second} is left over`, "extra.gen.ts is missing"].sort());
  });

  it("names each file after the resource whose paths it holds", async () => {
    const names = [...current().keys()];
    expect(names.filter((name) => /\.\d+\.gen\.ts$/.test(name))).toEqual([]);
    expect(current().get("team/invites.gen.ts")).toContain(`"/api/team/invites/{id}": {`);
    const document = JSON.parse(readFileSync(documentPath, "utf8")) as { paths: Record<string, unknown> };
    document.paths["/api/team/invites/{id}/remind"] = document.paths["/api/team/invites/{id}/resend"];
    expect(differences(await generate(document))).toEqual(["index.ts is stale", "team/invites/remind.gen.ts is missing"]);
  }, 180_000);

  it("changes a file when the document does", async () => {
    const document = JSON.parse(readFileSync(documentPath, "utf8")) as { components: { schemas: Record<string, object> } };
    document.components.schemas.Extra = { type: "object", properties: { added: { type: "string" } } };
    // The shared schemas' files change (a file over the limit is split by name, so its halves may
    // move); no file appears or goes.
    const changed = differences(await generate(document));
    expect(changed).toContain("common.gen.ts is stale");
    expect(changed.every((c) => c.endsWith(" is stale"))).toBe(true);
  }, 180_000);
});
