/**
 * Suspend and resume. Suspending stops dispatch of the target's waiting tasks and cancels the
 * running ones (they come back as SUSPENDED and run again after resume); resuming makes them
 * PENDING again, and READY as their dependencies allow. Both are idempotent.
 */
import { audit, type Actor } from "./audit";
import type { Farm } from "./farm";
import { describeTarget, moveTasks, resolveTarget, type TaskTarget } from "./task-target";

export function suspendTasks(farm: Farm, target: TaskTarget, actor: Actor): { changed: number } {
  const changed = farm.tasks.transaction(() => {
    const resolved = resolveTarget(farm, target);
    if (!target.stepId && !target.taskIds) farm.store.sqlite.prepare("UPDATE jobs SET suspended = 1 WHERE id = ?").run(target.jobId);
    const moved = moveTasks(farm, resolved, ["PENDING", "READY", "ASSIGNED", "RUNNING"], "SUSPENDED", ", worker_id = NULL, session_id = NULL");
    audit(farm, actor, { action: "job.suspend", target: { kind: "job", id: target.jobId }, after: { ...describeTarget(target), changed: moved } });
    return moved;
  });
  farm.events.emit("jobs", [target.jobId]);
  return { changed };
}

export function resumeTasks(farm: Farm, target: TaskTarget, actor: Actor): { changed: number } {
  const changed = farm.tasks.transaction(() => {
    const resolved = resolveTarget(farm, target);
    if (!target.stepId && !target.taskIds) farm.store.sqlite.prepare("UPDATE jobs SET suspended = 0 WHERE id = ?").run(target.jobId);
    const moved = moveTasks(farm, resolved, ["SUSPENDED"], "PENDING");
    audit(farm, actor, { action: "job.resume", target: { kind: "job", id: target.jobId }, after: { ...describeTarget(target), changed: moved } });
    return moved;
  });
  farm.events.emit("jobs", [target.jobId]);
  return { changed };
}
