/**
 * A wrangler clearing the failure rule of a job (server/services/clear-worker-failures.ts), for
 * every worker or one: the rows as they were (for the audit row), then gone. (Counting failures
 * and blocking workers: worker-failures.ts.)
 */
import type { workerJobFailures } from "../db/schema";
import { repository } from "./repository";
import type { RawPick } from "./rows";

export type ClearedFailure = RawPick<typeof workerJobFailures, "worker_id" | "failures" | "blocked_at">;

export const failureClearsRepository = repository((sqlite) => {
  const any = sqlite.prepare<[string]>("SELECT 1 FROM worker_job_failures WHERE job_id = ? LIMIT 1");
  const ofJob = sqlite.prepare<[string], ClearedFailure>("SELECT worker_id, failures, blocked_at FROM worker_job_failures WHERE job_id = ?");
  const ofWorker = sqlite.prepare<[string, string], ClearedFailure>("SELECT worker_id, failures, blocked_at FROM worker_job_failures WHERE job_id = ? AND worker_id = ?");
  const clearJob = sqlite.prepare<[string]>("DELETE FROM worker_job_failures WHERE job_id = ?");
  const clearWorker = sqlite.prepare<[string, string]>("DELETE FROM worker_job_failures WHERE job_id = ? AND worker_id = ?");
  return {
    /** Whether any worker has a failure counted against the job. */
    anyOfJob: (jobId: string): boolean => any.get(jobId) !== undefined,
    /** Deletes the job's failure rows (of one worker, given one); returns them as they were. */
    clear(jobId: string, workerId: string | undefined): ClearedFailure[] {
      if (workerId === undefined) {
        const rows = ofJob.all(jobId);
        clearJob.run(jobId);
        return rows;
      }
      const rows = ofWorker.all(jobId, workerId);
      clearWorker.run(jobId, workerId);
      return rows;
    },
  };
});
