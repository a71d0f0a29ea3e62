/**
 * Deleting a job with everything under it (log lines, Session actions, Sessions, tasks, steps)
 * in short transactions, children first: deleting the job row alone would cascade through a
 * million rows in one statement. The job row goes last, with `finish` (an audit row) in the same
 * transaction, so a job is either listed whole or gone.
 */
import type { Farm } from "./farm";
import { inSlices } from "./in-slices";

/** Rows per DELETE (a few milliseconds each; a slice runs several). */
const CHUNK = 500;

export interface DeletedRows {
  logLines: number;
  actions: number;
  sessions: number;
  tasks: number;
}

export async function deleteJobRows(farm: Farm, jobId: string, finish?: (deleted: DeletedRows) => void): Promise<DeletedRows> {
  const sqlite = farm.store.sqlite;
  const lines = sqlite.prepare<[string]>(`DELETE FROM log_lines WHERE id IN (SELECT id FROM log_lines WHERE session_id = ? LIMIT ${CHUNK})`);
  const actions = sqlite.prepare<[string]>(`DELETE FROM session_actions WHERE id IN (SELECT id FROM session_actions WHERE session_id = ? LIMIT ${CHUNK})`);
  const session = sqlite.prepare<[string]>("DELETE FROM sessions WHERE id = ?");
  const tasks = sqlite.prepare<[string]>(`DELETE FROM tasks WHERE id IN (SELECT id FROM tasks WHERE job_id = ? LIMIT ${CHUNK})`);
  const sessionIds = sqlite.prepare<[string], string>("SELECT id FROM sessions WHERE job_id = ?").pluck().all(jobId);
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
      phase("logLines", () => lines.run(id).changes),
      phase("actions", () => actions.run(id).changes),
      phase("sessions", () => session.run(id).changes),
    );
  }
  phases.push(phase("tasks", () => tasks.run(jobId).changes));
  let current = 0;
  await inSlices(
    (fn) => farm.store.transaction(fn),
    () => {
      for (; current < phases.length; current++) if (phases[current]!() > 0) return true;
      return false;
    },
  );
  farm.store.transaction(() => {
    sqlite.prepare("DELETE FROM requests WHERE job_id = ?").run(jobId);
    sqlite.prepare("DELETE FROM jobs WHERE id = ?").run(jobId);
    finish?.(deleted);
  });
  return deleted;
}
