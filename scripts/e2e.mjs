#!/usr/bin/env node
// `npm run test:e2e`: Playwright against the real farm with Debian's Chromium. On a fresh machine
// Chromium is installed when we are root (apt, the only source besides npm we may use here);
// otherwise we stop with the one command that installs it.
import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";

const CHROMIUM = "/usr/bin/chromium";

if (!existsSync(CHROMIUM)) {
  if (process.getuid?.() === 0) {
    console.log("e2e: Chromium is missing; installing Debian's package (apt-get install -y chromium)…");
    execFileSync("apt-get", ["update"], { stdio: "inherit" });
    execFileSync("apt-get", ["install", "-y", "chromium"], { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  } else {
    console.error("e2e: Chromium is missing. Install it with:\n\n  sudo apt-get update && sudo apt-get install -y chromium\n");
    process.exit(1);
  }
}

const result = spawnSync(process.execPath, ["node_modules/@playwright/test/cli.js", "test", ...process.argv.slice(2)], {
  stdio: "inherit",
  // The farm starts with no account and this setup token; the first spec (e2e/personas.setup.ts) uses it to create the admin.
  env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", LOOM_E2E_SETUP_TOKEN: process.env.LOOM_E2E_SETUP_TOKEN ?? `loom_setup_e2e_${randomBytes(18).toString("base64url")}` },
});
process.exit(result.status ?? 1);
