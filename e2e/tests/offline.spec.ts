// With the API unreachable (every /api request aborted, as when the server is down or the network is
// gone): the account pages say "Can't reach Closewise — check your connection" with Try again within
// 5 s instead of loading on, and come back with Try again once the API answers; the sign-in page says
// it once.

import { expect, signInToDashboard, test } from "../support/fixtures";

const UNREACHABLE = "Can't reach Closewise — check your connection";

test("the account pages and /signin with the API unreachable, and back with Try again", async ({ page, helpers }) => {
  const email = await helpers.verifiedAccount(`offline-${Date.now()}@example.com`);
  await signInToDashboard(page, email);

  const abort = (route: { abort: () => Promise<void> }) => route.abort();
  await page.route("**/api/**", abort);
  for (const path of ["/dashboard", "/settings", "/team"]) {
    await page.goto(path);
    await expect(page.getByText(UNREACHABLE), path).toBeVisible({ timeout: 5000 });
    await expect(page.getByRole("button", { name: "Try again" }), path).toBeVisible();
  }

  await page.unroute("**/api/**", abort);
  await page.getByRole("button", { name: "Try again" }).click();
  await expect(page.getByRole("heading", { name: "Team", level: 1 })).toBeVisible();
  await expect(page.getByText(UNREACHABLE)).toHaveCount(0);

  // Signed out, the sign-in page says it once: under the form, not again in a toast.
  await page.context().clearCookies();
  await page.route("**/api/**", abort);
  await page.goto("/signin");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill("whatever-it-is");
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page.getByRole("form", { name: "Sign in" }).getByText(UNREACHABLE)).toBeVisible();
  await expect(page.getByText(UNREACHABLE)).toHaveCount(1);
  await expect(page.getByText("An unexpected error occurred")).toHaveCount(0);
});
