/**
 * Requeue runs the target's tasks again from the start, whatever their state (running ones are
 * canceled on their worker first); retry-failed requeues only FAILED tasks. Both reset the
 * retry budgets, and a job that had failed or been canceled becomes active again once its tasks
 * have moved (in chunks: task-target.ts). Either also clears the job's failure rule (as
 * Flamenco's requeue clears its blocklist): a wrangler who runs tasks again wants them run, and
 * with every compatible worker kept away they never would be.
 */
import type { AuditAction } from "../../lib/farm/audit-actions";
import type { TaskStatus } from "../../lib/farm/statuses";
import { movableTo } from "../../lib/farm/task-transitions";
import { audit, type Actor } from "./audit";
import { clearWorkerFailures } from "./clear-worker-failures";
import type { Farm } from "./farm";
import { withJobLock } from "./job-lock";
import { describeTarget, moveTasks, resolveTarget, type TaskTarget } from "./task-target";

// A wrangler's requeue runs at once, anywhere: the retry delay and the failed-here preference go with the budgets.
const RESET = ", worker_id = NULL, session_id = NULL, failure_count = 0, interruption_count = 0, progress = NULL, status_message = NULL, started_at = NULL, ended_at = NULL, retry_at = NULL, last_failed_worker_id = NULL";

function requeue(farm: Farm, target: TaskTarget, from: readonly TaskStatus[], actor: Actor, action: AuditAction): Promise<{ changed: number }> {
  return withJobLock(farm, target.jobId, async () => {
    const resolved = farm.store.transaction(() => resolveTarget(farm, target));
    const changed = await moveTasks(farm, resolved, from, "PENDING", RESET);
    farm.store.transaction(() => {
      if (changed > 0) {
        farm.store.sqlite
          .prepare("UPDATE jobs SET canceled = 0, ended_at = NULL, failed_task_count = (SELECT COUNT(*) FROM tasks WHERE job_id = ? AND status = 'FAILED') WHERE id = ?")
          .run(target.jobId, target.jobId);
        farm.tasks.settleJob(target.jobId, farm.now());
      }
      audit(farm, actor, { action, target: { kind: "job", id: target.jobId }, after: { ...describeTarget(target), changed } });
    });
    farm.events.publish("jobs", [target.jobId]);
    if (changed > 0 && hasFailureRows(farm, target.jobId)) clearWorkerFailures(farm, { jobId: target.jobId }, actor);
    return { changed };
  });
}

export function requeueTasks(farm: Farm, target: TaskTarget, actor: Actor): Promise<{ changed: number }> {
  return requeue(farm, target, movableTo("PENDING", "requeue"), actor, "job.requeue");
}

export function retryFailedTasks(farm: Farm, target: TaskTarget, actor: Actor): Promise<{ changed: number }> {
  return requeue(farm, target, movableTo("PENDING", "retry"), actor, "job.retry");
}

/** Whether any worker has a failure counted against the job (so a clear has something to clear and audit). */
function hasFailureRows(farm: Farm, jobId: string): boolean {
  return farm.store.sqlite.prepare<[string]>("SELECT 1 FROM worker_job_failures WHERE job_id = ? LIMIT 1").get(jobId) !== undefined;
}
