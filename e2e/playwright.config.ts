import { defineConfig, devices } from "@playwright/test";
import type { Database } from "./support/stack";

/**
 * Each worker starts its own stack (stripe-mock + API with a fresh database, serving web/dist) on free
 * ports: see support/fixtures.ts. Chromium is Debian's (/usr/bin/chromium, or E2E_CHROMIUM); Playwright's
 * own browser download is not used. Failures keep traces and screenshots under e2e/test-results.
 */
const chromium = process.env.E2E_CHROMIUM ?? "/usr/bin/chromium";

export default defineConfig<{ database: Database; allowUnverifiedSignin: boolean; stackName: string }>({
  testDir: "./tests",
  globalSetup: "./support/global-setup.ts",
  outputDir: "./test-results",
  fullyParallel: true,
  forbidOnly: true,
  retries: 0,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  timeout: 90_000,
  expect: { timeout: 15_000 },
  // test-results/results.json (written at the end, after the folder is cleared): scripts/e2e.sh prints each spec file's time from it.
  reporter: [["list"], ["html", { outputFolder: "playwright-report", open: "never" }], ["json", { outputFile: "test-results/results.json" }]],
  use: {
    ...devices["Desktop Chrome"],
    timezoneId: "UTC",
    locale: "en-US",
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    video: "off",
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
    launchOptions: {
      executablePath: chromium,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  projects: [
    { name: "sqlite", use: { database: "sqlite" } },
    {
      name: "postgres",
      testMatch: /(signup-to-success|desktop|teams|mfa|policy|usage|sso|scim-lockout|dunning|team-trial-invoice|cancel-resume)\.spec\.ts/,
      use: { database: "postgres" },
    },
  ],
});
