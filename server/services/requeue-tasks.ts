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
import { jobWritesRepository } from "../store/job-writes";
import { failureClearsRepository } from "../store/failure-clears";
import { audit, type Actor } from "./audit";
import { clearWorkerFailures } from "./clear-worker-failures";
import type { Farm } from "../context/farm";
import { withJobLock } from "./job-lock";
import { describeTarget, moveTasks, resolveTarget, type TaskTarget } from "./task-target";

function requeue(farm: Farm, target: TaskTarget, from: readonly TaskStatus[], actor: Actor, action: AuditAction): Promise<{ changed: number }> {
  return withJobLock(farm, target.jobId, async () => {
    const resolved = await farm.store.read((tx) => resolveTarget(tx, farm, target), { consistent: true });
    // A wrangler's requeue runs at once, anywhere: the retry delay and the failed-here preference go with the budgets.
    const changed = await moveTasks(farm, resolved, from, "PENDING", "requeue");
    const keptAway = await farm.store.transaction(async (tx) => {
      if (changed > 0) {
        await jobWritesRepository.reopen(tx, target.jobId);
        await farm.tasks.settleJob(tx, target.jobId, farm.now());
      }
      await audit(tx, farm, actor, { action, target: { kind: "job", id: target.jobId }, after: { ...describeTarget(target), changed } });
      return changed > 0 && (await failureClearsRepository.anyOfJob(tx, target.jobId));
    });
    farm.events.publish(null, "jobs", [target.jobId]);
    if (keptAway) await clearWorkerFailures(farm, { jobId: target.jobId }, actor);
    return { changed };
  });
}

export function requeueTasks(farm: Farm, target: TaskTarget, actor: Actor): Promise<{ changed: number }> {
  return requeue(farm, target, movableTo("PENDING", "requeue"), actor, "job.requeue");
}

export function retryFailedTasks(farm: Farm, target: TaskTarget, actor: Actor): Promise<{ changed: number }> {
  return requeue(farm, target, movableTo("PENDING", "retry"), actor, "job.retry");
}
