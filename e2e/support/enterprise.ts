//! The steps the enterprise-identity specs share: an owner with a paid team, and a
//! company domain verified on /team/security through the stack's DNS server.

import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { CARD_OK, expect, payOnCheckoutPage, signIn, toast, type Helpers } from "./fixtures";

/** A company domain no other test uses (a domain is verified by one team at a time). */
export function uniqueDomain(label: string): string {
  return `${label}-${Date.now().toString(36)}-${randomBytes(3).toString("hex")}.example`;
}

/**
 * `owner` (a confirmed account) signs in, creates `name` on /team and buys `seats` seats on
 * stripe-mock's checkout page; returns on /team with the subscription active.
 */
export async function ownerWithPaidTeam(page: Page, helpers: Helpers, owner: string, name: string, seats: number) {
  await signIn(page, owner);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/team");
  await page.getByLabel("Team name").fill(name);
  await page.getByRole("button", { name: "Create team" }).click();
  await expect(page.getByRole("heading", { name, level: 2 })).toBeVisible();
  await page.getByRole("navigation", { name: "Team sections" }).getByRole("link", { name: "Seats & billing" }).click();
  await page.getByLabel("Seats", { exact: true }).fill(String(seats));
  await page.getByRole("button", { name: "Buy seats" }).click();
  await expect(page).toHaveURL(new RegExp(`^${helpers.stack.mockUrl}/c/pay/cs_`));
  await payOnCheckoutPage(page, CARD_OK);
  await expect(page).toHaveURL(/\/team/);
  // The webhook makes the seats real; the page shows them once the API has it.
  await expect(async () => {
    await page.goto("/team");
    await expect(page.getByText(`1 of ${seats} used`)).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
}

/**
 * On /team/security: adds `domain`, publishes the TXT record the page shows (name and value read
 * from the screen) on the stack's DNS server, and chooses Verify; the domain shows Verified.
 */
export async function verifyDomain(page: Page, helpers: Helpers, domain: string) {
  await page.goto("/team/security");
  const security = page.getByRole("region", { name: "Security", exact: true });
  await security.getByLabel("Company domain").fill(domain);
  await security.getByRole("button", { name: "Add domain" }).click();
  const row = security.getByRole("listitem", { name: domain });
  await expect(row.getByText("Pending")).toBeVisible();
  const record = row.getByRole("definition");
  const [name, value] = [(await record.nth(0).innerText()).trim(), (await record.nth(1).innerText()).trim()];
  expect(name).toBe(`_closewise-challenge.${domain}`);
  expect(value).toMatch(/^closewise-domain-verification=\S+$/);

  // Before the record exists the server looks it up and refuses.
  await row.getByRole("button", { name: "Verify" }).click();
  await expect(row.getByRole("alert")).toBeVisible();
  await expect(row.getByText("Pending")).toBeVisible();

  await helpers.stack.dns.set(name, value);
  await row.getByRole("button", { name: "Verify" }).click();
  await expect(toast(page, `${domain} is verified`)).toBeVisible();
  await expect(row.getByText("Verified", { exact: true })).toBeVisible();
}
