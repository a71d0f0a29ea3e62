/**
 * The farm at a glance: workers per status, tasks per status (from the jobs' stored roll-ups, so
 * never a count over every task), and how many tasks finished in each of the last minutes.
 */
import { TASK_STATUSES, type StatusCounts } from "../../lib/farm/statuses";
import { countColumn, countsFromRow, type CountColumnsRow } from "../db/status-counts";
import type { Farm } from "../services/farm";
import { tallyWorkers, WORKER_TALLY_COLUMNS, type WorkerCounts, type WorkerTallyRow } from "./workers";

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

export function getOverview(farm: Farm, options: { minutes?: number } = {}): Overview {
  const sqlite = farm.store.sqlite;
  const now = farm.now();
  const minutes = options.minutes ?? 60;
  const since = (Math.floor(now / MINUTE_MS) - minutes + 1) * MINUTE_MS;

  const fleet = tallyWorkers(sqlite.prepare<[], WorkerTallyRow>(`SELECT ${WORKER_TALLY_COLUMNS} FROM workers WHERE removed_at IS NULL GROUP BY status`).all());

  const sums = TASK_STATUSES.map((status) => `COALESCE(SUM(${countColumn(status)}), 0) AS ${countColumn(status)}`).join(", ");
  const tasks = countsFromRow(sqlite.prepare<[], CountColumnsRow>(`SELECT ${sums} FROM jobs`).get()!);

  // Only jobs still open or ended inside the window can hold tasks that ended in it; their
  // finished tasks are found through the (job, status) index.
  const rows = sqlite
    .prepare<[number, number], { minute: number; status: string; n: number }>(
      `SELECT t.ended_at / ${MINUTE_MS} AS minute, t.status, COUNT(*) AS n FROM tasks t
       WHERE t.job_id IN (SELECT id FROM jobs WHERE ended_at IS NULL OR ended_at >= ?)
         AND t.status IN ('SUCCEEDED', 'FAILED') AND t.ended_at >= ?
       GROUP BY minute, t.status`,
    )
    .all(since, since);

  return { at: now, workers: fleet.workers, workersDrained: fleet.drained, workersDisabled: fleet.disabled, tasks, finishedPerMinute: minuteBuckets(rows, now, minutes) };
}
