/**
 * Declaring silent workers lost (the scheduler's periodic sweep; anchors-scheduling §0 item 13):
 * a worker that has not synced within the timeout becomes NOT_RESPONDING, its lease epoch moves
 * on (so its late reports are refused), its running actions become INTERRUPTED and their tasks
 * go back to READY on the interruption budget.
 */
import type { Farm } from "./farm";

/** Interrupts every open Session of the worker (inside the caller's farm.tasks.transaction); returns the jobs touched. */
export function interruptWorkerSessions(farm: Farm, workerId: string, now: number): string[] {
  const jobs = new Set<string>();
  for (const session of farm.sessions.unendedSessions(workerId)) {
    for (const action of farm.sessions.openActions(session.id)) {
      farm.sessions.interruptAction(action.id, now);
      const task = action.task_id === null ? undefined : farm.tasks.heldBy(action.task_id, session.id);
      if (task) farm.updates.interrupt(task);
    }
    farm.sessions.end(session.id, now);
    jobs.add(session.job_id);
  }
  for (const jobId of jobs) farm.tasks.settleJob(jobId, now);
  return [...jobs];
}

export function sweepWorkers(farm: Farm): { lost: string[] } {
  const now = farm.now();
  const deadline = now - farm.settings.workerTimeoutSeconds * 1000;
  const sqlite = farm.store.sqlite;
  const { lost, jobs } = farm.tasks.transaction(() => {
    const silent = sqlite
      .prepare<[number], { id: string }>("SELECT id FROM workers WHERE last_heartbeat_at < ? AND status NOT IN ('NOT_RESPONDING', 'STOPPED')")
      .all(deadline);
    const touched = new Set<string>();
    for (const worker of silent) {
      for (const job of interruptWorkerSessions(farm, worker.id, now)) touched.add(job);
      sqlite.prepare("UPDATE workers SET status = 'NOT_RESPONDING', lease_epoch = lease_epoch + 1 WHERE id = ?").run(worker.id);
    }
    return { lost: silent.map((w) => w.id), jobs: [...touched] };
  });
  if (lost.length > 0) farm.events.emit("workers");
  if (jobs.length > 0) farm.events.emit("jobs", jobs);
  return { lost };
}
