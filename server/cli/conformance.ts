/**
 * `loom conformance DIR… [--json] [--filter S] [--verbose]`: runs cases in the public OpenJD
 * conformance suite's format. Failures are printed with the case path and why; `proposed/`
 * cases are reported apart and never fail the run; the last line is the totals.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs, UsageError } from "./args";
import { json, type CliIo } from "./io";
import { discoverCases } from "./conformance/discover";
import { skipReasons, totals, totalsLine, type CaseResult } from "./conformance/report";
import { runCase, type RunOptions } from "./conformance/run-case";
import { jobCaseRunner } from "./conformance/run-job-case";

export const CONFORMANCE_USAGE = "usage: loom conformance DIR... [--json] [--filter SUBSTRING] [--verbose]";

export async function runConformance(argv: readonly string[], io: CliIo, extra: Partial<RunOptions> = {}): Promise<number> {
  const args = parseArgs(argv, { values: ["--filter"], booleans: ["--json", "--verbose"] });
  if (args.positionals.length === 0) throw new UsageError("conformance needs at least one DIR");
  for (const dir of args.positionals) if (!existsSync(resolve(io.cwd, dir))) throw new UsageError(`'${dir}' does not exist`);
  const filter = args.values.get("--filter");
  const cases = discoverCases(
    args.positionals.map((d) => resolve(io.cwd, d)),
    io.cwd,
  ).filter((c) => !filter || c.display.includes(filter));
  const platform = process.platform === "win32" ? "windows" : "posix";
  const options: RunOptions = { platform, cwd: io.cwd, runJob: jobCaseRunner(platform), ...extra };
  const results: CaseResult[] = [];
  for (const testCase of cases) results.push({ testCase, outcome: await runCase(testCase, options) });

  const counted = results.filter((r) => !r.testCase.proposed);
  const proposed = results.filter((r) => r.testCase.proposed);
  const main = totals(counted);
  if (args.booleans.has("--json")) {
    io.out(
      json({
        totals: main,
        proposed: totals(proposed),
        cases: results.map((r) => ({ path: r.testCase.display, kind: r.testCase.kind, proposed: r.testCase.proposed, ...r.outcome })),
      }),
    );
    return main.failed === 0 ? 0 : 1;
  }
  const verbose = args.booleans.has("--verbose");
  for (const r of counted) {
    if (r.outcome.status === "failed") io.out(`FAIL ${r.testCase.display}: ${r.outcome.reason}`);
    else if (verbose) io.out(`${r.outcome.status === "passed" ? "ok  " : "skip"} ${r.testCase.display}: ${r.outcome.reason}`);
  }
  const reasons = skipReasons(counted);
  if (reasons.length > 0) {
    io.out("Skipped:");
    for (const [reason, count] of reasons) io.out(`  ${count} × ${reason}`);
  }
  if (proposed.length > 0) {
    io.out(`Proposed cases (upstream has not agreed on them; not counted): ${totalsLine(totals(proposed))}`);
    for (const r of proposed) if (r.outcome.status === "failed" || verbose) io.out(`  ${r.outcome.status} ${r.testCase.display}: ${r.outcome.reason}`);
  }
  io.out(totalsLine(main));
  return main.failed === 0 ? 0 : 1;
}
