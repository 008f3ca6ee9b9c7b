// Pre-hijacking in the other order. The owner signs up, someone else signs up the
// same unconfirmed address a minute later; the newest mail's link confirms the address and asks the
// person who clicked for the password, so neither sign-up's password is the account's.

import { expect, signInToDashboard, test, uniqueEmail } from "../support/fixtures";

const OWNER = "owner-pass-2026";
const ATTACKER = "attacker-pass-2026";
const CHOSEN = "chosen-on-the-page-2026";

test("two sign-ups of one address: the newest link asks for the password, which then signs in", async ({ page, helpers }) => {
  const email = uniqueEmail("twice");
  await helpers.signUp(email, OWNER);
  await helpers.waitForMail(email, 1);
  // The second sign-up mails only once the one-minute resend interval has passed: the first mail is
  // moved a minute back instead of waiting it out.
  helpers.backdateMail(email, 61);
  await helpers.signUp(email, ATTACKER);

  await page.goto(await helpers.mailLink(email, 2));
  await expect(page.getByRole("heading", { name: "Choose your password" })).toBeVisible();
  await page.getByLabel("Password", { exact: true }).fill(CHOSEN);
  await page.getByLabel("Confirm password", { exact: true }).fill(CHOSEN);
  await page.getByRole("button", { name: "Set password" }).click();
  await expect(page.getByRole("heading", { name: "Email verified" })).toBeVisible();

  for (const password of [OWNER, ATTACKER]) {
    const res = await helpers.api.post("/api/auth/token?grant_type=password", { data: { email, password } });
    expect(res.status(), password).toBe(400);
  }
  await signInToDashboard(page, email, CHOSEN);
});
