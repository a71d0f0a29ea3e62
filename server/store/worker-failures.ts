/**
 * Failed attempts per (job, worker) and the block they lead to (server/scheduler/worker-failures.ts
 * says the rule). Recorded and read on the sync path: named statements, prepared once per connection.
 */
import type { RunResult } from "./engine/engine";
import type { workerJobFailures } from "../db/schema";
import { statement, type ReadTx, type Tx } from "./repository";
import type { RawPick } from "./rows";

// One statement: the count and the block decided together, so concurrent reports cannot skip the threshold.
// Parameters: job, worker, now, message, max, max, now; then now, message, max, max, now.
// For PostgreSQL: the time a CASE gives is cast (a bare parameter there is typed text), and the
// stored row's columns are named with their table (PostgreSQL finds the bare names ambiguous).
const RECORD = statement(
  "worker-failures.record",
  `INSERT INTO worker_job_failures (job_id, worker_id, failures, last_failure_at, last_message, blocked_at)
   VALUES (?, ?, 1, ?, ?, CASE WHEN ? > 0 AND ? <= 1 THEN CAST(? AS bigint) END)
   ON CONFLICT (job_id, worker_id) DO UPDATE SET failures = worker_job_failures.failures + 1, last_failure_at = ?, last_message = ?,
     blocked_at = COALESCE(worker_job_failures.blocked_at, CASE WHEN ? > 0 AND worker_job_failures.failures + 1 >= ? THEN CAST(? AS bigint) END)`,
);
const BLOCKED_JOBS = statement<RawPick<typeof workerJobFailures, "job_id">>("worker-failures.blockedJobs", "SELECT job_id FROM worker_job_failures WHERE worker_id = ? AND blocked_at IS NOT NULL");

export const workerFailuresRepository = {
  /** Counts one failed attempt; blocks the worker from the job when the count reaches `max` (0: never). */
  record(tx: Tx, jobId: string, workerId: string, now: number, message: string | null, max: number): Promise<RunResult> {
    return tx.run(RECORD, [jobId, workerId, now, message, max, max, now, now, message, max, max, now]);
  },
  /** The jobs the worker is blocked from. */
  blockedJobs: (tx: ReadTx, workerId: string): Promise<Array<RawPick<typeof workerJobFailures, "job_id">>> => tx.all(BLOCKED_JOBS, [workerId]),
};
