/**
 * Requeue runs the target's tasks again from the start, whatever their state (running ones are
 * canceled on their worker first); retry-failed requeues only FAILED tasks. Both reset the
 * retry budgets, and a job that had failed or been canceled becomes active again.
 */
import type { Farm } from "./farm";
import { moveTasks, resolveTarget, type TaskTarget } from "./task-target";

const RESET = ", worker_id = NULL, session_id = NULL, failure_count = 0, interruption_count = 0, progress = NULL, status_message = NULL, started_at = NULL, ended_at = NULL";

function requeue(farm: Farm, target: TaskTarget, from: readonly string[]): { changed: number } {
  const sqlite = farm.store.sqlite;
  const changed = farm.tasks.transaction(() => {
    const resolved = resolveTarget(farm, target);
    const moved = moveTasks(farm, resolved, from, "PENDING", RESET);
    if (moved > 0) {
      sqlite.prepare("UPDATE jobs SET canceled = 0, ended_at = NULL, failed_task_count = (SELECT COUNT(*) FROM tasks WHERE job_id = ? AND status = 'FAILED') WHERE id = ?").run(target.jobId, target.jobId);
      farm.tasks.settleJob(target.jobId, farm.now());
    }
    return moved;
  });
  farm.events.emit("jobs", [target.jobId]);
  return { changed };
}

export function requeueTasks(farm: Farm, target: TaskTarget): { changed: number } {
  return requeue(farm, target, ["READY", "ASSIGNED", "RUNNING", "SUCCEEDED", "FAILED", "CANCELED", "NOT_COMPATIBLE"]);
}

export function retryFailedTasks(farm: Farm, target: TaskTarget): { changed: number } {
  return requeue(farm, target, ["FAILED"]);
}
