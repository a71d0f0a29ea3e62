/** Totals and printing for `loom conformance`. */
import type { ConformanceCase } from "./discover";
import type { CaseOutcome } from "./run-case";

export interface CaseResult {
  testCase: ConformanceCase;
  outcome: CaseOutcome;
}

export interface Totals {
  passed: number;
  failed: number;
  skipped: number;
}

export function totals(results: readonly CaseResult[]): Totals {
  const t = { passed: 0, failed: 0, skipped: 0 };
  for (const r of results) t[r.outcome.status]++;
  return t;
}

export function totalsLine(t: Totals): string {
  return `${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped`;
}

/** Skip reasons grouped, most frequent first, so a report shows what is still missing at a glance. */
export function skipReasons(results: readonly CaseResult[]): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const r of results) if (r.outcome.status === "skipped") counts.set(r.outcome.reason, (counts.get(r.outcome.reason) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}
