/**
 * Cancel (a job, a step or tasks): nothing of it starts any more; what runs is canceled by its
 * action's cancelation method on the worker's next sync. Idempotent: canceling twice changes
 * nothing more. A whole job is marked canceled first, so none of it dispatches while its tasks
 * move in chunks (task-target.ts); the audit row carries the final count.
 */
import { movableTo } from "../../lib/farm/task-transitions";
import { jobWritesRepository } from "../store/job-writes";
import { audit, type Actor } from "./audit";
import type { Farm } from "../context/farm";
import { withJobLock } from "./job-lock";
import { describeTarget, moveTasks, resolveTarget, type TaskTarget } from "./task-target";

/** Everything not ended yet (the state machine's cancel moves). */
const CANCELABLE = movableTo("CANCELED", "cancel");

export function cancelTasks(farm: Farm, target: TaskTarget, actor: Actor): Promise<{ changed: number }> {
  return withJobLock(farm, target.jobId, async () => {
    const resolved = await farm.store.transaction(async (tx) => {
      const found = await resolveTarget(tx, farm, target);
      if (!target.stepId && !target.taskIds) await jobWritesRepository.markCanceled(tx, target.jobId);
      return found;
    });
    const changed = await moveTasks(farm, resolved, CANCELABLE, "CANCELED", "end", farm.now());
    await farm.store.transaction((tx) => audit(tx, farm, actor, { action: "job.cancel", target: { kind: "job", id: target.jobId }, after: { ...describeTarget(target), changed } }));
    farm.events.publish(null, "jobs", [target.jobId]);
    return { changed };
  });
}
