/**
 * End-to-end tests: Debian's Chromium (never a downloaded browser) against the real farm, as
 * `npm start` runs it: `loom serve` builds the app if needed, runs `next start`, the scheduler and
 * two local worker agents, here on a fresh data folder and port. LOOM_E2E_PORT and
 * LOOM_NEXT_DIST_DIR let several checkouts run it side by side.
 */
import { defineConfig } from "@playwright/test";

const port = Number(process.env.LOOM_E2E_PORT ?? "3100");
const dataDir = `data/e2e-${port}`;

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
  webServer: {
    command: `rm -rf ${dataDir} && node bin/loom.mjs serve --port ${port} --data ${dataDir} --workers 2`,
    url: `http://127.0.0.1:${port}/api/trpc/pools.list`,
    timeout: 300_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
    // `loom serve` drains its workers and stops `next start` on SIGINT (its children have their own process groups).
    gracefulShutdown: { signal: "SIGINT", timeout: 20_000 },
    env: { NEXT_TELEMETRY_DISABLED: "1", LOOM_SYNC_INTERVAL_SECONDS: "2" },
  },
});
