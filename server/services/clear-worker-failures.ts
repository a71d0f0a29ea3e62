/**
 * A wrangler clears the failure rule for a job: one worker, or every worker, gets the job's tasks
 * again with its failure count back to zero (the fix is in, or the failures were the job's own).
 * Audited with what was cleared; idle workers are woken, since the job may have work for them now.
 */
import { audit, type Actor } from "./audit";
import { AppError } from "./errors";
import type { Farm } from "./farm";

export function clearWorkerFailures(farm: Farm, target: { jobId: string; workerId?: string | undefined }, actor: Actor): { cleared: number } {
  const sqlite = farm.store.sqlite;
  const cleared = farm.store.transaction(() => {
    if (!sqlite.prepare<[string]>("SELECT 1 FROM jobs WHERE id = ?").get(target.jobId)) throw new AppError("NOT_FOUND", `no job ${target.jobId}`);
    const where = target.workerId === undefined ? "job_id = ?" : "job_id = ? AND worker_id = ?";
    const params = target.workerId === undefined ? [target.jobId] : [target.jobId, target.workerId];
    const before = sqlite
      .prepare<unknown[], { worker_id: string; failures: number; blocked_at: number | null }>(`SELECT worker_id, failures, blocked_at FROM worker_job_failures WHERE ${where}`)
      .all(...params);
    sqlite.prepare(`DELETE FROM worker_job_failures WHERE ${where}`).run(...params);
    audit(farm, actor, {
      action: "job.clear-worker-failures",
      target: { kind: "job", id: target.jobId },
      before: before.map((r) => ({ workerId: r.worker_id, failures: r.failures, keptAway: r.blocked_at !== null })),
      after: { workerId: target.workerId ?? "every worker", cleared: before.length },
    });
    return before.length;
  });
  farm.events.publish("jobs", [target.jobId]);
  farm.events.publish("workers");
  return { cleared };
}
