// Downloading an invoice from the dashboard: after a paid checkout the subscriber's Invoices list
// links the invoice's PDF at stripe-mock, and clicking Download saves a PDF named after its number.

import { readFile } from "node:fs/promises";
import { expect, signInToDashboard, subscribe, test } from "../support/fixtures";

test("a subscriber downloads an invoice's PDF from the dashboard", async ({ page, helpers }) => {
  const email = await helpers.verifiedUser("invoice");
  await signInToDashboard(page, email);
  await subscribe(page);
  const token = await helpers.accessToken(email);
  await helpers.waitForSubscription(token, "an active subscription", (s) => s?.subscription_status === "active");

  await page.goto("/dashboard");
  const invoices = page.getByRole("region", { name: "Invoices" });
  const row = invoices.getByRole("row", { name: /CW-/ }).first();
  await expect(row).toContainText("$20.00");
  await expect(row).toContainText("Paid");
  const link = row.getByRole("link", { name: /^Download invoice CW-/ });
  const number = ((await link.getAttribute("aria-label")) ?? "").replace("Download invoice ", "");
  const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
  expect(download.suggestedFilename()).toBe(`Invoice-${number}.pdf`);
  const bytes = await readFile((await download.path())!);
  expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
});
