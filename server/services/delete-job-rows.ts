/**
 * Deleting a job with everything under it (log lines, Session actions, Sessions, tasks, their
 * task-to-task edges and any-of groups, steps)
 * in short units of work, children first: deleting the job row alone would cascade through a
 * million rows in one statement. The job row goes last, with `finish` (an audit row, the job's
 * creation marker) in the same unit, so a job is either listed whole or gone.
 */
import { jobDeletionRepository } from "../store/job-deletion";
import type { LeaderFence } from "../store/leader";
import type { Tx } from "../store/repository";
import type { Farm } from "../context/farm";
import { inSlices } from "./in-slices";

export interface DeletedRows {
  logLines: number;
  actions: number;
  sessions: number;
  tasks: number;
  /** Task-to-task edges and any-of groups. */
  edges: number;
}

/**
 * `fence`, when given, runs first in every unit (leader work: a server that finds it does not
 * lead any more stops, its last unit rolled back).
 */
export async function deleteJobRows(farm: Farm, jobId: string, finish?: (tx: Tx, deleted: DeletedRows) => Promise<unknown>, fence?: LeaderFence): Promise<DeletedRows> {
  const unit = <T>(fn: (tx: Tx) => Promise<T>): Promise<T> =>
    farm.store.transaction(async (tx) => {
      await fence?.(tx);
      return fn(tx);
    });
  const sessionIds = await farm.store.read((tx) => jobDeletionRepository.sessionIdsOfJob(tx, jobId));
  const deleted: DeletedRows = { logLines: 0, actions: 0, sessions: 0, tasks: 0, edges: 0 };
  // Each phase deletes a chunk and counts it; a chunk of 0 rows moves on to the next phase.
  const phase = (kind: keyof DeletedRows, run: (tx: Tx) => Promise<number>) => async (tx: Tx) => {
    const n = await run(tx);
    deleted[kind] += n;
    return n;
  };
  const phases: Array<(tx: Tx) => Promise<number>> = [];
  for (const id of sessionIds) {
    phases.push(
      phase("logLines", (tx) => jobDeletionRepository.deleteLogLinesChunk(tx, id)),
      phase("actions", (tx) => jobDeletionRepository.deleteActionsChunk(tx, id)),
      phase("sessions", (tx) => jobDeletionRepository.deleteSession(tx, id)),
    );
  }
  phases.push(
    phase("edges", (tx) => jobDeletionRepository.deleteEdgesChunk(tx, jobId)),
    phase("edges", (tx) => jobDeletionRepository.deleteGroupsChunk(tx, jobId)),
    phase("tasks", (tx) => jobDeletionRepository.deleteTasksChunk(tx, jobId)),
  );
  let current = 0;
  await inSlices(
    unit,
    async (tx) => {
      for (; current < phases.length; current++) if ((await phases[current]!(tx)) > 0) return true;
      return false;
    },
    {
      // A slice rolled back (and run again) counts its rows once.
      start: (tx) => {
        const [at, counted] = [current, { ...deleted }];
        tx.onRollback(() => {
          current = at;
          Object.assign(deleted, counted);
        });
      },
    },
  );
  await unit(async (tx) => {
    await jobDeletionRepository.deleteJob(tx, jobId);
    await finish?.(tx, deleted);
  });
  return deleted;
}
