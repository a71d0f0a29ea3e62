/**
 * Writing jobs (server/services/persist-job.ts and the wrangler actions): a job's number, its row
 * and steps, its tasks as set-based inserts (one INSERT … SELECT FROM json_each per chunk of
 * parameter sets, so SQLite unpacks them), their task-to-task edges and any-of groups the same
 * way, and which tasks start out waiting on others, the counts that make a job being created live, the
 * `job-creating:<id>` markers in server_state, and the job row's switches (canceled, suspended,
 * priority, reopened by a requeue).
 */
import { drizzle as pgQueryBuilder } from "drizzle-orm/pg-proxy";
import { drizzle as sqliteQueryBuilder } from "drizzle-orm/sqlite-proxy";
import { TASK_STATUSES, type StatusCounts, type TaskStatus } from "../../lib/farm/statuses";
import { jobs, steps, type jobNumbers } from "../db/schema";
import * as pgSchema from "../db/schema-postgres";
import { countColumn } from "../db/status-counts";
import type { Params, RunResult } from "./engine/engine";
import { perEngine, type ReadTx, type Tx } from "./repository";
import type { RawPick } from "./rows";

export type NewJob = typeof jobs.$inferInsert;
export type NewStep = typeof steps.$inferInsert;

/** The server_state key prefix of a job being created (job-deletion.ts's retention skips those). */
export const CREATING_MARKER = "job-creating:";

/** Every count column set, in TASK_STATUSES order: a job going live gets its first counts. */
const SET_COUNTS = TASK_STATUSES.map((status) => `${countColumn(status)} = ?`).join(", ");

const countsInOrder = (counts: Readonly<StatusCounts>) => TASK_STATUSES.map((status) => counts[status]);

const TAKE_JOB_NUMBER = "INSERT INTO job_numbers DEFAULT VALUES RETURNING number";
const DROP_JOB_NUMBERS_BELOW = "DELETE FROM job_numbers WHERE number < ?";
// The parameter sets come as one JSON array bound as text, unpacked by the engine (element k is task firstIndex + k).
const INSERT_TASKS = perEngine((d) =>
  d.engine === "sqlite"
    ? "INSERT INTO tasks (job_id, step_id, task_index, parameters, status) SELECT ?, ?, ? + key, value, ? FROM json_each(?)"
    : "INSERT INTO tasks (job_id, step_id, task_index, parameters, status) SELECT ?, ?, CAST(? AS integer) + CAST(e.n AS integer) - 1, e.value, ? FROM json_array_elements_text(CAST(? AS json)) WITH ORDINALITY AS e(value, n)",
);
// Tasks that wait on others (TASK_DEPENDENCIES): their count of requirements.
const SET_WAITING = perEngine((d) => `UPDATE tasks SET waiting = ? WHERE step_id = ? AND task_index IN ${d.jsonValues("?", "bigint")}`);
// Those of a range of a step's new tasks that wait on none (a step gated by none of its dependencies).
const RELEASE_RANGE = "UPDATE tasks SET status = 'READY' WHERE step_id = ? AND task_index BETWEEN ? AND ? AND status = 'PENDING' AND waiting = 0";
// Edges `[upStep, upTask, downStep, downTask, group]` and groups `[group, downStep, downTask]` as JSON arrays (plan-dependencies.ts).
const INSERT_EDGES = perEngine((d) =>
  d.engine === "sqlite"
    ? "INSERT INTO task_edges (job_id, up_step, up_task, down_step, down_task, group_no) SELECT ?, value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4 FROM json_each(?)"
    : "INSERT INTO task_edges (job_id, up_step, up_task, down_step, down_task, group_no) SELECT ?, CAST(e ->> 0 AS integer), CAST(e ->> 1 AS integer), CAST(e ->> 2 AS integer), CAST(e ->> 3 AS integer), CAST(e ->> 4 AS integer) FROM json_array_elements(CAST(? AS json)) AS e",
);
const INSERT_GROUPS = perEngine((d) =>
  d.engine === "sqlite"
    ? "INSERT INTO task_groups (job_id, group_no, down_step, down_task) SELECT ?, value ->> 0, value ->> 1, value ->> 2 FROM json_each(?)"
    : "INSERT INTO task_groups (job_id, group_no, down_step, down_task) SELECT ?, CAST(e ->> 0 AS integer), CAST(e ->> 1 AS integer), CAST(e ->> 2 AS integer) FROM json_array_elements(CAST(? AS json)) AS e",
);
const SET_STEP_COUNTS = `UPDATE steps SET ${SET_COUNTS}, status = ?, incompatible_reason = ? WHERE id = ?`;
const SET_JOB_COUNTS = `UPDATE jobs SET ${SET_COUNTS}, status = ?, task_count = ? WHERE id = ?`;
const MARK = "INSERT INTO server_state (key, value, updated_at) VALUES (?, ?, ?)";
const UNMARK = "DELETE FROM server_state WHERE key = ?";
const TOUCH_MARK = "UPDATE server_state SET updated_at = ? WHERE key = ?";
const MARKERS = "SELECT key, value, updated_at FROM server_state WHERE key LIKE ? || '%'";
const EXISTS = "SELECT 1 AS one FROM jobs WHERE id = ?";
const PRIORITY = "SELECT priority FROM jobs WHERE id = ?";
const SET_PRIORITY = "UPDATE jobs SET priority = ? WHERE id = ?";
const CANCEL = "UPDATE jobs SET canceled = TRUE WHERE id = ?";
const SET_SUSPENDED = "UPDATE jobs SET suspended = ? WHERE id = ?";
const REOPEN = "UPDATE jobs SET canceled = FALSE, ended_at = NULL, failed_task_count = (SELECT COUNT(*) FROM tasks WHERE job_id = ? AND status = 'FAILED') WHERE id = ?";

/**
 * The query builder, for the rows with JSON and boolean columns: it writes their SQL and values
 * (JSON as text, flags as 1/0, defaults filled in), which the caller's tx runs. It never runs a
 * statement itself.
 */
const builderOnly = (): never => {
  throw new Error("job-writes builds statements with drizzle; the unit of work runs them");
};
const sqliteBuilder = sqliteQueryBuilder(builderOnly);
const pgBuilder = pgQueryBuilder(builderOnly);

/** The INSERT of a job row, written by the query builder of the unit's engine. */
function insertJobSql(tx: Tx, job: NewJob): { sql: string; params: unknown[] } {
  return tx.engine === "sqlite" ? sqliteBuilder.insert(jobs).values(job).toSQL() : pgBuilder.insert(pgSchema.jobs).values(job).toSQL();
}

function insertStepsSql(tx: Tx, rows: NewStep[]): { sql: string; params: unknown[] } {
  return tx.engine === "sqlite" ? sqliteBuilder.insert(steps).values(rows).toSQL() : pgBuilder.insert(pgSchema.steps).values(rows).toSQL();
}

/** Runs a statement the query builder wrote. */
async function runBuilt(tx: Tx, built: { sql: string; params: unknown[] }): Promise<void> {
  await tx.run(built.sql, built.params as Params);
}

export const jobWritesRepository = {
  /**
   * The next job number, from the engine (job_numbers' AUTOINCREMENT; PostgreSQL: its
   * identity), so concurrent submissions never need a lock to number their jobs. The rows
   * below it are dropped now and then (AUTOINCREMENT remembers the highest number anyway).
   */
  async nextJobNumber(tx: Tx): Promise<number> {
    const { number } = (await tx.get<RawPick<typeof jobNumbers, "number">>(TAKE_JOB_NUMBER))!;
    if (number % 64 === 0) await tx.run(DROP_JOB_NUMBERS_BELOW, [number]);
    return number;
  },
  insertJob: (tx: Tx, job: NewJob): Promise<void> => runBuilt(tx, insertJobSql(tx, job)),
  /** Every step of a job, in one INSERT. */
  insertSteps: (tx: Tx, rows: NewStep[]): Promise<void> => runBuilt(tx, insertStepsSql(tx, rows)),
  /** A chunk of tasks: `parameterSets` a JSON array, its element k becoming task `firstIndex + k`. */
  insertTasks(tx: Tx, jobId: string, stepId: string, firstIndex: number, status: TaskStatus, parameterSets: string): Promise<RunResult> {
    return tx.run(INSERT_TASKS[tx.engine], [jobId, stepId, firstIndex, status, parameterSets]);
  },
  /** Marks tasks of a step as waiting on `n` requirements each (`taskIndexes` a JSON array). */
  setWaiting(tx: Tx, stepId: string, n: number, taskIndexes: string): Promise<RunResult> {
    return tx.run(SET_WAITING[tx.engine], [n, stepId, taskIndexes]);
  },
  /** Makes the PENDING tasks of a step with indexes in [first, last] that wait on no task READY. */
  releaseRange(tx: Tx, stepId: string, first: number, last: number): Promise<RunResult> {
    return tx.run(RELEASE_RANGE, [stepId, first, last]);
  },
  /** A chunk of a job's task-to-task edges (a JSON array of `[upStep, upTask, downStep, downTask, group]`). */
  insertEdges(tx: Tx, jobId: string, edges: string): Promise<RunResult> {
    return tx.run(INSERT_EDGES[tx.engine], [jobId, edges]);
  },
  /** A chunk of a job's any-of groups (a JSON array of `[group, downStep, downTask]`), none met yet. */
  insertGroups(tx: Tx, jobId: string, groups: string): Promise<RunResult> {
    return tx.run(INSERT_GROUPS[tx.engine], [jobId, groups]);
  },
  /** A step's counts, status and NOT_COMPATIBLE reason as it goes live. */
  setStepCounts(tx: Tx, stepId: string, counts: Readonly<StatusCounts>, status: TaskStatus, incompatibleReason: string | null): Promise<RunResult> {
    return tx.run(SET_STEP_COUNTS, [...countsInOrder(counts), status, incompatibleReason, stepId]);
  },
  /** A job's counts, status and task count as it goes live. */
  setJobCounts(tx: Tx, jobId: string, counts: Readonly<StatusCounts>, status: TaskStatus, taskCount: number): Promise<RunResult> {
    return tx.run(SET_JOB_COUNTS, [...countsInOrder(counts), status, taskCount, jobId]);
  },
  /** Marks the job as being created by the server process `instance`. */
  markCreating(tx: Tx, jobId: string, instance: string, now: number): Promise<RunResult> {
    return tx.run(MARK, [CREATING_MARKER + jobId, JSON.stringify({ instance }), now]);
  },
  /** The creation is still going (replicas tell a live one from an interrupted one by this time). */
  touchCreating(tx: Tx, jobId: string, now: number): Promise<RunResult> {
    return tx.run(TOUCH_MARK, [now, CREATING_MARKER + jobId]);
  },
  unmarkCreating(tx: Tx, jobId: string): Promise<RunResult> {
    return tx.run(UNMARK, [CREATING_MARKER + jobId]);
  },
  /** Every job being created, with the server process that marked it (undefined when the marker does not say) and when it last wrote a slice. */
  async creatingJobs(tx: ReadTx): Promise<Array<{ jobId: string; instance: string | undefined; touchedAt: number }>> {
    return (await tx.all<{ key: string; value: string; updated_at: number }>(MARKERS, [CREATING_MARKER])).map((marker) => ({
      jobId: marker.key.slice(CREATING_MARKER.length),
      instance: (JSON.parse(marker.value) as { instance?: string }).instance,
      touchedAt: marker.updated_at,
    }));
  },
  exists: async (tx: ReadTx, jobId: string): Promise<boolean> => (await tx.get(EXISTS, [jobId])) !== undefined,
  /** The job's priority, or undefined when there is no such job. */
  priorityOf: async (tx: ReadTx, jobId: string): Promise<number | undefined> => (await tx.get<RawPick<typeof jobs, "priority">>(PRIORITY, [jobId]))?.priority,
  setPriority(tx: Tx, jobId: string, value: number): Promise<RunResult> {
    return tx.run(SET_PRIORITY, [value, jobId]);
  },
  /** The wrangler's cancel of a whole job: none of it dispatches any more. */
  markCanceled(tx: Tx, jobId: string): Promise<RunResult> {
    return tx.run(CANCEL, [jobId]);
  },
  setSuspended(tx: Tx, jobId: string, suspended: boolean): Promise<RunResult> {
    return tx.run(SET_SUSPENDED, [suspended, jobId]);
  },
  /** After a requeue: not canceled, not ended, and its failed tasks counted again. */
  reopen(tx: Tx, jobId: string): Promise<RunResult> {
    return tx.run(REOPEN, [jobId, jobId]);
  },
};
