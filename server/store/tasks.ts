/**
 * Task rows as the scheduler changes them (server/scheduler/task-state.ts decides and checks
 * every move against the state machine; this module only writes it). Run inside the caller's
 * unit of work (its tx). The sync path changes tasks thousands of times a second: the statements
 * are named (prepared once per connection), and a single task's change is one of a handful of
 * `UPDATE tasks SET …` shapes, each named the first time it is needed.
 */
import { movableTo } from "../../lib/farm/task-transitions";
import type { TaskStatus } from "../../lib/farm/statuses";
import type { tasks } from "../db/schema";
import type { SqlValue, Statement, RunResult } from "./engine/engine";
import { perEngine, statement, type ReadTx, type Tx } from "./repository";
import type { RawPick } from "./rows";

/** A task as the scheduler reads it to change it. */
export type TaskRow = RawPick<typeof tasks, "id" | "job_id" | "step_id" | "task_index" | "parameters" | "status" | "failure_count" | "interruption_count" | "session_id" | "worker_id">;

/** The columns a task's status change may set with it. */
export interface TaskPatch {
  workerId?: string | null;
  sessionId?: string | null;
  startedAt?: number | null;
  endedAt?: number | null;
  failureCount?: number;
  interruptionCount?: number;
  progress?: number | null;
  statusMessage?: string | null;
  retryAt?: number | null;
  lastFailedWorkerId?: string | null;
}

/** The whitelist a patch's SET clause is built from: no other text reaches the statement. */
const PATCH_COLUMNS: Readonly<Record<keyof TaskPatch, string>> = {
  workerId: "worker_id",
  sessionId: "session_id",
  startedAt: "started_at",
  endedAt: "ended_at",
  failureCount: "failure_count",
  interruptionCount: "interruption_count",
  progress: "progress",
  statusMessage: "status_message",
  retryAt: "retry_at",
  lastFailedWorkerId: "last_failed_worker_id",
};

/** What waits when its job fails (more failed tasks than it allows) is canceled: the state machine's job-failed moves. */
const WAITING_WHEN_JOB_FAILS = movableTo("CANCELED", "job-failed")
  .map((status) => `'${status}'`)
  .join(", ");

const BY_ID = statement<TaskRow>("tasks.byId", "SELECT id, job_id, step_id, task_index, parameters, status, failure_count, interruption_count, session_id, worker_id FROM tasks WHERE id = ?");
// Only tasks that wait on no other task (TASK_DEPENDENCIES): the partial index tasks_releasable holds exactly those.
const RELEASE = statement("tasks.releasePending", "UPDATE tasks SET status = 'READY' WHERE step_id = ? AND status = 'PENDING' AND waiting = 0");
const ASSIGN = perEngine((d) =>
  statement(
    `tasks.assign@${d.engine}`,
    `UPDATE tasks SET status = 'ASSIGNED', session_id = ?, worker_id = ?, progress = NULL, status_message = NULL WHERE id IN ${d.jsonValues("?", "bigint")} AND status = 'READY'`,
  ),
);
const CANCEL_WAITING = statement("tasks.cancelWaiting", `UPDATE tasks SET status = 'CANCELED', ended_at = ? WHERE job_id = ? AND status IN (${WAITING_WHEN_JOB_FAILS})`);
const COUNT_BY_STATUS = statement<{ status: TaskStatus; n: number }>("tasks.countByStatus", "SELECT status, COUNT(*) AS n FROM tasks WHERE step_id = ? GROUP BY status");

/** `UPDATE tasks SET <sets>` statements by their SET clause (a handful of shapes, each named and built once). */
const updates = new Map<string, Statement<unknown>>();
function update(sets: string): Statement<unknown> {
  let made = updates.get(sets);
  if (!made) updates.set(sets, (made = statement(`tasks.setStatus.${updates.size}`, `UPDATE tasks SET ${sets} WHERE id = ?`)));
  return made;
}

export const tasksRepository = {
  byId: (tx: ReadTx, id: number): Promise<TaskRow | undefined> => tx.get(BY_ID, [id]),

  /** Sets one task's status and the patch's columns (those not undefined). */
  async setStatus(tx: Tx, id: number, status: TaskStatus, patch: TaskPatch): Promise<void> {
    const sets = ["status = ?"];
    const values: SqlValue[] = [status];
    for (const [key, value] of Object.entries(patch) as Array<[keyof TaskPatch, string | number | null | undefined]>) {
      if (value === undefined) continue;
      const column = PATCH_COLUMNS[key];
      if (column === undefined) throw new Error(`a task patch cannot set "${key}"`);
      sets.push(`${column} = ?`);
      values.push(value);
    }
    values.push(id);
    await tx.run(update(sets.join(", ")), values);
  },

  /** Binds these tasks to a Session, those still READY (one UPDATE); returns how many it bound. */
  assign: async (tx: Tx, taskIds: readonly number[], sessionId: string, workerId: string): Promise<number> => (await tx.run(ASSIGN[tx.engine], [sessionId, workerId, JSON.stringify(taskIds)])).changes,

  /** Makes the step's PENDING tasks that wait on no task READY; returns how many moved. */
  releasePending: async (tx: Tx, stepId: string): Promise<number> => (await tx.run(RELEASE, [stepId])).changes,

  /** Cancels what of the job waits (its job failed); the caller recounts its steps. */
  cancelWaiting(tx: Tx, jobId: string, now: number): Promise<RunResult> {
    return tx.run(CANCEL_WAITING, [now, jobId]);
  },

  /** The step's tasks per status (the statuses it has tasks in). */
  countByStatus: (tx: ReadTx, stepId: string): Promise<Array<{ status: TaskStatus; n: number }>> => tx.all(COUNT_BY_STATUS, [stepId]),
};
