/**
 * Declaring silent workers lost (the scheduler's periodic sweep; anchors-scheduling §0 item 13):
 * a worker that has not synced within the timeout becomes NOT_RESPONDING, its lease epoch moves
 * on (so its late reports are refused), its running actions become INTERRUPTED and their tasks
 * go back to READY on the interruption budget.
 */
import { TERMINAL_ACTION_STATUSES } from "../../lib/farm/statuses";
import type { Farm } from "./farm";

/** Interrupts every open Session of the worker (inside the caller's transaction); returns the jobs touched. */
export function interruptWorkerSessions(farm: Farm, workerId: string, now: number): string[] {
  const sqlite = farm.store.sqlite;
  const open = sqlite.prepare<[string], { id: string; job_id: string }>("SELECT id, job_id FROM sessions WHERE worker_id = ? AND state != 'ENDED'").all(workerId);
  const jobs = new Set<string>();
  for (const session of open) {
    for (const action of farm.sessions.actions(session.id)) {
      if (TERMINAL_ACTION_STATUSES.has(action.status)) continue;
      sqlite.prepare("UPDATE session_actions SET status = 'INTERRUPTED', ended_at = ? WHERE id = ?").run(now, action.id);
      if (action.task_id === null) continue;
      const task = farm.tasks.task(action.task_id);
      if (task && task.session_id === session.id && (task.status === "ASSIGNED" || task.status === "RUNNING")) farm.updates.interrupt(task);
    }
    sqlite.prepare("UPDATE sessions SET state = 'ENDED', ended_at = ? WHERE id = ?").run(now, session.id);
    jobs.add(session.job_id);
  }
  for (const jobId of jobs) farm.tasks.settleJob(jobId, now);
  return [...jobs];
}

export function sweepWorkers(farm: Farm): { lost: string[] } {
  const now = farm.now();
  const deadline = now - farm.settings.workerTimeoutSeconds * 1000;
  const sqlite = farm.store.sqlite;
  const { lost, jobs } = sqlite.transaction(() => {
    const silent = sqlite
      .prepare<[number], { id: string }>("SELECT id FROM workers WHERE last_heartbeat_at < ? AND status NOT IN ('NOT_RESPONDING', 'STOPPED')")
      .all(deadline);
    const touched = new Set<string>();
    for (const worker of silent) {
      for (const job of interruptWorkerSessions(farm, worker.id, now)) touched.add(job);
      sqlite.prepare("UPDATE workers SET status = 'NOT_RESPONDING', lease_epoch = lease_epoch + 1 WHERE id = ?").run(worker.id);
    }
    return { lost: silent.map((w) => w.id), jobs: [...touched] };
  })();
  if (lost.length > 0) farm.events.emit("workers");
  if (jobs.length > 0) farm.events.emit("jobs", jobs);
  return { lost };
}
