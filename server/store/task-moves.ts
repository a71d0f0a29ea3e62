/**
 * A wrangler's bulk moves of tasks (server/services/task-target.ts): checking what a target names,
 * and moving its tasks chunk by chunk. A target is a whole job, one step, or listed tasks of a job
 * or of one of its steps; a chunk is a range of task ids (job, step) or a slice of the listed ids.
 * Each shape has its own statements: the tasks of a chunk in one of the `from` statuses counted
 * by step and status, and the same tasks moved. The service decides which moves are allowed (the
 * state machine) and keeps the counts; here a move only writes.
 */
import type Database from "better-sqlite3";
import { TASK_STATUSES, type TaskStatus } from "../../lib/farm/statuses";
import type { tasks } from "../db/schema";
import { repository } from "./repository";
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
const SCOPE_SQL = {
  jobRange: "job_id = ? AND id BETWEEN ? AND ?",
  stepRange: "job_id = ? AND step_id = ? AND id BETWEEN ? AND ?",
  jobListed: "job_id = ? AND id IN (SELECT value FROM json_each(?))",
  stepListed: "job_id = ? AND step_id = ? AND id IN (SELECT value FROM json_each(?))",
} as const;
type Scope = keyof typeof SCOPE_SQL;

/** A chunk's tasks to move, counted by step and status. */
export type MovedGroup = RawPick<typeof tasks, "step_id" | "status"> & { n: number };

/**
 * One move (`from` statuses to `to`, with what else it sets) over the chunks of one target. Each
 * count method returns the chunk's tasks that would move; each move method moves them and
 * returns how many changed.
 */
export interface TaskMove {
  countInJob(jobId: string, low: number, high: number): MovedGroup[];
  moveInJob(jobId: string, low: number, high: number): number;
  countInStep(jobId: string, stepId: string, low: number, high: number): MovedGroup[];
  moveInStep(jobId: string, stepId: string, low: number, high: number): number;
  countListedInJob(jobId: string, taskIds: readonly number[]): MovedGroup[];
  moveListedInJob(jobId: string, taskIds: readonly number[]): number;
  countListedInStep(jobId: string, stepId: string, taskIds: readonly number[]): MovedGroup[];
  moveListedInStep(jobId: string, stepId: string, taskIds: readonly number[]): number;
}

interface ScopeStatements {
  count: Database.Statement<unknown[], MovedGroup>;
  move: Database.Statement<unknown[]>;
}

export const taskMovesRepository = repository((sqlite) => {
  const jobExists = sqlite.prepare<[string]>("SELECT 1 FROM jobs WHERE id = ?");
  const stepIds = sqlite.prepare<[string], string>("SELECT id FROM steps WHERE job_id = ?").pluck();
  const countListedInJob = sqlite.prepare<[string, string], { n: number }>("SELECT COUNT(*) AS n FROM tasks WHERE job_id = ? AND id IN (SELECT value FROM json_each(?))");
  const countListedInStep = sqlite.prepare<[string, string, string], { n: number }>("SELECT COUNT(*) AS n FROM tasks WHERE job_id = ? AND step_id = ? AND id IN (SELECT value FROM json_each(?))");
  const lowestId = sqlite.prepare<[string, TaskStatus], { id: number | null }>("SELECT MIN(id) AS id FROM tasks WHERE job_id = ? AND status = ?");
  const highestId = sqlite.prepare<[string, TaskStatus], { id: number | null }>("SELECT MAX(id) AS id FROM tasks WHERE job_id = ? AND status = ?");
  /** By scope, number of `from` statuses and what else is set: the statuses themselves are bound. */
  const moves = new Map<string, ScopeStatements>();

  function statements(scope: Scope, fromCount: number, also: AlsoSet): ScopeStatements {
    const key = `${scope}:${fromCount}:${also}`;
    let found = moves.get(key);
    if (!found) {
      const where = `${SCOPE_SQL[scope]} AND status IN (${Array(fromCount).fill("?").join(", ")})`;
      found = {
        count: sqlite.prepare<unknown[], MovedGroup>(`SELECT step_id, status, COUNT(*) AS n FROM tasks WHERE ${where} GROUP BY step_id, status`),
        move: sqlite.prepare<unknown[]>(`UPDATE tasks SET status = ?${ALSO_SQL[also]} WHERE ${where}`),
      };
      moves.set(key, found);
    }
    return found;
  }

  return {
    jobExists: (jobId: string): boolean => jobExists.get(jobId) !== undefined,
    stepIdsOf: (jobId: string): string[] => stepIds.all(jobId),
    /** How many of the listed tasks are the job's (or its step's, given one). */
    countListed: (jobId: string, stepId: string | undefined, taskIds: readonly number[]): number =>
      (stepId === undefined ? countListedInJob.get(jobId, JSON.stringify(taskIds)) : countListedInStep.get(jobId, stepId, JSON.stringify(taskIds)))?.n ?? 0,
    /**
     * The lowest and highest task id of a job. One index seek per status (the job/status index
     * ends in the rowid), where MIN(id) over the job alone would read every one of its index entries.
     */
    taskIdBounds(jobId: string): { low: number; high: number } | null {
      let low = Infinity;
      let high = -Infinity;
      for (const status of TASK_STATUSES) {
        low = Math.min(low, lowestId.get(jobId, status)?.id ?? Infinity);
        high = Math.max(high, highestId.get(jobId, status)?.id ?? -Infinity);
      }
      return low === Infinity ? null : { low, high };
    },
    /** The statements of one move; `endedAt` is what `also: "end"` sets. */
    move(from: readonly TaskStatus[], to: TaskStatus, also: AlsoSet, endedAt?: number): TaskMove {
      if (also === "end" && endedAt === undefined) throw new Error("a move that ends tasks needs the time they end");
      // Bound ahead of the WHERE clause's parameters: the new status, then what `also` sets.
      const set: unknown[] = also === "end" ? [to, endedAt] : [to];
      // Prepared the first time a scope is used, kept for the connection's lifetime.
      const scoped = (scope: Scope) => statements(scope, from.length, also);
      return {
        countInJob: (jobId, low, high) => scoped("jobRange").count.all(jobId, low, high, ...from),
        moveInJob: (jobId, low, high) => scoped("jobRange").move.run(...set, jobId, low, high, ...from).changes,
        countInStep: (jobId, stepId, low, high) => scoped("stepRange").count.all(jobId, stepId, low, high, ...from),
        moveInStep: (jobId, stepId, low, high) => scoped("stepRange").move.run(...set, jobId, stepId, low, high, ...from).changes,
        countListedInJob: (jobId, taskIds) => scoped("jobListed").count.all(jobId, JSON.stringify(taskIds), ...from),
        moveListedInJob: (jobId, taskIds) => scoped("jobListed").move.run(...set, jobId, JSON.stringify(taskIds), ...from).changes,
        countListedInStep: (jobId, stepId, taskIds) => scoped("stepListed").count.all(jobId, stepId, JSON.stringify(taskIds), ...from),
        moveListedInStep: (jobId, stepId, taskIds) => scoped("stepListed").move.run(...set, jobId, stepId, JSON.stringify(taskIds), ...from).changes,
      };
    },
  };
});
