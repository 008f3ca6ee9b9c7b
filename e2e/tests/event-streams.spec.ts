// Event streams, end to end: the owner of a team adds an https stream on /team pointing at a
// receiver this spec runs on loopback (the stack runs in development, where http on loopback is
// allowed), sees its signing secret once, sends a test event, and finds the delivery listed; the
// receiver got the `stream.test` event signed with the Standard Webhooks headers.

import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "../support/fixtures";
import { ownerWithPaidTeam } from "../support/enterprise";

interface Received {
  headers: IncomingHttpHeaders;
  body: { events: { id: string; type: string }[] };
}

function receiver(): Promise<{
  server: Server;
  url: string;
  received: Received[];
}> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk: Buffer) => (raw += chunk.toString()));
    req.on("end", () => {
      received.push({
        headers: req.headers,
        body: JSON.parse(raw) as Received["body"],
      });
      res.writeHead(204).end();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, url: `http://127.0.0.1:${port}/closewise`, received });
    }),
  );
}

test("Event streams: an https stream gets a signed test event, and the delivery shows on /team", async ({ page, helpers }) => {
  const owner = await helpers.verifiedAccount(`owner-${Date.now().toString(36)}@streams.example`);
  const { server, url, received } = await receiver();
  try {
    await ownerWithPaidTeam(page, helpers, owner, "Initech Streams", 1);
    // The section is under Security.
    await page.goto("/team/security");
    const section = page.getByRole("region", { name: "Event streams" });
    await expect(section.getByText("No event streams yet.")).toBeVisible();
    await section.getByLabel("URL").fill(url);
    await section.getByRole("button", { name: "Add stream" }).click();
    const shown = section.getByRole("status").filter({
      hasText: "Copy this signing secret now: it is not shown again.",
    });
    await expect(shown).toBeVisible();
    const secret = (await shown.locator("code").innerText()).trim();
    expect(secret).toMatch(/^whsec_/);

    const row = section.getByRole("list", { name: "Event streams" }).getByRole("listitem");
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(url);
    await row.getByRole("button", { name: "Send test event" }).click();
    await expect
      .poll(() => received.some((r) => r.body.events.some((e) => e.type === "stream.test")), { timeout: 30_000 })
      .toBe(true);
    const sent = received.find((r) => r.body.events.some((e) => e.type === "stream.test"))!;
    expect(sent.headers["webhook-id"]).toMatch(/^msg_/);
    expect(sent.headers["webhook-signature"]).toMatch(/^v1,/);

    const deliveries = row.getByRole("table", { name: "Deliveries" });
    await expect(async () => {
      await page.reload();
      await section.getByRole("button", { name: "Show deliveries" }).click();
      await expect(deliveries.getByRole("row").filter({ hasText: "Delivered" }).first()).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
    await expect(deliveries.getByRole("row").filter({ hasText: "Delivered" }).first()).toContainText("204");
    await expect(page.getByText(secret)).toHaveCount(0);
  } finally {
    server.close();
  }
});
