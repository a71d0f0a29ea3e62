#!/usr/bin/env node
// Part of `npm test`: runs the public OpenJD conformance suite from ../shared (or
// $OPENJD_SAMPLES_DIR) with `loom conformance` over the extensions Loom supports, and fails when
// a case fails or is skipped for any reason but "runs on windows only" or a documented
// contradiction between two cases. Without the suite it says so and passes.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const samples = resolve(process.env.OPENJD_SAMPLES_DIR ?? join(root, "..", "shared", "openjd-samples"));
const suite = join(samples, "conformance", "2023-09");
const FOLDERS = ["base", "TASK_CHUNKING", "REDACTED_ENV_VARS", "FEATURE_BUNDLE_1", "EXPR", "WRAP_ACTIONS"];
const ACCEPTED_SKIP = /^(runs on windows only|contradiction: )/;

if (!existsSync(suite)) {
  console.log(`conformance: skipped: suite not found at ${suite} (set OPENJD_SAMPLES_DIR to run it)`);
  process.exit(0);
}

const dirs = FOLDERS.map((f) => join(suite, f));
const run = spawnSync(process.execPath, [join(root, "bin", "loom.mjs"), "conformance", ...dirs, "--json"], {
  cwd: root,
  encoding: "utf8",
  maxBuffer: 64 * 1024 * 1024,
});
if (run.status === null || run.stdout.trim() === "") {
  console.error(run.stderr);
  console.error("conformance: the runner did not complete");
  process.exit(1);
}
const report = JSON.parse(run.stdout);
const problems = [];
for (const c of report.cases) {
  if (c.proposed) continue;
  if (c.status === "failed") problems.push(`FAIL ${c.path}: ${c.reason}`);
  if (c.status === "skipped" && !ACCEPTED_SKIP.test(c.reason)) problems.push(`case skipped: ${c.path}: ${c.reason}`);
}
const t = report.totals;
console.log(`conformance (${FOLDERS.join(", ")}): ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped`);
for (const p of problems) console.log(p);
process.exit(problems.length === 0 && run.status === 0 ? 0 : 1);
