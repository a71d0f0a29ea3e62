/**
 * Steps and jobs as their tasks move: per-status counts, roll-up status, start and end times,
 * successful runtimes and the failed-task budget. server/scheduler/task-state.ts and
 * apply-updates.ts decide the values; this module writes and reads them, inside the caller's unit
 * of work (its tx). On the sync path: named statements, prepared once per connection.
 */
import { TASK_STATUSES, type StatusCounts, type TaskStatus } from "../../lib/farm/statuses";
import type { jobs, steps } from "../db/schema";
import { countColumn, countColumnsSql, type CountColumnsRow } from "../db/status-counts";
import type { SqlValue, RunResult } from "./engine/engine";
import { perEngine, statement, type ReadTx, type Tx } from "./repository";
import type { RawPick } from "./rows";

/** A step's counts and its roll-up status as they are after a change. */
export type StepCountsRow = CountColumnsRow & RawPick<typeof steps, "status">;
/** A job's step, for its dependents' release and the job's roll-up. */
export type JobStepRow = CountColumnsRow & RawPick<typeof steps, "id" | "dependencies" | "resolved_dependencies" | "name" | "task_count">;
export type JobTimesRow = RawPick<typeof jobs, "status" | "started_at" | "ended_at">;
/** What a job allows of failures. */
export type FailurePolicyRow = RawPick<typeof jobs, "max_retries_per_task" | "max_failed_tasks" | "failed_task_count" | "retry_delay_seconds" | "max_worker_failures">;

/** Counts set, in TASK_STATUSES order. */
const COUNTS_SET = TASK_STATUSES.map((status) => `${countColumn(status)} = ?`).join(", ");

/** Counts in TASK_STATUSES order, then `rest`, as statement parameters (one array, built once). */
function countParams(counts: Readonly<StatusCounts>, ...rest: SqlValue[]): SqlValue[] {
  const params: SqlValue[] = TASK_STATUSES.map((status) => counts[status]);
  for (const value of rest) params.push(value);
  return params;
}

// Count changes are arithmetic on the row (never read, changed and written back); the counts
// it returns give the step's roll-up, written only when it changed.
const ADD_STEP_COUNTS = perEngine((d) =>
  statement<StepCountsRow>(
    `job-progress.addStepCounts@${d.engine}`,
    `UPDATE steps SET ${TASK_STATUSES.map((status) => `${countColumn(status)} = ${d.greatest("0", `${countColumn(status)} + ?`)}`).join(", ")} WHERE id = ? RETURNING status, ${countColumnsSql()}`,
  ),
);
const SET_STEP_STATUS = statement("job-progress.setStepStatus", "UPDATE steps SET status = ? WHERE id = ?");
const SET_STEP_COUNTS = statement("job-progress.setStepCounts", `UPDATE steps SET ${COUNTS_SET}, status = ? WHERE id = ?`);
const ADD_RUNTIME = statement("job-progress.addRuntime", "UPDATE steps SET runtime_total_ms = runtime_total_ms + ?, runtime_count = runtime_count + ? WHERE id = ?");
const JOB_STEPS = statement<JobStepRow>(
  "job-progress.jobSteps",
  `SELECT id, ${countColumnsSql()}, dependencies, resolved_dependencies, name, task_count FROM steps WHERE job_id = ? ORDER BY step_index`,
);
const STEP_IDS = statement<{ id: string }>("job-progress.stepIds", "SELECT id FROM steps WHERE job_id = ?");
const JOB_TIMES = statement<JobTimesRow>("job-progress.jobTimes", "SELECT status, started_at, ended_at FROM jobs WHERE id = ?");
const SET_JOB = statement("job-progress.setJob", `UPDATE jobs SET ${COUNTS_SET}, status = ?, started_at = ?, ended_at = ? WHERE id = ?`);
// Without status: an UPDATE that names an indexed column rewrites its index entry (the
// dispatch index) even when the value is unchanged, one more page per sync transaction.
const SET_JOB_COUNTS = statement("job-progress.setJobCounts", `UPDATE jobs SET ${COUNTS_SET}, started_at = ?, ended_at = ? WHERE id = ?`);
const FAILURE_POLICY = statement<FailurePolicyRow>(
  "job-progress.failurePolicy",
  "SELECT max_retries_per_task, max_failed_tasks, failed_task_count, retry_delay_seconds, max_worker_failures FROM jobs WHERE id = ?",
);
const COUNT_FAILED_TASK = statement("job-progress.countFailedTask", "UPDATE jobs SET failed_task_count = failed_task_count + 1 WHERE id = ?");

export const jobProgressRepository = {
  /** Adds `by` to the step's counts (none below 0); returns its counts and status after. */
  addStepCounts: (tx: Tx, stepId: string, by: Readonly<StatusCounts>): Promise<StepCountsRow | undefined> => tx.get(ADD_STEP_COUNTS[tx.engine], countParams(by, stepId)),
  setStepStatus(tx: Tx, stepId: string, status: TaskStatus): Promise<RunResult> {
    return tx.run(SET_STEP_STATUS, [status, stepId]);
  },
  setStepCounts(tx: Tx, stepId: string, counts: Readonly<StatusCounts>, status: TaskStatus): Promise<RunResult> {
    return tx.run(SET_STEP_COUNTS, countParams(counts, status, stepId));
  },
  addRuntime(tx: Tx, stepId: string, totalMs: number, count: number): Promise<RunResult> {
    return tx.run(ADD_RUNTIME, [totalMs, count, stepId]);
  },
  /** The job's steps in order. */
  jobSteps: (tx: ReadTx, jobId: string): Promise<JobStepRow[]> => tx.all(JOB_STEPS, [jobId]),
  stepIds: (tx: ReadTx, jobId: string): Promise<Array<{ id: string }>> => tx.all(STEP_IDS, [jobId]),
  jobTimes: (tx: ReadTx, jobId: string): Promise<JobTimesRow | undefined> => tx.get(JOB_TIMES, [jobId]),
  /** Sets the job's counts, times and status. */
  setJob(tx: Tx, jobId: string, counts: Readonly<StatusCounts>, status: TaskStatus, startedAt: number | null, endedAt: number | null): Promise<RunResult> {
    return tx.run(SET_JOB, countParams(counts, status, startedAt, endedAt, jobId));
  },
  /** Sets the job's counts and times, its status unchanged. */
  setJobCounts(tx: Tx, jobId: string, counts: Readonly<StatusCounts>, startedAt: number | null, endedAt: number | null): Promise<RunResult> {
    return tx.run(SET_JOB_COUNTS, countParams(counts, startedAt, endedAt, jobId));
  },
  failurePolicy: (tx: ReadTx, jobId: string): Promise<FailurePolicyRow | undefined> => tx.get(FAILURE_POLICY, [jobId]),
  /** One more of the job's tasks used up its retries. */
  countFailedTask(tx: Tx, jobId: string): Promise<RunResult> {
    return tx.run(COUNT_FAILED_TASK, [jobId]);
  },
};
