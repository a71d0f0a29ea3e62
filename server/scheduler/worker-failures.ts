/**
 * The per-worker failure rule (Flamenco's job blocklist, anchors-product §1b): every failed
 * attempt is counted against the (job, worker) it ran on; at the job's maxWorkerFailures the
 * worker is kept away from the job — the dispatcher gives it none of the job's tasks — until a
 * wrangler clears it (server/services/clear-worker-failures.ts). A worker that breaks one job
 * (a missing plug-in, a bad mount) keeps serving every other job.
 */
import type { ReadTx, Tx } from "../store/engine/engine";
import { workerFailuresRepository } from "../store/worker-failures";

export class WorkerFailures {
  /** Counts one failed attempt of `jobId` on `workerId`; `max` is the job's maxWorkerFailures (0: count, never block). */
  async record(tx: Tx, jobId: string, workerId: string, now: number, message: string | null, max: number): Promise<void> {
    await workerFailuresRepository.record(tx, jobId, workerId, now, message === null ? null : message.slice(0, 500), max);
  }

  /** The jobs this worker is kept away from (read by every dispatch decision: an index lookup, usually empty). */
  async blockedJobs(tx: ReadTx, workerId: string): Promise<ReadonlySet<string>> {
    const rows = await workerFailuresRepository.blockedJobs(tx, workerId);
    return rows.length === 0 ? EMPTY : new Set(rows.map((r) => r.job_id));
  }
}

const EMPTY: ReadonlySet<string> = new Set();
