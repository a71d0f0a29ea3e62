/**
 * Reading task-to-task dependencies (TASK_DEPENDENCIES) for people: what a task waits for and
 * what waits for it, page by page in index order (a fan-in of 100,000 edges is never read
 * whole for a page), the upstream tasks that block it, and the dependents a requeue would
 * reach. Each edge comes back with the task at its other end (id, step name, parameters, status).
 */
import type { steps, taskEdges, tasks } from "../db/schema";
import type { Dialect } from "./repository";
import { perEngine, type ReadTx } from "./repository";
import type { RawPick } from "./rows";

/** An edge with the task at its other end. */
export type LinkedTaskRow = RawPick<typeof taskEdges, "group_no" | "met"> &
  RawPick<typeof tasks, "id" | "task_index" | "parameters" | "status"> &
  RawPick<typeof steps, "step_index"> & { step_name: string };

/** A task reached from another by met edges. */
export type ReachedTaskRow = RawPick<typeof tasks, "id" | "status"> & { step_index: number; task_index: number };

/** A task as a dependency query starts from it. */
export type TaskPlaceRow = RawPick<typeof tasks, "id" | "job_id" | "task_index" | "status" | "waiting"> & { step_index: number };

const ENDED_WITHOUT_SUCCESS = "('FAILED', 'CANCELED')";

/** The task at an edge's `side` end, joined by its step index and task index. */
const linked = (side: "up" | "down") =>
  `SELECT e.group_no, e.met, t.id, t.task_index, t.parameters, t.status, s.step_index, s.name AS step_name
   FROM task_edges e JOIN steps s ON s.job_id = e.job_id AND s.step_index = e.${side}_step JOIN tasks t ON t.step_id = s.id AND t.task_index = e.${side}_task`;

const PLACE = "SELECT t.id, t.job_id, t.task_index, t.status, t.waiting, s.step_index FROM tasks t JOIN steps s ON s.id = t.step_id WHERE t.id = ?";
// Index order (task_edges_down, the primary key): a page stops after its rows.
const UPSTREAM = `${linked("up")} WHERE e.job_id = ? AND e.down_step = ? AND e.down_task = ? ORDER BY e.up_step, e.up_task LIMIT ? OFFSET ?`;
const UNMET_UPSTREAM = `${linked("up")} WHERE e.job_id = ? AND e.down_step = ? AND e.down_task = ? AND e.met = FALSE ORDER BY e.up_step, e.up_task LIMIT ?`;
const UPSTREAM_COUNT = "SELECT COUNT(*) AS n FROM task_edges WHERE job_id = ? AND down_step = ? AND down_task = ?";
const DOWNSTREAM = `${linked("down")} WHERE e.job_id = ? AND e.up_step = ? AND e.up_task = ? ORDER BY e.down_step, e.down_task LIMIT ? OFFSET ?`;
const DOWNSTREAM_COUNT = "SELECT COUNT(*) AS n FROM task_edges WHERE job_id = ? AND up_step = ? AND up_task = ?";
/** Unmet all-of edges whose upstream task ended without success, and members of any-of groups of which every member did. */
const BLOCKERS_WHERE = `e.job_id = ? AND e.down_step = ? AND e.down_task = ? AND e.met = FALSE AND t.status IN ${ENDED_WITHOUT_SUCCESS} AND (e.group_no < 0 OR NOT EXISTS (
     SELECT 1 FROM task_edges o JOIN steps os ON os.job_id = o.job_id AND os.step_index = o.up_step JOIN tasks ot ON ot.step_id = os.id AND ot.task_index = o.up_task
     WHERE o.job_id = e.job_id AND o.down_step = e.down_step AND o.down_task = e.down_task AND o.group_no = e.group_no AND ot.status NOT IN ${ENDED_WITHOUT_SUCCESS}))`;
const BLOCKERS = `${linked("up")} WHERE ${BLOCKERS_WHERE} ORDER BY e.up_step, e.up_task LIMIT ?`;
const BLOCKERS_COUNT = `SELECT COUNT(*) AS n FROM task_edges e JOIN steps s ON s.job_id = e.job_id AND s.step_index = e.up_step JOIN tasks t ON t.step_id = s.id AND t.task_index = e.up_task WHERE ${BLOCKERS_WHERE}`;

/** `(a, b)` pairs of a JSON array of two-number arrays bound as text. */
const pairs = (d: Dialect) =>
  d.engine === "sqlite" ? "(SELECT value ->> 0, value ->> 1 FROM json_each(?))" : "(SELECT CAST(e ->> 0 AS integer), CAST(e ->> 1 AS integer) FROM json_array_elements(CAST(? AS json)) AS e)";
const reached = (where: string) =>
  `SELECT DISTINCT t.id, t.status, e.down_step AS step_index, e.down_task AS task_index
   FROM task_edges e JOIN steps s ON s.job_id = e.job_id AND s.step_index = e.down_step JOIN tasks t ON t.step_id = s.id AND t.task_index = e.down_task
   WHERE e.job_id = ? AND e.met = TRUE AND ${where}`;
const REACHED_FROM_TASKS = perEngine((d) => reached(`(e.up_step, e.up_task) IN ${pairs(d)}`));
const REACHED_FROM_STEP = reached("e.up_step = ?");
const PLACES = perEngine(
  (d) => `SELECT t.id, t.job_id, t.task_index, t.status, t.waiting, s.step_index FROM tasks t JOIN steps s ON s.id = t.step_id WHERE t.job_id = ? AND t.id IN ${d.jsonValues("?", "bigint")}`,
);

const count = async (tx: ReadTx, sql: string, params: Array<string | number>): Promise<number> => (await tx.get<{ n: number }>(sql, params))?.n ?? 0;

export const taskDependencyQueriesRepository = {
  /** A task with its step index (edges name tasks so). */
  place: (tx: ReadTx, taskId: number): Promise<TaskPlaceRow | undefined> => tx.get<TaskPlaceRow>(PLACE, [taskId]),
  /** Listed tasks of a job with their step indexes. */
  places: (tx: ReadTx, jobId: string, taskIds: readonly number[]): Promise<TaskPlaceRow[]> => tx.all<TaskPlaceRow>(PLACES[tx.engine], [jobId, JSON.stringify(taskIds)]),
  /** A page of what a task waits for (every edge into it), in step and task order, and how many there are. */
  async upstream(tx: ReadTx, task: TaskPlaceRow, offset: number, limit: number): Promise<{ total: number; rows: LinkedTaskRow[] }> {
    const where = [task.job_id, task.step_index, task.task_index];
    return { total: await count(tx, UPSTREAM_COUNT, where), rows: await tx.all<LinkedTaskRow>(UPSTREAM, [...where, limit, offset]) };
  },
  /** The first `limit` edges into a task that are not met yet. */
  unmetUpstream: (tx: ReadTx, task: TaskPlaceRow, limit: number): Promise<LinkedTaskRow[]> => tx.all<LinkedTaskRow>(UNMET_UPSTREAM, [task.job_id, task.step_index, task.task_index, limit]),
  /** A page of what waits for a task (every edge out of it), and how many there are. */
  async downstream(tx: ReadTx, task: TaskPlaceRow, offset: number, limit: number): Promise<{ total: number; rows: LinkedTaskRow[] }> {
    const where = [task.job_id, task.step_index, task.task_index];
    return { total: await count(tx, DOWNSTREAM_COUNT, where), rows: await tx.all<LinkedTaskRow>(DOWNSTREAM, [...where, limit, offset]) };
  },
  /** The upstream tasks that block a task (it can never be released without a retry or requeue of them): the first `limit`, and how many. */
  async blockers(tx: ReadTx, task: TaskPlaceRow, limit: number): Promise<{ total: number; rows: LinkedTaskRow[] }> {
    const where = [task.job_id, task.step_index, task.task_index];
    const rows = await tx.all<LinkedTaskRow>(BLOCKERS, [...where, limit]);
    return { total: rows.length < limit ? rows.length : await count(tx, BLOCKERS_COUNT, where), rows };
  },
  /** The tasks that met edges lead to from these (`[stepIndex, taskIndex]` pairs as JSON). */
  reachedFromTasks: (tx: ReadTx, jobId: string, upTasks: string): Promise<ReachedTaskRow[]> => tx.all<ReachedTaskRow>(REACHED_FROM_TASKS[tx.engine], [jobId, upTasks]),
  /** The tasks that met edges lead to from any task of a step. */
  reachedFromStep: (tx: ReadTx, jobId: string, stepIndex: number): Promise<ReachedTaskRow[]> => tx.all<ReachedTaskRow>(REACHED_FROM_STEP, [jobId, stepIndex]),
};
