/**
 * What the retry rules are doing, as pages and explanations read it: which workers a job's
 * failures keep away from it (the job page), which jobs a worker is kept away from (the Workers
 * page), and for one task the facts that hold it back — its retry time and, per worker, the
 * rule — so "why isn't this task running?" (issue 11 point 8) reads them from one place.
 */
import { z } from "zod";
import { AppError } from "../context/errors";
import type { Farm } from "../context/farm";
import type { ReadTx } from "../store/repository";
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
export function jobWorkerFailures(farm: Farm, jobId: string): Promise<{ maxWorkerFailures: number; retryDelaySeconds: number; workers: WorkerFailureView[] }> {
  return farm.store.read(
    async (tx) => {
      const job = await retryRuleQueriesRepository.jobRules(tx, jobId);
      if (!job) throw new AppError("NOT_FOUND", `no job ${jobId}`);
      return { maxWorkerFailures: job.max_worker_failures, retryDelaySeconds: job.retry_delay_seconds, workers: (await retryRuleQueriesRepository.failuresOfJob(tx, jobId)).map(toView) };
    },
    { consistent: true },
  );
}

/** Per worker id, the jobs it is kept away from (only workers with some), read in the caller's unit. */
export async function keptAwayByWorker(tx: ReadTx): Promise<Map<string, WorkerFailureView[]>> {
  const byWorker = new Map<string, WorkerFailureView[]>();
  for (const row of await retryRuleQueriesRepository.blocked(tx)) {
    const list = byWorker.get(row.worker_id) ?? [];
    list.push(toView(row));
    byWorker.set(row.worker_id, list);
  }
  return byWorker;
}

/** Whether the failure rule keeps `workerId` away from `jobId`, and how many attempts failed there. */
export function workerRule(farm: Farm, jobId: string, workerId: string): Promise<{ blocked: boolean; failures: number }> {
  return farm.store.read((tx) => readWorkerRule(tx, jobId, workerId));
}

/** workerRule, read in the caller's unit (why-waiting asks it of every worker in one snapshot). */
export async function readWorkerRule(tx: ReadTx, jobId: string, workerId: string): Promise<{ blocked: boolean; failures: number }> {
  const row = await retryRuleQueriesRepository.failures(tx, jobId, workerId);
  return { blocked: row?.blocked_at !== null && row?.blocked_at !== undefined, failures: row?.failures ?? 0 };
}

/**
 * A task's retry facts at `now`: the time before which it is not dispatched (null unless it is
 * READY and waiting out a retry delay) and the worker its last attempt failed on (its retry goes
 * elsewhere when another compatible worker is idle).
 */
export function taskRetryFacts(farm: Farm, taskId: number, now: number): Promise<{ retryNotBefore: number | null; lastFailedWorkerId: string | null }> {
  return farm.store.read((tx) => readTaskRetryFacts(tx, taskId, now));
}

/** taskRetryFacts, read in the caller's unit. */
export async function readTaskRetryFacts(tx: ReadTx, taskId: number, now: number): Promise<{ retryNotBefore: number | null; lastFailedWorkerId: string | null }> {
  const task = await retryRuleQueriesRepository.task(tx, taskId);
  if (!task) throw new AppError("NOT_FOUND", `no task ${taskId}`);
  return { retryNotBefore: task.status === "READY" && task.retry_at !== null && task.retry_at > now ? task.retry_at : null, lastFailedWorkerId: task.last_failed_worker_id };
}
