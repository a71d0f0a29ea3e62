/**
 * The farm at a glance: workers per status, tasks per status (from the jobs' stored roll-ups, so
 * never a count over every task), and how many tasks finished in each of the last minutes.
 */
import type { StatusCounts } from "../../lib/farm/statuses";
import { countsFromRow } from "../db/status-counts";
import type { Farm } from "../context/farm";
import { overviewQueriesRepository } from "../store/overview-queries";
import { tallyWorkers, type WorkerCounts } from "./workers";

export const MINUTE_MS = 60_000;

export interface MinuteBucket {
  /** Start of the minute (epoch ms, a whole minute). */
  start: number;
  succeeded: number;
  failed: number;
}

export interface Overview {
  at: number;
  workers: WorkerCounts;
  /** Workers an admin drained (after task or now) or disabled, whatever their status. */
  workersDrained: number;
  workersDisabled: number;
  tasks: StatusCounts;
  /** The last `minutes` whole minutes, oldest first; the last is the current (partial) minute. */
  finishedPerMinute: MinuteBucket[];
}

/** Per-minute rows (any order, minutes outside the window ignored) → one bucket per minute of the window, zeros included. */
export function minuteBuckets(rows: ReadonlyArray<{ minute: number; status: string; n: number }>, now: number, minutes: number): MinuteBucket[] {
  const last = Math.floor(now / MINUTE_MS);
  const first = last - minutes + 1;
  const buckets = Array.from({ length: minutes }, (_, i) => ({ start: (first + i) * MINUTE_MS, succeeded: 0, failed: 0 }));
  for (const row of rows) {
    const bucket = buckets[row.minute - first];
    if (!bucket) continue;
    if (row.status === "SUCCEEDED") bucket.succeeded += row.n;
    else if (row.status === "FAILED") bucket.failed += row.n;
  }
  return buckets;
}

export async function getOverview(farm: Farm, options: { minutes?: number } = {}): Promise<Overview> {
  const now = farm.now();
  const minutes = options.minutes ?? 60;
  const since = (Math.floor(now / MINUTE_MS) - minutes + 1) * MINUTE_MS;
  // One snapshot: a task finishing between the reads would otherwise be counted as running and as finished.
  const [fleet, totals, rows] = await farm.store.read(
    async (tx) => [await overviewQueriesRepository.fleet(tx), await overviewQueriesRepository.taskTotals(tx), await overviewQueriesRepository.finishedSince(tx, since)] as const,
    { consistent: true },
  );
  const workers = tallyWorkers(fleet);
  return { at: now, workers: workers.workers, workersDrained: workers.drained, workersDisabled: workers.disabled, tasks: countsFromRow(totals), finishedPerMinute: minuteBuckets(rows, now, minutes) };
}
