/**
 * Task-to-task edges and any-of groups as the scheduler moves them (server/scheduler/
 * task-releases.ts decides; this module only reads and writes). Every change is one
 * UPDATE … RETURNING over the rows it changes, so on PostgreSQL the row locks decide between
 * concurrent units: an edge is marked met by one unit only (`met = FALSE` is re-checked on the
 * row's latest version), a group's count and a task's `waiting` are arithmetic on the row, and
 * each unit gets back the value its own change made. Rows several units change (a fan-in's
 * task, its groups) are locked first in one order (lockTasks, lockGroups: PostgreSQL only), so
 * two units never wait for each other's rows in opposite orders (a deadlock): an UPDATE of a
 * list of rows locks them in the order it happens to reach them, which for rows updated often is
 * their place on disk. Named statements: a completion runs them.
 *
 * Edges name tasks by step index and task index (as job creation resolved them); a step's id is
 * `<job id>:<step index>` (persist-job.ts), so a task's step index is read off its step id.
 */
import type { StoredDependency as ResolvedDependency } from "../../lib/farm/task-dependencies";
import type { steps, taskEdges, taskGroups, tasks } from "../db/schema";
import type { Dialect } from "./repository";
import { perEngine, statement, type ReadTx, type Tx } from "./repository";
import type { RawPick } from "./rows";

/** Where a changed edge points: its downstream task and its group (-1: all-of). */
export type EdgeEnd = RawPick<typeof taskEdges, "down_step" | "down_task" | "group_no">;
/** An any-of group after its count changed. */
export type GroupCount = RawPick<typeof taskGroups, "group_no" | "down_step" | "down_task" | "met_count">;
/** A task after its `waiting` changed. */
export type WaitingTask = RawPick<typeof tasks, "id" | "task_index" | "status" | "waiting">;
/** A step as a gate of another: its tasks and how many succeeded. */
export type GateStep = RawPick<typeof steps, "step_index" | "task_count" | "count_succeeded">;
/** A step's dependencies as stored (resolved ones, or 2023-09 names). */
export type StepDependenciesRow = RawPick<typeof steps, "name" | "dependencies" | "resolved_dependencies">;

/** `(a, b)` pairs of a JSON array of two-number arrays bound as text, as a subquery's rows. */
const pairs = (d: Dialect) =>
  d.engine === "sqlite" ? "(SELECT value ->> 0, value ->> 1 FROM json_each(?))" : "(SELECT CAST(e ->> 0 AS integer), CAST(e ->> 1 AS integer) FROM json_array_elements(CAST(? AS json)) AS e)";

const RELEASE = statement<EdgeEnd>("task-edges.release", "UPDATE task_edges SET met = TRUE WHERE job_id = ? AND up_step = ? AND up_task = ? AND met = FALSE RETURNING down_step, down_task, group_no");
const UNMEET = perEngine((d) =>
  statement<EdgeEnd>(
    `task-edges.unmeet@${d.engine}`,
    `UPDATE task_edges SET met = FALSE WHERE job_id = ? AND met = TRUE AND (up_step, up_task) IN ${pairs(d)} RETURNING down_step, down_task, group_no`,
  ),
);
const ADD_TO_GROUPS = perEngine((d) =>
  statement<GroupCount>(
    `task-edges.addToGroups@${d.engine}`,
    `UPDATE task_groups SET met_count = met_count + ? WHERE job_id = ? AND group_no IN ${d.jsonValues("?", "bigint")} RETURNING group_no, down_step, down_task, met_count`,
  ),
);
const ADD_WAITING = perEngine((d) =>
  statement<WaitingTask>(
    `task-edges.addWaiting@${d.engine}`,
    `UPDATE tasks SET waiting = waiting + ? WHERE step_id = ? AND task_index IN ${d.jsonValues("?", "bigint")} RETURNING id, task_index, status, waiting`,
  ),
);
const RELEASE_TASKS = perEngine((d) =>
  statement(`task-edges.releaseTasks@${d.engine}`, `UPDATE tasks SET status = 'READY' WHERE id IN ${d.jsonValues("?", "bigint")} AND status = 'PENDING' AND waiting = 0`),
);
const HOLD_READY = perEngine((d) =>
  statement(`task-edges.holdReady@${d.engine}`, `UPDATE tasks SET status = 'PENDING' WHERE step_id = ? AND task_index IN ${d.jsonValues("?", "bigint")} AND status = 'READY'`),
);
// PostgreSQL: FOR SHARE waits for a unit that is changing a gate step's counts and then reads what it committed (see task-releases.ts).
const GATE_STEPS = perEngine((d) =>
  statement<GateStep>(
    `task-edges.gateSteps@${d.engine}`,
    `SELECT step_index, task_count, count_succeeded FROM steps WHERE job_id = ? AND step_index IN ${d.jsonValues("?", "bigint")}${d.engine === "postgres" ? " FOR SHARE" : ""}`,
  ),
);
const LOCK_TASKS = statement(
  "task-edges.lockTasks",
  "SELECT id FROM tasks WHERE step_id = ? AND task_index IN (SELECT CAST(value AS integer) FROM json_array_elements_text(CAST(? AS json)) AS e(value)) ORDER BY task_index FOR UPDATE",
);
const LOCK_GROUPS = statement(
  "task-edges.lockGroups",
  "SELECT group_no FROM task_groups WHERE job_id = ? AND group_no IN (SELECT CAST(value AS integer) FROM json_array_elements_text(CAST(? AS json)) AS e(value)) ORDER BY group_no FOR UPDATE",
);
const STEP_DEPENDENCIES = statement<StepDependenciesRow>("task-edges.stepDependencies", "SELECT name, dependencies, resolved_dependencies FROM steps WHERE job_id = ? AND step_index = ?");
const STEP_INDEX = statement<RawPick<typeof steps, "step_index">>("task-edges.stepIndex", "SELECT step_index FROM steps WHERE id = ?");
const HAS_EDGES = statement<{ one: number }>("task-edges.hasEdges", "SELECT 1 AS one FROM task_edges WHERE job_id = ? LIMIT 1");

/** A step's id (persist-job.ts names steps so). */
export const stepIdOf = (jobId: string, stepIndex: number): string => `${jobId}:${stepIndex}`;

/** The step index a step id carries, or undefined when it is not `<job id>:<index>`. */
export function stepIndexIn(jobId: string, stepId: string): number | undefined {
  if (!stepId.startsWith(jobId) || stepId.charCodeAt(jobId.length) !== 58 /* ":" */) return undefined;
  const index = Number(stepId.slice(jobId.length + 1));
  return Number.isSafeInteger(index) && index >= 0 ? index : undefined;
}

/** What a step's stored dependencies say: the resolved ones, else (a job from before them) one whole-step gate per name. */
export function dependenciesOf(row: StepDependenciesRow): ResolvedDependency[] {
  if (row.resolved_dependencies !== null) return JSON.parse(row.resolved_dependencies) as ResolvedDependency[];
  return (JSON.parse(row.dependencies) as string[]).map((name, index) => ({ index, dependsOn: name, upstreamStep: -1, self: name === row.name, kind: "step", label: "whole step", edges: 0 }));
}

export const taskEdgesRepository = {
  /** Marks the edges out of a task met (it succeeded); returns those that were not yet. */
  release: (tx: Tx, jobId: string, upStep: number, upTask: number): Promise<EdgeEnd[]> => tx.all(RELEASE, [jobId, upStep, upTask]),
  /** Marks the edges out of these tasks (`[stepIndex, taskIndex]` pairs as JSON) unmet again; returns those that were met. */
  unmeet: (tx: Tx, jobId: string, upTasks: string): Promise<EdgeEnd[]> => tx.all(UNMEET[tx.engine], [jobId, upTasks]),
  /** Adds `by` to the met count of each listed group (a JSON array); returns them with their counts after. */
  addToGroups: (tx: Tx, jobId: string, by: number, groups: string): Promise<GroupCount[]> => tx.all(ADD_TO_GROUPS[tx.engine], [by, jobId, groups]),
  /** Adds `by` to `waiting` of the listed tasks of a step (task indexes as a JSON array); returns them after. */
  addWaiting: (tx: Tx, stepId: string, by: number, taskIndexes: string): Promise<WaitingTask[]> => tx.all(ADD_WAITING[tx.engine], [by, stepId, taskIndexes]),
  /** Makes the listed tasks (ids as a JSON array) READY if they are PENDING and wait on no task; returns how many moved. */
  releaseTasks: async (tx: Tx, taskIds: string): Promise<number> => (await tx.run(RELEASE_TASKS[tx.engine], [taskIds])).changes,
  /** Puts the listed READY tasks of a step back to PENDING; returns how many moved. */
  holdReady: async (tx: Tx, stepId: string, taskIndexes: string): Promise<number> => (await tx.run(HOLD_READY[tx.engine], [stepId, taskIndexes])).changes,
  /** PostgreSQL: locks the listed tasks of a step (task indexes, ascending, as JSON) in task order, until the unit ends; SQLite: nothing (units take turns). */
  async lockTasks(tx: Tx, stepId: string, taskIndexes: string): Promise<void> {
    if (tx.engine === "postgres") await tx.all(LOCK_TASKS, [stepId, taskIndexes]);
  },
  /** PostgreSQL: locks the listed any-of groups in group order, until the unit ends. */
  async lockGroups(tx: Tx, jobId: string, groups: string): Promise<void> {
    if (tx.engine === "postgres") await tx.all(LOCK_GROUPS, [jobId, groups]);
  },
  /** The listed steps' counts, as gates (on PostgreSQL share-locked until the unit ends). */
  gateSteps: (tx: Tx, jobId: string, stepIndexes: readonly number[]): Promise<GateStep[]> => tx.all(GATE_STEPS[tx.engine], [jobId, JSON.stringify(stepIndexes)]),
  stepDependencies: (tx: ReadTx, jobId: string, stepIndex: number): Promise<StepDependenciesRow | undefined> => tx.get(STEP_DEPENDENCIES, [jobId, stepIndex]),
  /** A step's index from its row (for a step id that does not carry it). */
  stepIndex: async (tx: ReadTx, stepId: string): Promise<number | undefined> => (await tx.get(STEP_INDEX, [stepId]))?.step_index,
  hasEdges: async (tx: ReadTx, jobId: string): Promise<boolean> => (await tx.get(HAS_EDGES, [jobId])) !== undefined,
};
