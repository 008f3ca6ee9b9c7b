// The desktop app's account, end to end. The real client binary (closewise-desktop) signs
// in through Chromium (loopback + PKCE, then a device code approved on /activate), uses the
// free-trial meter, sees the paid plan after checkout, and answers from its verified entitlement
// token when the API is down.

import AxeBuilder from "@axe-core/playwright";
import { CARD_OK, expect, PASSWORD, payOnCheckoutPage, signIn, test } from "../support/fixtures";
import { Desktop } from "../support/desktop";
import { startStack } from "../support/stack";

// Screens at rest for axe (as a11y.spec): nothing half faded in when contrast is measured.
test.use({ reducedMotion: "reduce" });

test("browser sign-in from the app: sign in in Chromium, continue, the app's loopback gets the session; five free calls, the sixth refused, unlimited after checkout", async ({
  page,
  helpers,
}) => {
  const email = await helpers.verifiedUser("desktop-browser");
  const desktop = new Desktop(helpers.stack.baseUrl);
  try {
    const login = desktop.start(["login", "--no-browser", "--device-name", "E2E laptop"]);
    const authorizeUrl = await login.line(/^Open: (\S+)$/);
    expect(new URL(authorizeUrl).pathname).toBe("/authorize");

    // Signed out: the page sends the visitor to sign in, then back to the request.
    await page.goto(authorizeUrl);
    await expect(page).toHaveURL(/\/signin\?next=/);
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect(page).toHaveURL(/\/authorize\?/);
    await expect(page.getByText("E2E laptop")).toBeVisible();
    // The consent screen passes axe like every other screen (a11y.spec cannot reach it without a request).
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21aa", "wcag22aa", "best-practice"]).analyze();
    expect(axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
    await page.getByRole("button", { name: "Continue" }).click();

    // The browser lands on the app's loopback listener, which got the code.
    await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/callback\?/);
    await expect(page.getByText(/return to the Closewise app/i)).toBeVisible();
    const result = await login.exited;
    expect(result.status, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain(email);

    expect(desktop.ok(["whoami"])).toContain(email);
    const free = desktop.entitlements();
    expect(free).toMatchObject({ plan_type: "free", unlimited: false, calls: { limit: 5, used: 0, remaining: 5 }, max_call_seconds: 300 });

    for (let i = 1; i <= 5; i++) {
      const out = desktop.ok(["call", "start", "--id", `e2e-call-${i}`]);
      const callId = out.match(/([0-9a-f]{8}-[0-9a-f-]{27})/)?.[1];
      expect(callId, out).toBeTruthy();
      desktop.ok(["call", "end", callId!]);
    }
    const sixth = desktop.run(["call", "start", "--id", "e2e-call-6"]);
    expect(sixth.status).not.toBe(0);
    expect(sixth.stdout + sixth.stderr).toContain("You have used your 5 free calls. Upgrade to keep getting live hints.");

    // The web shows the same meter, and the device in Settings.
    await page.goto("/dashboard");
    await expect(page.getByText("5 of 5 free calls used")).toBeVisible();

    // Checkout in the browser; the app's next entitlements are unlimited.
    await page.goto("/pricing");
    await page.getByRole("button", { name: "Start Subscription" }).click();
    await payOnCheckoutPage(page, CARD_OK);
    await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible();
    await expect.poll(() => desktop.entitlements().unlimited, { message: "the app sees the paid plan", timeout: 20_000 }).toBe(true);
    desktop.ok(["call", "start", "--id", "e2e-call-6"]);

    desktop.ok(["logout"]);
    expect(desktop.run(["whoami"]).status).not.toBe(0);
  } finally {
    desktop.remove();
  }
});

test("device sign-in: the code shown by the app, approved on /activate, signs the app in once; the device is listed and can be signed out", async ({
  page,
  helpers,
}) => {
  const email = await helpers.verifiedUser("desktop-device");
  const desktop = new Desktop(helpers.stack.baseUrl);
  try {
    const login = desktop.start(["login", "--device", "--device-name", "Remote desktop"]);
    const code = await login.line(/^Code: ([B-Z]{4}-[B-Z]{4})$/);
    const complete = await login.line(/^Open: (\S+)$/);
    expect(new URL(complete).pathname).toBe("/activate");

    await signIn(page, email);
    await expect(page).toHaveURL(/\/dashboard$/);
    // Typed by hand, lower case and without the dash: still the same code.
    await page.goto("/activate");
    await page.getByLabel(/code/i).fill(code.replace("-", "").toLowerCase());
    await page.getByRole("button", { name: /Look up|Continue|Next/ }).click();
    await expect(page.getByText("Remote desktop")).toBeVisible();
    await page.getByRole("button", { name: "Approve" }).click();
    await expect(page.getByText(/Your device is signed in/)).toBeVisible();

    const result = await login.exited;
    expect(result.status, result.stdout + result.stderr).toBe(0);
    expect(desktop.ok(["whoami"])).toContain(email);
    // The account is told of the new sign-in: the device, where to sign it out, and no token.
    const notice = (await helpers.mails(email)).find((m) => m.subject === "New sign-in to your Closewise account");
    expect(notice?.text).toContain("Remote desktop");
    expect(notice?.text).toContain(`${helpers.stack.baseUrl}/settings#devices`);
    expect(notice?.link).toBeNull();

    // Settings lists the device; signing it out there ends the app's session at once.
    await page.goto("/settings");
    const devices = page.getByRole("region", { name: "Devices" });
    await expect(devices.getByText("Remote desktop")).toBeVisible();
    await devices.getByRole("button", { name: /Sign out/ }).first().click();
    await page.getByRole("dialog").getByRole("button", { name: /Sign out/ }).click();
    await expect(devices.getByText("Remote desktop")).toHaveCount(0);
    const after = desktop.run(["entitlements", "--json"]);
    expect(after.status, after.stdout + after.stderr).not.toBe(0);
  } finally {
    desktop.remove();
  }
});

test("with the API stopped, the app answers from its verified entitlement token until valid_until, then through the grace period, then asks to connect", async ({
  page,
  database,
}) => {
  // A stack of its own (on this project's database): this test stops it.
  const stack = await startStack({ database, allowUnverifiedSignin: false });
  const desktop = new Desktop(stack.baseUrl);
  try {
    const email = `offline-${Date.now().toString(36)}@example.com`;
    const signup = await page.request.post(`${stack.baseUrl}/api/auth/signup`, { data: { email, password: PASSWORD } });
    expect(signup.status()).toBe(200);
    const mails = await (await page.request.get(`${stack.baseUrl}/dev/mail.json?to=${encodeURIComponent(email)}`)).json();
    const token = new URL(mails.mails[0].link).searchParams.get("token");
    expect((await page.request.post(`${stack.baseUrl}/api/auth/verify`, { data: { token } })).status()).toBe(200);

    const login = desktop.start(["login", "--device", "--device-name", "Offline laptop"]);
    const complete = await login.line(/^Open: (\S+)$/);
    await page.goto(`${stack.baseUrl}/signin`);
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto(complete.replace(/^https?:\/\/[^/]+/, stack.baseUrl));
    await page.getByRole("button", { name: "Approve" }).click();
    expect((await login.exited).status).toBe(0);
    expect(desktop.entitlements()).toMatchObject({ plan_type: "free", source: "online" });

    await stack.stop();

    // Within a day: the verified token answers as fresh.
    expect(desktop.entitlements()).toMatchObject({ plan_type: "free", source: "offline" });
    // Two days later: the grace period, with a warning.
    const grace = desktop.entitlements({ CLOSEWISE_DESKTOP_CLOCK_OFFSET: String(2 * 86_400) });
    expect(grace).toMatchObject({ plan_type: "free", source: "grace" });
    // Nine days later: past the grace, the app must connect.
    const late = desktop.run(["entitlements", "--json"], { CLOSEWISE_DESKTOP_CLOCK_OFFSET: String(9 * 86_400) });
    expect(late.status).not.toBe(0);
    expect(late.stdout + late.stderr).toMatch(/connect/i);
  } finally {
    desktop.remove();
    await stack.stop().catch(() => undefined);
  }
});
