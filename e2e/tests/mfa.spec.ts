// A second factor in the browser against the real API. The authenticator app's codes are
// computed here from the secret the set-up screen writes out (RFC 6238: HMAC-SHA-1, 6 digits, 30 s);
// passkeys use Chromium's virtual authenticator (DevTools protocol WebAuthn domain).

import { createHmac } from "node:crypto";
import type { Page } from "@playwright/test";
import { expect, PASSWORD, signIn, test } from "../support/fixtures";

// WebAuthn refuses an IP address as relying party: this file's stack answers at localhost.
test.use({ webHost: "localhost" });

function base32(secret: string): Buffer {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const c of secret.replace(/[\s=]/g, "").toUpperCase()) bits += alphabet.indexOf(c).toString(2).padStart(5, "0");
  const bytes = bits.match(/.{8}/g) ?? [];
  return Buffer.from(bytes.map((b) => parseInt(b, 2)));
}

/** RFC 6238 TOTP for the time step `step` (default: now). */
export function totp(secret: string, step = Math.floor(Date.now() / 1000 / 30)): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac("sha1", base32(secret)).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const value = (mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return value.toString().padStart(6, "0");
}

test("the RFC 6238 test vector (SHA-1, 59 s)", () => {
  // RFC 6238 Appendix B: secret "12345678901234567890", T = 59 s → 94287082 (8 digits) → 287082.
  const secret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
  expect(totp(secret, 1)).toBe("287082");
});

/**
 * A code of a time step later than any the API has seen (it refuses a step at or before the last one
 * used): the current step, else the next, which the API accepts a step early (its one step of drift),
 * so the test need not wait for the clock; only when both are taken does it wait for the next step.
 */
async function freshCode(secret: string, used: Set<number>) {
  for (;;) {
    const now = Math.floor(Date.now() / 1000 / 30);
    const step = [now, now + 1].find((s) => [...used].every((u) => s > u));
    if (step !== undefined) {
      used.add(step);
      return totp(secret, step);
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}

async function enrolTotp(page: Page, used: Set<number>) {
  await page.goto("/settings");
  await page.getByRole("button", { name: "Set up an authenticator app" }).click();
  await expect(page.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
  const secret = (await page.getByTestId("totp-secret").textContent())!.replace(/\s/g, "");
  await page.getByLabel("Authentication code").fill(await freshCode(secret, used));
  await page.getByRole("button", { name: "Turn on" }).click();
  const list = page.getByRole("list", { name: "Recovery codes" });
  await expect(list.getByRole("listitem")).toHaveCount(10);
  const codes = await list.getByRole("listitem").allTextContents();
  for (const code of codes) expect(code).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/);
  await page.getByRole("button", { name: "I have saved my codes" }).click();
  await expect(page.getByText("On. 10 of 10 recovery codes left.")).toBeVisible();
  return { secret, codes };
}

async function signOut(page: Page) {
  await page.getByRole("button", { name: "User menu" }).click();
  await page.getByRole("menu", { name: "User menu" }).getByRole("menuitem", { name: "Sign Out" }).click();
  await expect(page.getByText("Signed out successfully")).toBeVisible();
}

test.describe("authenticator app", () => {
  test("enrol, sign out, sign in with a code, then with a recovery code", async ({ page, helpers }) => {
    const email = await helpers.verifiedUser("totp");
    await signIn(page, email);
    await expect(page).toHaveURL(/\/dashboard$/);
    const used = new Set<number>();
    const { secret, codes } = await enrolTotp(page, used);

    await signOut(page);
    await signIn(page, email);
    await expect(page.getByText("Enter the 6-digit code from your authenticator app")).toBeVisible();
    await page.getByLabel("Authentication code").fill("000000");
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page.getByRole("alert")).toBeVisible();
    await page.getByLabel("Authentication code").fill(await freshCode(secret, used));
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);

    await signOut(page);
    await signIn(page, email, PASSWORD);
    await page.getByRole("button", { name: "Use a recovery code instead" }).click();
    await page.getByLabel("Recovery code").fill(codes[0]!.toUpperCase());
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto("/settings");
    await expect(page.getByText("On. 9 of 10 recovery codes left.")).toBeVisible();
  });
});

test.describe("passkeys", () => {
  test("add a passkey with the virtual authenticator and sign in with it, no password", async ({ page, helpers }) => {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("WebAuthn.enable");
    await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: {
        protocol: "ctap2",
        transport: "internal",
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
      },
    });
    const email = await helpers.verifiedUser("passkey");
    await signIn(page, email);
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto("/settings");
    await page.getByRole("button", { name: "Add a passkey" }).click();
    const dialog = page.getByRole("dialog", { name: "Add a passkey" });
    await dialog.getByLabel("Passkey name").fill("Virtual authenticator");
    await dialog.getByRole("button", { name: "Continue" }).click();
    const list = page.getByRole("list", { name: "Passkeys" });
    await expect(list.getByText("Virtual authenticator")).toBeVisible();
    await expect(list.getByText(/Never used/)).toBeVisible();

    await signOut(page);
    // Chromium's virtual authenticator answers the e-mail field's passkey autofill (conditional
    // mediation) at once with the resident passkey: the sign-in page signs in with no password and no
    // click. (Where it does not, the "Sign in with a passkey" button does the same.)
    await page.goto("/signin");
    await page
      .getByRole("button", { name: "Sign in with a passkey" })
      .click({ timeout: 3_000 })
      .catch(() => undefined);
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto("/settings");
    await expect(page.getByRole("list", { name: "Passkeys" }).getByText(/Last used/)).toBeVisible();
  });
});
