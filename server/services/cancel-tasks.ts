/**
 * Cancel (a job, a step or tasks): nothing of it starts any more; what runs is canceled by its
 * action's cancelation method on the worker's next sync. Idempotent: canceling twice changes
 * nothing more.
 */
import { audit, type Actor } from "./audit";
import type { Farm } from "./farm";
import { describeTarget, moveTasks, resolveTarget, type TaskTarget } from "./task-target";

export function cancelTasks(farm: Farm, target: TaskTarget, actor: Actor): { changed: number } {
  const sqlite = farm.store.sqlite;
  const changed = farm.tasks.transaction(() => {
    const resolved = resolveTarget(farm, target);
    if (!target.stepId && !target.taskIds) sqlite.prepare("UPDATE jobs SET canceled = 1 WHERE id = ?").run(target.jobId);
    const moved = moveTasks(farm, resolved, ["PENDING", "READY", "ASSIGNED", "RUNNING", "SUSPENDED", "NOT_COMPATIBLE"], "CANCELED", `, ended_at = ${Number(farm.now())}`);
    audit(farm, actor, { action: "job.cancel", target: { kind: "job", id: target.jobId }, after: { ...describeTarget(target), changed: moved } });
    return moved;
  });
  farm.events.emit("jobs", [target.jobId]);
  return { changed };
}
