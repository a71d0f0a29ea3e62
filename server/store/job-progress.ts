/**
 * Steps and jobs as their tasks move: per-status counts, roll-up status, start and end times,
 * successful runtimes and the failed-task budget. server/scheduler/task-state.ts and
 * apply-updates.ts decide the values; this module writes and reads them, inside the caller's unit
 * of work. On the sync path: statements are prepared once per connection.
 */
import { TASK_STATUSES, type StatusCounts, type TaskStatus } from "../../lib/farm/statuses";
import type { jobs, steps } from "../db/schema";
import { countColumn, countColumnsSql, type CountColumnsRow } from "../db/status-counts";
import { repository } from "./repository";
import type { RawPick } from "./rows";

/** A step's counts and its roll-up status as they are after a change. */
export type StepCountsRow = CountColumnsRow & RawPick<typeof steps, "status">;
/** A job's step, for its dependents' release and the job's roll-up. */
export type JobStepRow = CountColumnsRow & RawPick<typeof steps, "id" | "dependencies" | "name" | "task_count">;
export type JobTimesRow = RawPick<typeof jobs, "status" | "started_at" | "ended_at">;
/** What a job allows of failures. */
export type FailurePolicyRow = RawPick<typeof jobs, "max_retries_per_task" | "max_failed_tasks" | "failed_task_count" | "retry_delay_seconds" | "max_worker_failures">;

/** Counts set, in TASK_STATUSES order. */
const COUNTS_SET = TASK_STATUSES.map((status) => `${countColumn(status)} = ?`).join(", ");

/** Counts in TASK_STATUSES order, as statement parameters. */
function countParams(counts: Readonly<StatusCounts>): number[] {
  return TASK_STATUSES.map((status) => counts[status]);
}

export const jobProgressRepository = repository((sqlite) => {
  // Count changes are arithmetic on the row (never read, changed and written back); the counts
  // it returns give the step's roll-up, written only when it changed.
  const addStepCounts = sqlite.prepare<[...number[], string], StepCountsRow>(
    `UPDATE steps SET ${TASK_STATUSES.map((status) => `${countColumn(status)} = MAX(0, ${countColumn(status)} + ?)`).join(", ")} WHERE id = ? RETURNING status, ${countColumnsSql()}`,
  );
  const setStepStatus = sqlite.prepare<[TaskStatus, string]>("UPDATE steps SET status = ? WHERE id = ?");
  const setStepCounts = sqlite.prepare<[...number[], TaskStatus, string]>(`UPDATE steps SET ${COUNTS_SET}, status = ? WHERE id = ?`);
  const addRuntime = sqlite.prepare<[number, number, string]>("UPDATE steps SET runtime_total_ms = runtime_total_ms + ?, runtime_count = runtime_count + ? WHERE id = ?");
  const jobSteps = sqlite.prepare<[string], JobStepRow>(`SELECT id, ${countColumnsSql()}, dependencies, name, task_count FROM steps WHERE job_id = ? ORDER BY step_index`);
  const stepIds = sqlite.prepare<[string], { id: string }>("SELECT id FROM steps WHERE job_id = ?");
  const jobTimes = sqlite.prepare<[string], JobTimesRow>("SELECT status, started_at, ended_at FROM jobs WHERE id = ?");
  const setJob = sqlite.prepare<[...number[], TaskStatus, number | null, number | null, string]>(`UPDATE jobs SET ${COUNTS_SET}, status = ?, started_at = ?, ended_at = ? WHERE id = ?`);
  // Without status: an UPDATE that names an indexed column rewrites its index entry (the
  // dispatch index) even when the value is unchanged, one more page per sync transaction.
  const setJobCounts = sqlite.prepare<[...number[], number | null, number | null, string]>(`UPDATE jobs SET ${COUNTS_SET}, started_at = ?, ended_at = ? WHERE id = ?`);
  const failurePolicy = sqlite.prepare<[string], FailurePolicyRow>("SELECT max_retries_per_task, max_failed_tasks, failed_task_count, retry_delay_seconds, max_worker_failures FROM jobs WHERE id = ?");
  const countFailedTask = sqlite.prepare<[string]>("UPDATE jobs SET failed_task_count = failed_task_count + 1 WHERE id = ?");

  return {
    /** Adds `by` to the step's counts (none below 0); returns its counts and status after. */
    addStepCounts: (stepId: string, by: Readonly<StatusCounts>): StepCountsRow | undefined => addStepCounts.get(...countParams(by), stepId),
    setStepStatus(stepId: string, status: TaskStatus): void {
      setStepStatus.run(status, stepId);
    },
    setStepCounts(stepId: string, counts: Readonly<StatusCounts>, status: TaskStatus): void {
      setStepCounts.run(...countParams(counts), status, stepId);
    },
    addRuntime(stepId: string, totalMs: number, count: number): void {
      addRuntime.run(totalMs, count, stepId);
    },
    /** The job's steps in order. */
    jobSteps: (jobId: string): JobStepRow[] => jobSteps.all(jobId),
    stepIds: (jobId: string): Array<{ id: string }> => stepIds.all(jobId),
    jobTimes: (jobId: string): JobTimesRow | undefined => jobTimes.get(jobId),
    /** Sets the job's counts, times and status. */
    setJob(jobId: string, counts: Readonly<StatusCounts>, status: TaskStatus, startedAt: number | null, endedAt: number | null): void {
      setJob.run(...countParams(counts), status, startedAt, endedAt, jobId);
    },
    /** Sets the job's counts and times, its status unchanged. */
    setJobCounts(jobId: string, counts: Readonly<StatusCounts>, startedAt: number | null, endedAt: number | null): void {
      setJobCounts.run(...countParams(counts), startedAt, endedAt, jobId);
    },
    failurePolicy: (jobId: string): FailurePolicyRow | undefined => failurePolicy.get(jobId),
    /** One more of the job's tasks used up its retries. */
    countFailedTask(jobId: string): void {
      countFailedTask.run(jobId);
    },
  };
});
