/**
 * The per-worker failure rule (Flamenco's job blocklist, anchors-product §1b): every failed
 * attempt is counted against the (job, worker) it ran on; at the job's maxWorkerFailures the
 * worker is kept away from the job — the dispatcher gives it none of the job's tasks — until a
 * wrangler clears it (server/services/clear-worker-failures.ts). A worker that breaks one job
 * (a missing plug-in, a bad mount) keeps serving every other job.
 */
import type Database from "better-sqlite3";
import type { Store } from "../db/connection";

export class WorkerFailures {
  private readonly statements;

  constructor(store: Store) {
    const s: Database.Database = store.sqlite;
    this.statements = {
      // One statement: the count and the block decided together, so concurrent reports cannot skip the threshold.
      record: s.prepare<{ job: string; worker: string; now: number; message: string | null; max: number }>(
        `INSERT INTO worker_job_failures (job_id, worker_id, failures, last_failure_at, last_message, blocked_at)
         VALUES (@job, @worker, 1, @now, @message, CASE WHEN @max > 0 AND @max <= 1 THEN @now END)
         ON CONFLICT (job_id, worker_id) DO UPDATE SET failures = failures + 1, last_failure_at = @now, last_message = @message,
           blocked_at = COALESCE(blocked_at, CASE WHEN @max > 0 AND failures + 1 >= @max THEN @now END)`,
      ),
      blockedJobs: s.prepare<[string], { job_id: string }>("SELECT job_id FROM worker_job_failures WHERE worker_id = ? AND blocked_at IS NOT NULL"),
    };
  }

  /** Counts one failed attempt of `jobId` on `workerId`; `max` is the job's maxWorkerFailures (0: count, never block). */
  record(jobId: string, workerId: string, now: number, message: string | null, max: number): void {
    this.statements.record.run({ job: jobId, worker: workerId, now, message: message === null ? null : message.slice(0, 500), max });
  }

  /** The jobs this worker is kept away from (read by every dispatch decision: an index lookup, usually empty). */
  blockedJobs(workerId: string): ReadonlySet<string> {
    const rows = this.statements.blockedJobs.all(workerId);
    return rows.length === 0 ? EMPTY : new Set(rows.map((r) => r.job_id));
  }
}

const EMPTY: ReadonlySet<string> = new Set();
