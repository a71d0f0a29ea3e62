/**
 * The statements behind state-machine-test-support.ts's checkDependencies (SQL lives in
 * server/store): rows where task-to-task dependency state disagrees with the task rows.
 */
import type { ReadTx } from "./engine/engine";
import type { StepDependenciesRow } from "./task-edges";

type Reader = { read<T>(fn: (tx: ReadTx) => Promise<T>): Promise<T> };

export type DependencyStepRow = StepDependenciesRow & { id: string; task_count: number; count_pending: number; count_succeeded: number };

const UPSTREAM = "JOIN steps s ON s.job_id = e.job_id AND s.step_index = e.up_step JOIN tasks u ON u.step_id = s.id AND u.task_index = e.up_task";

export const dependencyConsistency = {
  hasEdges: async (store: Reader, jobId: string): Promise<boolean> => (await store.read((tx) => tx.get("SELECT 1 AS one FROM task_edges WHERE job_id = ? LIMIT 1", [jobId]))) !== undefined,

  /** Edges met although their upstream task has not succeeded, or the other way round. */
  wrongEdges: (store: Reader, jobId: string): Promise<unknown[]> =>
    store.read((tx) =>
      tx.all(`SELECT e.up_step, e.up_task, e.down_step, e.down_task, e.met, u.status FROM task_edges e ${UPSTREAM} WHERE e.job_id = ? AND (e.met = TRUE) <> (u.status = 'SUCCEEDED')`, [jobId]),
    ),

  /** Any-of groups whose count is not the number of their met edges. */
  wrongGroups: (store: Reader, jobId: string): Promise<unknown[]> =>
    store.read((tx) =>
      tx.all(
        "SELECT g.group_no, g.met_count FROM task_groups g WHERE g.job_id = ? AND g.met_count <> (SELECT COUNT(*) FROM task_edges e WHERE e.job_id = g.job_id AND e.group_no = g.group_no AND e.met = TRUE)",
        [jobId],
      ),
    ),

  /** Tasks whose `waiting` is not their unmet all-of edges plus their unmet groups. */
  wrongWaiting: (store: Reader, jobId: string, edges: boolean): Promise<unknown[]> =>
    store.read((tx) =>
      edges
        ? tx.all(
            `SELECT t.id, t.waiting FROM tasks t JOIN steps s ON s.id = t.step_id WHERE t.job_id = ? AND t.waiting <> (
               (SELECT COUNT(*) FROM task_edges e WHERE e.job_id = t.job_id AND e.down_step = s.step_index AND e.down_task = t.task_index AND e.group_no < 0 AND e.met = FALSE)
               + (SELECT COUNT(*) FROM task_groups g WHERE g.job_id = t.job_id AND g.down_step = s.step_index AND g.down_task = t.task_index AND g.met_count = 0))`,
            [jobId],
          )
        : tx.all("SELECT id, waiting FROM tasks WHERE job_id = ? AND waiting <> 0", [jobId]),
    ),

  steps: (store: Reader, jobId: string): Promise<DependencyStepRow[]> =>
    store.read((tx) => tx.all<DependencyStepRow>("SELECT id, name, dependencies, resolved_dependencies, task_count, count_pending, count_succeeded FROM steps WHERE job_id = ?", [jobId])),

  /** PENDING tasks of a step that wait on nothing. */
  pendingWaitingOnNothing: (store: Reader, stepId: string): Promise<unknown[]> => store.read((tx) => tx.all("SELECT id FROM tasks WHERE step_id = ? AND status = 'PENDING' AND waiting = 0", [stepId])),
};
