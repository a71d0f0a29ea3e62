/**
 * Read models of the retry rules (server/queries/retry-rules.ts maps the rows): the per-worker
 * failure counts of jobs (worker_job_failures) with the names that show them, a job's retry
 * settings, and a task's retry facts.
 */
import type { jobs, tasks, workerJobFailures } from "../db/schema";
import type { ReadTx } from "./repository";
import type { RawPick } from "./rows";

/** A worker's failures on a job, with the job's and the worker's names. */
export type WorkerFailureRow = RawPick<typeof workerJobFailures, "job_id" | "worker_id" | "failures" | "last_failure_at" | "last_message" | "blocked_at"> & { job_name: string; worker_name: string };

export type JobRetryRulesRow = RawPick<typeof jobs, "max_worker_failures" | "retry_delay_seconds">;

export type TaskRetryRow = RawPick<typeof tasks, "status" | "retry_at" | "last_failed_worker_id">;

const FAILURES = `f.job_id, j.name AS job_name, f.worker_id, w.name AS worker_name, f.failures, f.last_failure_at, f.last_message, f.blocked_at
  FROM worker_job_failures f JOIN jobs j ON j.id = f.job_id JOIN workers w ON w.id = f.worker_id`;

const OF_JOB = `SELECT ${FAILURES} WHERE f.job_id = ? ORDER BY f.blocked_at IS NULL, f.failures DESC, w.name`;
const BLOCKED = `SELECT ${FAILURES} WHERE f.blocked_at IS NOT NULL ORDER BY w.name, j.seq`;
const PAIR = "SELECT blocked_at, failures FROM worker_job_failures WHERE job_id = ? AND worker_id = ?";
const RULES = "SELECT max_worker_failures, retry_delay_seconds FROM jobs WHERE id = ?";
const TASK = "SELECT status, retry_at, last_failed_worker_id FROM tasks WHERE id = ?";

export const retryRuleQueriesRepository = {
  /** Every worker on which the job's tasks failed: kept-away ones first, then by failures. */
  failuresOfJob: (tx: ReadTx, jobId: string): Promise<WorkerFailureRow[]> => tx.all<WorkerFailureRow>(OF_JOB, [jobId]),
  /** Every (worker, job) pair the rule keeps apart, by worker name. */
  blocked: (tx: ReadTx): Promise<WorkerFailureRow[]> => tx.all<WorkerFailureRow>(BLOCKED),
  /** One worker's failures on one job; undefined when none failed there. */
  failures: (tx: ReadTx, jobId: string, workerId: string) => tx.get<RawPick<typeof workerJobFailures, "blocked_at" | "failures">>(PAIR, [jobId, workerId]),
  jobRules: (tx: ReadTx, jobId: string): Promise<JobRetryRulesRow | undefined> => tx.get<JobRetryRulesRow>(RULES, [jobId]),
  task: (tx: ReadTx, taskId: number): Promise<TaskRetryRow | undefined> => tx.get<TaskRetryRow>(TASK, [taskId]),
};
