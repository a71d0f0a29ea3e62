/**
 * Writing jobs (server/services/persist-job.ts and the wrangler actions): a job's number, its row
 * and steps, its tasks as set-based inserts (one INSERT … SELECT FROM json_each per chunk of
 * parameter sets, so SQLite unpacks them), the counts that make a job being created live, the
 * `job-creating:<id>` markers in server_state, and the job row's switches (canceled, suspended,
 * priority, reopened by a requeue).
 */
import { drizzle } from "drizzle-orm/better-sqlite3";
import { TASK_STATUSES, type StatusCounts, type TaskStatus } from "../../lib/farm/statuses";
import { jobs, steps, type jobNumbers } from "../db/schema";
import { countColumn } from "../db/status-counts";
import { repository } from "./repository";
import type { RawPick } from "./rows";

export type NewJob = typeof jobs.$inferInsert;
export type NewStep = typeof steps.$inferInsert;

/** The server_state key prefix of a job being created (job-deletion.ts's retention skips those). */
export const CREATING_MARKER = "job-creating:";

/** Every count column set, in TASK_STATUSES order: a job going live gets its first counts. */
const SET_COUNTS = TASK_STATUSES.map((status) => `${countColumn(status)} = ?`).join(", ");

const countsInOrder = (counts: Readonly<StatusCounts>) => TASK_STATUSES.map((status) => counts[status]);

export const jobWritesRepository = repository((sqlite) => {
  // The query builder, for the rows with JSON and boolean columns; the same connection.
  const db = drizzle(sqlite);
  const takeJobNumber = sqlite.prepare<[], RawPick<typeof jobNumbers, "number">>("INSERT INTO job_numbers DEFAULT VALUES RETURNING number");
  const dropJobNumbersBelow = sqlite.prepare<[number]>("DELETE FROM job_numbers WHERE number < ?");
  const insertTasks = sqlite.prepare<[string, string, number, TaskStatus, string]>(
    "INSERT INTO tasks (job_id, step_id, task_index, parameters, status) SELECT ?, ?, ? + key, value, ? FROM json_each(?)",
  );
  const setStepCounts = sqlite.prepare<unknown[]>(`UPDATE steps SET ${SET_COUNTS}, status = ?, incompatible_reason = ? WHERE id = ?`);
  const setJobCounts = sqlite.prepare<unknown[]>(`UPDATE jobs SET ${SET_COUNTS}, status = ?, task_count = ? WHERE id = ?`);
  const mark = sqlite.prepare<[string, string, number]>("INSERT INTO server_state (key, value, updated_at) VALUES (?, ?, ?)");
  const unmark = sqlite.prepare<[string]>("DELETE FROM server_state WHERE key = ?");
  const markers = sqlite.prepare<[string], { key: string; value: string }>("SELECT key, value FROM server_state WHERE key LIKE ? || '%'");
  const exists = sqlite.prepare<[string]>("SELECT 1 FROM jobs WHERE id = ?");
  const priority = sqlite.prepare<[string], RawPick<typeof jobs, "priority">>("SELECT priority FROM jobs WHERE id = ?");
  const setPriority = sqlite.prepare<[number, string]>("UPDATE jobs SET priority = ? WHERE id = ?");
  const cancel = sqlite.prepare<[string]>("UPDATE jobs SET canceled = 1 WHERE id = ?");
  const setSuspended = sqlite.prepare<[number, string]>("UPDATE jobs SET suspended = ? WHERE id = ?");
  const reopen = sqlite.prepare<[string, string]>(
    "UPDATE jobs SET canceled = 0, ended_at = NULL, failed_task_count = (SELECT COUNT(*) FROM tasks WHERE job_id = ? AND status = 'FAILED') WHERE id = ?",
  );
  return {
    /**
     * The next job number, from the engine (job_numbers' AUTOINCREMENT; PostgreSQL: its
     * identity), so concurrent submissions never need a lock to number their jobs. The rows
     * below it are dropped now and then (AUTOINCREMENT remembers the highest number anyway).
     */
    nextJobNumber(): number {
      const { number } = takeJobNumber.get() as RawPick<typeof jobNumbers, "number">;
      if (number % 64 === 0) dropJobNumbersBelow.run(number);
      return number;
    },
    insertJob(job: NewJob): void {
      db.insert(jobs).values(job).run();
    },
    /** Every step of a job, in one INSERT. */
    insertSteps(rows: NewStep[]): void {
      db.insert(steps).values(rows).run();
    },
    /** A chunk of tasks: `parameterSets` a JSON array, its element k becoming task `firstIndex + k`. */
    insertTasks(jobId: string, stepId: string, firstIndex: number, status: TaskStatus, parameterSets: string): void {
      insertTasks.run(jobId, stepId, firstIndex, status, parameterSets);
    },
    /** A step's counts, status and NOT_COMPATIBLE reason as it goes live. */
    setStepCounts(stepId: string, counts: Readonly<StatusCounts>, status: TaskStatus, incompatibleReason: string | null): void {
      setStepCounts.run(...countsInOrder(counts), status, incompatibleReason, stepId);
    },
    /** A job's counts, status and task count as it goes live. */
    setJobCounts(jobId: string, counts: Readonly<StatusCounts>, status: TaskStatus, taskCount: number): void {
      setJobCounts.run(...countsInOrder(counts), status, taskCount, jobId);
    },
    /** Marks the job as being created by the server process `instance`. */
    markCreating(jobId: string, instance: string, now: number): void {
      mark.run(CREATING_MARKER + jobId, JSON.stringify({ instance }), now);
    },
    unmarkCreating(jobId: string): void {
      unmark.run(CREATING_MARKER + jobId);
    },
    /** Every job being created, with the server process that marked it (undefined when the marker does not say). */
    creatingJobs(): Array<{ jobId: string; instance: string | undefined }> {
      return markers.all(CREATING_MARKER).map((marker) => ({
        jobId: marker.key.slice(CREATING_MARKER.length),
        instance: (JSON.parse(marker.value) as { instance?: string }).instance,
      }));
    },
    exists: (jobId: string): boolean => exists.get(jobId) !== undefined,
    /** The job's priority, or undefined when there is no such job. */
    priorityOf: (jobId: string): number | undefined => priority.get(jobId)?.priority,
    setPriority(jobId: string, value: number): void {
      setPriority.run(value, jobId);
    },
    /** The wrangler's cancel of a whole job: none of it dispatches any more. */
    markCanceled(jobId: string): void {
      cancel.run(jobId);
    },
    setSuspended(jobId: string, suspended: boolean): void {
      setSuspended.run(suspended ? 1 : 0, jobId);
    },
    /** After a requeue: not canceled, not ended, and its failed tasks counted again. */
    reopen(jobId: string): void {
      reopen.run(jobId, jobId);
    },
  };
});
