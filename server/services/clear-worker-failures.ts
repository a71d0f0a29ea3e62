/**
 * A wrangler clears the failure rule for a job: one worker, or every worker, gets the job's tasks
 * again with its failure count back to zero (the fix is in, or the failures were the job's own).
 * Audited with what was cleared; idle workers are woken, since the job may have work for them now.
 */
import { failureClearsRepository } from "../store/failure-clears";
import { jobWritesRepository } from "../store/job-writes";
import { audit, type Actor } from "./audit";
import { AppError } from "../context/errors";
import type { Farm } from "../context/farm";

export async function clearWorkerFailures(farm: Farm, target: { jobId: string; workerId?: string | undefined }, actor: Actor): Promise<{ cleared: number }> {
  const cleared = await farm.store.transaction(async (tx) => {
    if (!(await jobWritesRepository.exists(tx, target.jobId))) throw new AppError("NOT_FOUND", `no job ${target.jobId}`);
    const before = await failureClearsRepository.clear(tx, target.jobId, target.workerId);
    await audit(tx, farm, actor, {
      action: "job.clear-worker-failures",
      target: { kind: "job", id: target.jobId },
      before: before.map((r) => ({ workerId: r.worker_id, failures: r.failures, keptAway: r.blocked_at !== null })),
      after: { workerId: target.workerId ?? "every worker", cleared: before.length },
    });
    return before.length;
  });
  farm.events.publish(null, "jobs", [target.jobId]);
  farm.events.publish(null, "workers");
  return { cleared };
}
