/**
 * A wrangler clearing the failure rule of a job (server/services/clear-worker-failures.ts), for
 * every worker or one: the rows as they were (for the audit row), then gone. (Counting failures
 * and blocking workers: worker-failures.ts.)
 */
import type { workerJobFailures } from "../db/schema";
import type { ReadTx, Tx } from "./repository";
import type { RawPick } from "./rows";

export type ClearedFailure = RawPick<typeof workerJobFailures, "worker_id" | "failures" | "blocked_at">;

const ANY = "SELECT 1 FROM worker_job_failures WHERE job_id = ? LIMIT 1";
const OF_JOB = "SELECT worker_id, failures, blocked_at FROM worker_job_failures WHERE job_id = ?";
const OF_WORKER = "SELECT worker_id, failures, blocked_at FROM worker_job_failures WHERE job_id = ? AND worker_id = ?";
const CLEAR_JOB = "DELETE FROM worker_job_failures WHERE job_id = ?";
const CLEAR_WORKER = "DELETE FROM worker_job_failures WHERE job_id = ? AND worker_id = ?";

export const failureClearsRepository = {
  /** Whether any worker has a failure counted against the job. */
  anyOfJob: async (tx: ReadTx, jobId: string): Promise<boolean> => (await tx.get(ANY, [jobId])) !== undefined,
  /** Deletes the job's failure rows (of one worker, given one); returns them as they were. */
  async clear(tx: Tx, jobId: string, workerId: string | undefined): Promise<ClearedFailure[]> {
    if (workerId === undefined) {
      const rows = await tx.all<ClearedFailure>(OF_JOB, [jobId]);
      await tx.run(CLEAR_JOB, [jobId]);
      return rows;
    }
    const rows = await tx.all<ClearedFailure>(OF_WORKER, [jobId, workerId]);
    await tx.run(CLEAR_WORKER, [jobId, workerId]);
    return rows;
  },
};
