/**
 * Failed attempts per (job, worker) and the block they lead to (server/scheduler/worker-failures.ts
 * says the rule). Recorded and read on the sync path: prepared once per connection.
 */
import type { workerJobFailures } from "../db/schema";
import { repository } from "./repository";
import type { RawPick } from "./rows";

export const workerFailuresRepository = repository((sqlite) => {
  // One statement: the count and the block decided together, so concurrent reports cannot skip the threshold.
  const record = sqlite.prepare<{ job: string; worker: string; now: number; message: string | null; max: number }>(
    `INSERT INTO worker_job_failures (job_id, worker_id, failures, last_failure_at, last_message, blocked_at)
     VALUES (@job, @worker, 1, @now, @message, CASE WHEN @max > 0 AND @max <= 1 THEN @now END)
     ON CONFLICT (job_id, worker_id) DO UPDATE SET failures = failures + 1, last_failure_at = @now, last_message = @message,
       blocked_at = COALESCE(blocked_at, CASE WHEN @max > 0 AND failures + 1 >= @max THEN @now END)`,
  );
  const blockedJobs = sqlite.prepare<[string], RawPick<typeof workerJobFailures, "job_id">>("SELECT job_id FROM worker_job_failures WHERE worker_id = ? AND blocked_at IS NOT NULL");

  return {
    /** Counts one failed attempt; blocks the worker from the job when the count reaches `max` (0: never). */
    record(jobId: string, workerId: string, now: number, message: string | null, max: number): void {
      record.run({ job: jobId, worker: workerId, now, message, max });
    },
    /** The jobs the worker is blocked from. */
    blockedJobs: (workerId: string): Array<RawPick<typeof workerJobFailures, "job_id">> => blockedJobs.all(workerId),
  };
});
