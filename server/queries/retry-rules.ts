/**
 * What the retry rules are doing, as pages and explanations read it: which workers a job's
 * failures keep away from it (the job page), which jobs a worker is kept away from (the Workers
 * page), and for one task the facts that hold it back — its retry time and, per worker, the
 * rule — so "why isn't this task running?" (issue 11 point 8) reads them from one place.
 */
import { z } from "zod";
import { AppError } from "../context/errors";
import type { Farm } from "../context/farm";
import { retryRuleQueriesRepository, type WorkerFailureRow } from "../store/retry-rule-queries";

export interface WorkerFailureView {
  jobId: string;
  jobName: string;
  workerId: string;
  workerName: string;
  /** Failed attempts of the job's tasks on the worker. */
  failures: number;
  lastFailureAt: number;
  lastMessage: string | null;
  /** When it reached the job's maxWorkerFailures and stopped getting the job's tasks; null while it still gets them. */
  blockedAt: number | null;
}

function toView(row: WorkerFailureRow): WorkerFailureView {
  return {
    jobId: row.job_id,
    jobName: row.job_name,
    workerId: row.worker_id,
    workerName: row.worker_name,
    failures: row.failures,
    lastFailureAt: row.last_failure_at,
    lastMessage: row.last_message,
    blockedAt: row.blocked_at,
  };
}

export const jobWorkerFailuresInput = z.object({ jobId: z.string().min(1).max(100) });

/** Every worker on which the job's tasks failed, kept-away ones first, with the job's retry settings. */
export function jobWorkerFailures(farm: Farm, jobId: string): { maxWorkerFailures: number; retryDelaySeconds: number; workers: WorkerFailureView[] } {
  const queries = retryRuleQueriesRepository(farm.store);
  const job = queries.jobRules(jobId);
  if (!job) throw new AppError("NOT_FOUND", `no job ${jobId}`);
  return { maxWorkerFailures: job.max_worker_failures, retryDelaySeconds: job.retry_delay_seconds, workers: queries.failuresOfJob(jobId).map(toView) };
}

/** Per worker id, the jobs it is kept away from (only workers with some). */
export function keptAwayByWorker(farm: Farm): Map<string, WorkerFailureView[]> {
  const byWorker = new Map<string, WorkerFailureView[]>();
  for (const row of retryRuleQueriesRepository(farm.store).blocked()) {
    const list = byWorker.get(row.worker_id) ?? [];
    list.push(toView(row));
    byWorker.set(row.worker_id, list);
  }
  return byWorker;
}

/** Whether the failure rule keeps `workerId` away from `jobId`, and how many attempts failed there. */
export function workerRule(farm: Farm, jobId: string, workerId: string): { blocked: boolean; failures: number } {
  const row = retryRuleQueriesRepository(farm.store).failures(jobId, workerId);
  return { blocked: row?.blocked_at !== null && row?.blocked_at !== undefined, failures: row?.failures ?? 0 };
}

/**
 * A task's retry facts at `now`: the time before which it is not dispatched (null unless it is
 * READY and waiting out a retry delay) and the worker its last attempt failed on (its retry goes
 * elsewhere when another compatible worker is idle).
 */
export function taskRetryFacts(farm: Farm, taskId: number, now: number): { retryNotBefore: number | null; lastFailedWorkerId: string | null } {
  const task = retryRuleQueriesRepository(farm.store).task(taskId);
  if (!task) throw new AppError("NOT_FOUND", `no task ${taskId}`);
  return { retryNotBefore: task.status === "READY" && task.retry_at !== null && task.retry_at > now ? task.retry_at : null, lastFailedWorkerId: task.last_failed_worker_id };
}
