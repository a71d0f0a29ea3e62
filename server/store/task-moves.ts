/**
 * A wrangler's bulk moves of tasks (server/services/task-target.ts): checking what a target names,
 * and moving its tasks chunk by chunk. A target is a whole job, one step, or listed tasks of a job
 * or of one of its steps; a chunk is a range of task ids (job, step) or a slice of the listed ids.
 * Each shape has its own statements: the tasks of a chunk in one of the `from` statuses counted
 * by step and status, and the same tasks moved. The service decides which moves are allowed (the
 * state machine) and keeps the counts; here a move only writes. Each runs in the caller's unit
 * of work (its tx); the statements are named (prepared once per connection).
 */
import { TASK_STATUSES, type TaskStatus } from "../../lib/farm/statuses";
import type { tasks } from "../db/schema";
import type { Engine, RunResult, SqlValue, Statement } from "./engine/engine";
import { perEngine, statement, type ReadTx, type Tx } from "./repository";
import type { RawPick } from "./rows";

/**
 * What a move sets besides the status: nothing; `unassign` (no worker, no Session: suspend);
 * `requeue` (run again from the start, anywhere, at once: the retry budgets, the retry delay and
 * the failed-here preference reset too); `end` (ended at the given time: cancel).
 */
export type AlsoSet = "nothing" | "unassign" | "requeue" | "end";

const ALSO_SQL: Record<AlsoSet, string> = {
  nothing: "",
  unassign: ", worker_id = NULL, session_id = NULL",
  requeue:
    ", worker_id = NULL, session_id = NULL, failure_count = 0, interruption_count = 0, progress = NULL, status_message = NULL, started_at = NULL, ended_at = NULL, retry_at = NULL, last_failed_worker_id = NULL",
  end: ", ended_at = ?",
};

/** The tasks of a target a chunk holds, as SQL over `tasks` (parameters in the order the methods below bind them). */
const SCOPE_SQL = perEngine((d) => ({
  jobRange: "job_id = ? AND id BETWEEN ? AND ?",
  stepRange: "job_id = ? AND step_id = ? AND id BETWEEN ? AND ?",
  jobListed: `job_id = ? AND id IN ${d.jsonValues("?", "bigint")}`,
  stepListed: `job_id = ? AND step_id = ? AND id IN ${d.jsonValues("?", "bigint")}`,
}));
type Scope = keyof (typeof SCOPE_SQL)["sqlite"];

/** A chunk's tasks to move, counted by step and status. */
export type MovedGroup = RawPick<typeof tasks, "step_id" | "status"> & { n: number };
/** A chunk's SUCCEEDED task, as its release names it (task-releases.ts). */
export type SucceededTask = RawPick<typeof tasks, "step_id" | "task_index">;

/**
 * One move (`from` statuses to `to`, with what else it sets) over the chunks of one target, each
 * chunk in the unit of work its tx belongs to. Each count method returns the chunk's tasks that
 * would move; each move method moves them and returns how many changed.
 */
export interface TaskMove {
  countInJob(tx: ReadTx, jobId: string, low: number, high: number): Promise<MovedGroup[]>;
  moveInJob(tx: Tx, jobId: string, low: number, high: number): Promise<number>;
  countInStep(tx: ReadTx, jobId: string, stepId: string, low: number, high: number): Promise<MovedGroup[]>;
  moveInStep(tx: Tx, jobId: string, stepId: string, low: number, high: number): Promise<number>;
  countListedInJob(tx: ReadTx, jobId: string, taskIds: readonly number[]): Promise<MovedGroup[]>;
  moveListedInJob(tx: Tx, jobId: string, taskIds: readonly number[]): Promise<number>;
  countListedInStep(tx: ReadTx, jobId: string, stepId: string, taskIds: readonly number[]): Promise<MovedGroup[]>;
  moveListedInStep(tx: Tx, jobId: string, stepId: string, taskIds: readonly number[]): Promise<number>;
  /** The chunk's SUCCEEDED tasks (a requeue takes back what they released first). */
  succeededInJob(tx: ReadTx, jobId: string, low: number, high: number): Promise<SucceededTask[]>;
  succeededInStep(tx: ReadTx, jobId: string, stepId: string, low: number, high: number): Promise<SucceededTask[]>;
  succeededListedInJob(tx: ReadTx, jobId: string, taskIds: readonly number[]): Promise<SucceededTask[]>;
  succeededListedInStep(tx: ReadTx, jobId: string, stepId: string, taskIds: readonly number[]): Promise<SucceededTask[]>;
}

interface ScopeStatements {
  count: Statement<MovedGroup>;
  move: Statement<unknown>;
}

const JOB_EXISTS = statement<{ one: number }>("task-moves.jobExists", "SELECT 1 AS one FROM jobs WHERE id = ?");
const STEP_IDS = statement<{ id: string }>("task-moves.stepIdsOf", "SELECT id FROM steps WHERE job_id = ?");
const COUNT_LISTED_IN_JOB = perEngine((d) => statement<{ n: number }>(`task-moves.countListedInJob@${d.engine}`, `SELECT COUNT(*) AS n FROM tasks WHERE ${SCOPE_SQL[d.engine].jobListed}`));
const COUNT_LISTED_IN_STEP = perEngine((d) => statement<{ n: number }>(`task-moves.countListedInStep@${d.engine}`, `SELECT COUNT(*) AS n FROM tasks WHERE ${SCOPE_SQL[d.engine].stepListed}`));
const SUCCEEDED = perEngine(
  (d) =>
    Object.fromEntries(
      (Object.keys(SCOPE_SQL[d.engine]) as Scope[]).map((scope) => [
        scope,
        statement<SucceededTask>(`task-moves.succeeded.${scope}@${d.engine}`, `SELECT step_id, task_index FROM tasks WHERE ${SCOPE_SQL[d.engine][scope]} AND status = 'SUCCEEDED'`),
      ]),
    ) as Record<Scope, Statement<SucceededTask>>,
);
const LOWEST_ID = statement<{ id: number | null }>("task-moves.lowestId", "SELECT MIN(id) AS id FROM tasks WHERE job_id = ? AND status = ?");
const HIGHEST_ID = statement<{ id: number | null }>("task-moves.highestId", "SELECT MAX(id) AS id FROM tasks WHERE job_id = ? AND status = ?");

/** By scope, number of `from` statuses and what else is set: the statuses themselves are bound. */
const moves = new Map<string, ScopeStatements>();

/** The statements of one shape, named and built the first time it is used. */
function statements(engine: Engine, scope: Scope, fromCount: number, also: AlsoSet): ScopeStatements {
  const key = `${scope}:${fromCount}:${also}@${engine}`;
  let found = moves.get(key);
  if (!found) {
    const where = `${SCOPE_SQL[engine][scope]} AND status IN (${Array(fromCount).fill("?").join(", ")})`;
    found = {
      count: statement<MovedGroup>(`task-moves.count.${key}`, `SELECT step_id, status, COUNT(*) AS n FROM tasks WHERE ${where} GROUP BY step_id, status`),
      move: statement(`task-moves.move.${key}`, `UPDATE tasks SET status = ?${ALSO_SQL[also]} WHERE ${where}`),
    };
    moves.set(key, found);
  }
  return found;
}

export const taskMovesRepository = {
  jobExists: async (tx: ReadTx, jobId: string): Promise<boolean> => (await tx.get(JOB_EXISTS, [jobId])) !== undefined,
  stepIdsOf: async (tx: ReadTx, jobId: string): Promise<string[]> => (await tx.all(STEP_IDS, [jobId])).map((row) => row.id),
  /** How many of the listed tasks are the job's (or its step's, given one). */
  countListed: async (tx: ReadTx, jobId: string, stepId: string | undefined, taskIds: readonly number[]): Promise<number> =>
    (stepId === undefined ? await tx.get(COUNT_LISTED_IN_JOB[tx.engine], [jobId, JSON.stringify(taskIds)]) : await tx.get(COUNT_LISTED_IN_STEP[tx.engine], [jobId, stepId, JSON.stringify(taskIds)]))
      ?.n ?? 0,
  /**
   * The lowest and highest task id of a job. One index seek per status (the job/status index
   * ends in the rowid), where MIN(id) over the job alone would read every one of its index entries.
   */
  async taskIdBounds(tx: ReadTx, jobId: string): Promise<{ low: number; high: number } | null> {
    let low = Infinity;
    let high = -Infinity;
    for (const status of TASK_STATUSES) {
      low = Math.min(low, (await tx.get(LOWEST_ID, [jobId, status]))?.id ?? Infinity);
      high = Math.max(high, (await tx.get(HIGHEST_ID, [jobId, status]))?.id ?? -Infinity);
    }
    return low === Infinity ? null : { low, high };
  },
  /**
   * The statements of one move (it runs none itself: its chunks run them, each in the tx it is
   * given, so one move may span the units of a chunked walk); `endedAt` is what `also: "end"` sets.
   */
  move(from: readonly TaskStatus[], to: TaskStatus, also: AlsoSet, endedAt?: number): TaskMove {
    if (also === "end" && endedAt === undefined) throw new Error("a move that ends tasks needs the time they end");
    // Bound ahead of the WHERE clause's parameters: the new status, then what `also` sets.
    const set: SqlValue[] = also === "end" ? [to, endedAt!] : [to];
    // Named the first time a shape is used, kept for the process's lifetime.
    const scoped = (tx: ReadTx, scope: Scope) => statements(tx.engine, scope, from.length, also);
    const changes = async (running: Promise<RunResult>) => (await running).changes;
    return {
      countInJob: (tx, jobId, low, high) => tx.all(scoped(tx, "jobRange").count, [jobId, low, high, ...from]),
      moveInJob: (tx, jobId, low, high) => changes(tx.run(scoped(tx, "jobRange").move, [...set, jobId, low, high, ...from])),
      countInStep: (tx, jobId, stepId, low, high) => tx.all(scoped(tx, "stepRange").count, [jobId, stepId, low, high, ...from]),
      moveInStep: (tx, jobId, stepId, low, high) => changes(tx.run(scoped(tx, "stepRange").move, [...set, jobId, stepId, low, high, ...from])),
      countListedInJob: (tx, jobId, taskIds) => tx.all(scoped(tx, "jobListed").count, [jobId, JSON.stringify(taskIds), ...from]),
      moveListedInJob: (tx, jobId, taskIds) => changes(tx.run(scoped(tx, "jobListed").move, [...set, jobId, JSON.stringify(taskIds), ...from])),
      countListedInStep: (tx, jobId, stepId, taskIds) => tx.all(scoped(tx, "stepListed").count, [jobId, stepId, JSON.stringify(taskIds), ...from]),
      moveListedInStep: (tx, jobId, stepId, taskIds) => changes(tx.run(scoped(tx, "stepListed").move, [...set, jobId, stepId, JSON.stringify(taskIds), ...from])),
      succeededInJob: (tx, jobId, low, high) => tx.all(SUCCEEDED[tx.engine].jobRange, [jobId, low, high]),
      succeededInStep: (tx, jobId, stepId, low, high) => tx.all(SUCCEEDED[tx.engine].stepRange, [jobId, stepId, low, high]),
      succeededListedInJob: (tx, jobId, taskIds) => tx.all(SUCCEEDED[tx.engine].jobListed, [jobId, JSON.stringify(taskIds)]),
      succeededListedInStep: (tx, jobId, stepId, taskIds) => tx.all(SUCCEEDED[tx.engine].stepListed, [jobId, stepId, JSON.stringify(taskIds)]),
    };
  },
};
