/**
 * Deleting a job with everything under it (log lines, Session actions, Sessions, tasks, steps)
 * in short transactions, children first: deleting the job row alone would cascade through a
 * million rows in one statement. The job row goes last, with `finish` (an audit row) in the same
 * transaction, so a job is either listed whole or gone.
 */
import { jobDeletionRepository } from "../store/job-deletion";
import type { Farm } from "../context/farm";
import { inSlices } from "./in-slices";

export interface DeletedRows {
  logLines: number;
  actions: number;
  sessions: number;
  tasks: number;
}

export async function deleteJobRows(farm: Farm, jobId: string, finish?: (deleted: DeletedRows) => void): Promise<DeletedRows> {
  const rows = jobDeletionRepository(farm.store);
  const sessionIds = rows.sessionIdsOfJob(jobId);
  const deleted: DeletedRows = { logLines: 0, actions: 0, sessions: 0, tasks: 0 };
  // Each phase deletes a chunk and counts it; a chunk of 0 rows moves on to the next phase.
  const phase = (kind: keyof DeletedRows, run: () => number) => () => {
    const n = run();
    deleted[kind] += n;
    return n;
  };
  const phases: Array<() => number> = [];
  for (const id of sessionIds) {
    phases.push(
      phase("logLines", () => rows.deleteLogLinesChunk(id)),
      phase("actions", () => rows.deleteActionsChunk(id)),
      phase("sessions", () => rows.deleteSession(id)),
    );
  }
  phases.push(phase("tasks", () => rows.deleteTasksChunk(jobId)));
  let current = 0;
  await inSlices(
    (fn) => farm.store.transaction(fn),
    () => {
      for (; current < phases.length; current++) if (phases[current]!() > 0) return true;
      return false;
    },
  );
  farm.store.transaction(() => {
    rows.deleteJob(jobId);
    finish?.(deleted);
  });
  return deleted;
}
