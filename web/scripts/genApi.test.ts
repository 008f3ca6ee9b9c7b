import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { documentPath, generate, outputPath } from "./genApi.mjs";

describe("src/lib/api/schema.gen.ts", () => {
  it("is what `npm run gen:api` makes of docs/openapi.json today (rerun it after changing the API)", async () => {
    const fresh = await generate();
    expect(readFileSync(outputPath, "utf8") === fresh, "stale: run `npm run gen:api` in web/").toBe(true);
  }, 60_000);

  it("changes when the document does (the check above can fail)", async () => {
    const document = JSON.parse(readFileSync(documentPath, "utf8")) as { components: { schemas: Record<string, object> } };
    document.components.schemas.Extra = { type: "object", properties: { added: { type: "string" } } };
    expect(await generate(document)).not.toBe(readFileSync(outputPath, "utf8"));
  }, 60_000);
});
