/**
 * Requeue runs the target's tasks again from the start, whatever their state (running ones are
 * canceled on their worker first); retry-failed requeues only FAILED tasks. Both reset the
 * retry budgets, and a job that had failed or been canceled becomes active again once its tasks
 * have moved (in chunks: task-target.ts). Either also clears the job's failure rule (as
 * Flamenco's requeue clears its blocklist): a wrangler who runs tasks again wants them run, and
 * with every compatible worker kept away they never would be.
 *
 * A requeue of succeeded tasks takes back what they released (task-releases.ts): their
 * dependents wait again, and those still READY go back to PENDING. The dependents that already
 * ran (or are running) are requeued with them only when asked (`withDependents`,
 * requeue-dependents.ts); the answer says how many there were either way.
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
import { dependentsOf } from "./requeue-dependents";
import { describeTarget, moveTasks, resolveTarget, type TaskTarget } from "./task-target";

export interface RequeueOptions {
  /** Requeue the dependents the target's succeeded tasks released (and theirs) too. */
  withDependents?: boolean;
}

export interface RequeueResult {
  changed: number;
  /** Released dependents outside the target: requeued with it when asked, else left as they are. */
  dependents: number;
}

function requeue(farm: Farm, target: TaskTarget, from: readonly TaskStatus[], actor: Actor, action: AuditAction, options: RequeueOptions = {}): Promise<RequeueResult> {
  return withJobLock(farm, target.jobId, async () => {
    const { resolved, dependents } = await farm.store.read(
      async (tx) => {
        const found = await resolveTarget(tx, farm, target);
        return { resolved: found, dependents: await dependentsOf(tx, found) };
      },
      { consistent: true },
    );
    if (options.withDependents) resolved.alsoTaskIds = dependents;
    // A wrangler's requeue runs at once, anywhere: the retry delay and the failed-here preference go with the budgets.
    const changed = await moveTasks(farm, resolved, from, "PENDING", "requeue");
    const keptAway = await farm.store.transaction(async (tx) => {
      if (changed > 0) {
        await jobWritesRepository.reopen(tx, target.jobId);
        await farm.tasks.settleJob(tx, target.jobId, farm.now());
      }
      const withDependents = options.withDependents === true;
      await audit(tx, farm, actor, {
        action,
        target: { kind: "job", id: target.jobId },
        after: { ...describeTarget(target), changed, ...(dependents.length > 0 ? { dependents: dependents.length, withDependents } : {}) },
      });
      return changed > 0 && (await failureClearsRepository.anyOfJob(tx, target.jobId));
    });
    farm.events.publish(null, "jobs", [target.jobId]);
    if (keptAway) await clearWorkerFailures(farm, { jobId: target.jobId }, actor);
    return { changed, dependents: dependents.length };
  });
}

export function requeueTasks(farm: Farm, target: TaskTarget, actor: Actor, options: RequeueOptions = {}): Promise<RequeueResult> {
  return requeue(farm, target, movableTo("PENDING", "requeue"), actor, "job.requeue", options);
}

export function retryFailedTasks(farm: Farm, target: TaskTarget, actor: Actor): Promise<RequeueResult> {
  return requeue(farm, target, movableTo("PENDING", "retry"), actor, "job.retry");
}
