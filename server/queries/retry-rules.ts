/**
 * What the retry rules are doing, as pages and explanations read it: which workers a job's
 * failures keep away from it (the job page), which jobs a worker is kept away from (the Workers
 * page), and for one task the facts that hold it back — its retry time and, per worker, the
 * rule — so "why isn't this task running?" (issue 11 point 8) reads them from one place.
 */
import { z } from "zod";
import { perDatabase } from "../db/per-database";
import { AppError } from "../services/errors";
import type { Farm } from "../services/farm";

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

interface FailureRow {
  job_id: string;
  job_name: string;
  worker_id: string;
  worker_name: string;
  failures: number;
  last_failure_at: number;
  last_message: string | null;
  blocked_at: number | null;
}

const COLUMNS = `f.job_id, j.name AS job_name, f.worker_id, w.name AS worker_name, f.failures, f.last_failure_at, f.last_message, f.blocked_at
  FROM worker_job_failures f JOIN jobs j ON j.id = f.job_id JOIN workers w ON w.id = f.worker_id`;

const statements = perDatabase((sqlite) => ({
  ofJob: sqlite.prepare<[string], FailureRow>(`SELECT ${COLUMNS} WHERE f.job_id = ? ORDER BY f.blocked_at IS NULL, f.failures DESC, w.name`),
  blocked: sqlite.prepare<[], FailureRow>(`SELECT ${COLUMNS} WHERE f.blocked_at IS NOT NULL ORDER BY w.name, j.seq`),
  pair: sqlite.prepare<[string, string], { blocked_at: number | null; failures: number }>("SELECT blocked_at, failures FROM worker_job_failures WHERE job_id = ? AND worker_id = ?"),
  rules: sqlite.prepare<[string], { max_worker_failures: number; retry_delay_seconds: number }>("SELECT max_worker_failures, retry_delay_seconds FROM jobs WHERE id = ?"),
  task: sqlite.prepare<[number], { status: string; retry_at: number | null; last_failed_worker_id: string | null }>("SELECT status, retry_at, last_failed_worker_id FROM tasks WHERE id = ?"),
}));

function toView(row: FailureRow): WorkerFailureView {
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
  const s = statements(farm.store.sqlite);
  const job = s.rules.get(jobId);
  if (!job) throw new AppError("NOT_FOUND", `no job ${jobId}`);
  return { maxWorkerFailures: job.max_worker_failures, retryDelaySeconds: job.retry_delay_seconds, workers: s.ofJob.all(jobId).map(toView) };
}

/** Per worker id, the jobs it is kept away from (only workers with some). */
export function keptAwayByWorker(farm: Farm): Map<string, WorkerFailureView[]> {
  const byWorker = new Map<string, WorkerFailureView[]>();
  for (const row of statements(farm.store.sqlite).blocked.all()) {
    const list = byWorker.get(row.worker_id) ?? [];
    list.push(toView(row));
    byWorker.set(row.worker_id, list);
  }
  return byWorker;
}

/** Whether the failure rule keeps `workerId` away from `jobId`, and how many attempts failed there. */
export function workerRule(farm: Farm, jobId: string, workerId: string): { blocked: boolean; failures: number } {
  const row = statements(farm.store.sqlite).pair.get(jobId, workerId);
  return { blocked: row?.blocked_at !== null && row?.blocked_at !== undefined, failures: row?.failures ?? 0 };
}

/**
 * A task's retry facts at `now`: the time before which it is not dispatched (null unless it is
 * READY and waiting out a retry delay) and the worker its last attempt failed on (its retry goes
 * elsewhere when another compatible worker is idle).
 */
export function taskRetryFacts(farm: Farm, taskId: number, now: number): { retryNotBefore: number | null; lastFailedWorkerId: string | null } {
  const task = statements(farm.store.sqlite).task.get(taskId);
  if (!task) throw new AppError("NOT_FOUND", `no task ${taskId}`);
  return { retryNotBefore: task.status === "READY" && task.retry_at !== null && task.retry_at > now ? task.retry_at : null, lastFailedWorkerId: task.last_failed_worker_id };
}
