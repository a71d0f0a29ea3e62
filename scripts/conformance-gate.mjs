#!/usr/bin/env node
// Part of `npm test`: runs `loom conformance` over two sets of cases and fails when a case fails
// or is skipped for any reason but "runs on <the other platform> only" or a documented
// contradiction between two cases:
// - the public OpenJD conformance suite from ../shared (or $OPENJD_SAMPLES_DIR), over the
//   extensions Loom supports; without the suite that part says so and is skipped;
// - the project's own cases, every folder of conformance/2023-09/ (extensions of Loom's own, such
//   as TASK_DEPENDENCIES, in the public suite's format), always.
// Each part prints its own totals line.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const samples = resolve(process.env.OPENJD_SAMPLES_DIR ?? join(root, "..", "shared", "openjd-samples"));
const suite = join(samples, "conformance", "2023-09");
const FOLDERS = ["base", "TASK_CHUNKING", "REDACTED_ENV_VARS", "FEATURE_BUNDLE_1", "EXPR", "WRAP_ACTIONS"];
const own = join(root, "conformance", "2023-09");
const OWN_FOLDERS = readdirSync(own, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();
const ACCEPTED_SKIP = /^(runs on (windows|posix) only|contradiction: )/;

/** Runs `loom conformance` over `dirs`; prints the totals line and every problem; true when none. */
function gate(label, dirs) {
  const run = spawnSync(process.execPath, [join(root, "bin", "loom.mjs"), "conformance", ...dirs, "--json"], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status === null || run.stdout.trim() === "") {
    console.error(run.stderr);
    console.error(`${label}: the runner did not complete`);
    return false;
  }
  const report = JSON.parse(run.stdout);
  const problems = [];
  for (const c of report.cases) {
    if (c.proposed) continue;
    if (c.status === "failed") problems.push(`FAIL ${c.path}: ${c.reason}`);
    if (c.status === "skipped" && !ACCEPTED_SKIP.test(c.reason)) problems.push(`case skipped: ${c.path}: ${c.reason}`);
  }
  const t = report.totals;
  console.log(`${label}: ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped`);
  for (const p of problems) console.log(p);
  return problems.length === 0 && run.status === 0;
}

let ok = true;
if (existsSync(suite)) {
  ok = gate(
    `conformance (${FOLDERS.join(", ")})`,
    FOLDERS.map((f) => join(suite, f)),
  );
} else {
  console.log(`conformance: skipped: suite not found at ${suite} (set OPENJD_SAMPLES_DIR to run it)`);
}
const ownOk = gate(
  `conformance, Loom's own (${OWN_FOLDERS.join(", ")})`,
  OWN_FOLDERS.map((f) => join(own, f)),
);
process.exit(ok && ownOk ? 0 : 1);
