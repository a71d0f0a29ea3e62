/**
 * End-to-end tests: Debian's Chromium (never a downloaded browser) against the real farm, as
 * `npm start` runs it: `loom serve` builds the app if needed, runs the portal, the scheduler and
 * two local worker agents, here on a fresh data folder and port, with a setup token the tests
 * know. The `personas` project runs first: it creates the first admin through the setup
 * address and the other accounts through the Users page, and saves each one's signed-in state
 * for the specs (e2e/personas.ts). LOOM_E2E_PORT and LOOM_NEXT_DIST_DIR let several checkouts
 * run it side by side.
 */
import { randomBytes } from "node:crypto";
import { defineConfig } from "@playwright/test";

const port = Number(process.env.LOOM_E2E_PORT ?? "3100");
const dataDir = `data/e2e-${port}`;
// Random per run, known to the tests: set here in the runner, inherited by its worker processes.
process.env.LOOM_E2E_SETUP_TOKEN ??= `loom_setup_e2e_${randomBytes(18).toString("base64url")}`;

export default defineConfig({
  testDir: "e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: [["list"]],
  outputDir: "test-results",
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    viewport: { width: 1440, height: 900 },
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    },
  },
  projects: [
    { name: "personas", testMatch: /personas\.setup\.ts$/ },
    { name: "portal", testMatch: /\.spec\.ts$/, testIgnore: /(replicas|restart)\.spec\.ts$/, dependencies: ["personas"] },
    // Starts its own two replicas on a PostgreSQL database of its own (LOOM_TEST_DATABASE_URL or 127.0.0.1:5432).
    { name: "replicas", testMatch: /replicas\.spec\.ts$/ },
    // Starts its own `loom serve` on a temporary SQLite data folder (port + 3), stops it hard and starts it again.
    { name: "restart", testMatch: /restart\.spec\.ts$/ },
  ],
  webServer: {
    command: `rm -rf ${dataDir} && node bin/loom.mjs serve --port ${port} --data ${dataDir} --workers 2`,
    url: `http://127.0.0.1:${port}/api/health`,
    timeout: 300_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
    // `loom serve` drains its workers and stops the portal on SIGINT (its children have their own process groups).
    gracefulShutdown: { signal: "SIGINT", timeout: 20_000 },
    env: { NEXT_TELEMETRY_DISABLED: "1", LOOM_SYNC_INTERVAL_SECONDS: "2", LOOM_SETUP_TOKEN: process.env.LOOM_E2E_SETUP_TOKEN },
  },
});
