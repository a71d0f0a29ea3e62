/**
 * The facts "why isn't this task running?" is decided on (server/scheduler/why-waiting.ts),
 * read in one go: the task, its job's steps, the fleet, and the ready work the dispatcher offers
 * first. Bounded however big the farm: one task, one job's steps, the workers, and at most
 * MAX_QUEUED_STEPS steps ahead.
 */
import { z } from "zod";
import type { DrainMode, TaskStatus, WorkerStatus } from "../../lib/farm/statuses";
import type { HostRequirements, WorkerCapabilities } from "../../lib/openjd";
import { countColumnsSql, countsFromRow, type CountColumnsRow } from "../db/status-counts";
import { explainWait, type WaitFacts, type WaitReason } from "../scheduler/why-waiting";
import { taskRetryFacts, workerRule } from "./retry-rules";
import { AppError } from "../services/errors";
import type { Farm } from "../services/farm";

export const whyWaitingInput = z.object({ taskId: z.number().int().positive() });

/** Steps ahead looked at; past this many the farm's queue is long enough that the count says so anyway. */
const MAX_QUEUED_STEPS = 2000;

export interface WhyWaiting {
  taskId: number;
  status: TaskStatus;
  reasons: WaitReason[];
}

const parseRequirements = (text: string | null) => (text === null ? null : (JSON.parse(text) as HostRequirements | null));

export function whyWaiting(farm: Farm, input: z.input<typeof whyWaitingInput>): WhyWaiting {
  const { taskId } = whyWaitingInput.parse(input);
  const sqlite = farm.store.sqlite;
  const task = sqlite
    .prepare<[number], { job_id: string; step_id: string; task_index: number; status: TaskStatus; failure_count: number; worker_name: string | null }>(
      "SELECT t.job_id, t.step_id, t.task_index, t.status, t.failure_count, w.name AS worker_name FROM tasks t LEFT JOIN workers w ON w.id = t.worker_id WHERE t.id = ?",
    )
    .get(taskId);
  if (!task) throw new AppError("NOT_FOUND", `no task ${taskId}`);
  const job = sqlite.prepare<[string], { suspended: number; canceled: number; priority: number; seq: number }>("SELECT suspended, canceled, priority, seq FROM jobs WHERE id = ?").get(task.job_id);
  if (!job) throw new AppError("NOT_FOUND", `no job for task ${taskId}`);
  const steps = sqlite
    .prepare<[string], CountColumnsRow & { id: string; step_index: number; name: string; dependencies: string; task_count: number; host_requirements: string | null; incompatible_reason: string | null }>(
      `SELECT id, step_index, name, dependencies, ${countColumnsSql()}, task_count, host_requirements, incompatible_reason FROM steps WHERE job_id = ? ORDER BY step_index`,
    )
    .all(task.job_id)
    .map((s) => ({ ...s, dependencies: JSON.parse(s.dependencies) as string[], counts: countsFromRow(s), taskCount: s.task_count }));
  const step = steps.find((s) => s.id === task.step_id);
  if (!step) throw new AppError("NOT_FOUND", `no step for task ${taskId}`);

  const workers = sqlite
    .prepare<[], { id: string; name: string; status: WorkerStatus; drain: DrainMode | null; disabled: number; pool_enabled: number; busy: number; capabilities: string }>(
      `SELECT w.id, w.name, w.status, w.drain, w.disabled, p.enabled AS pool_enabled, w.capabilities,
              EXISTS (SELECT 1 FROM sessions s WHERE s.worker_id = w.id AND s.state != 'ENDED') AS busy
       FROM workers w JOIN pools p ON p.id = w.pool_id WHERE w.removed_at IS NULL`,
    )
    .all()
    .map((w) => ({
      name: w.name,
      status: w.status,
      drain: w.drain,
      disabled: w.disabled === 1,
      poolEnabled: w.pool_enabled === 1,
      busy: w.busy === 1,
      keptAway: workerRule(farm, task.job_id, w.id).blocked,
      capabilities: JSON.parse(w.capabilities) as WorkerCapabilities,
    }));
  const now = farm.now();
  const { retryNotBefore } = taskRetryFacts(farm, taskId, now);

  // The dispatcher's order (plan.ts compareCandidates): priority, submission, step order.
  const otherJobs = sqlite
    .prepare<[number, number, number, number], { host_requirements: string | null; ready: number }>(
      `SELECT st.host_requirements, st.count_ready AS ready FROM jobs j JOIN steps st ON st.job_id = j.id
       WHERE j.status IN ('READY', 'RUNNING', 'ASSIGNED') AND j.suspended = 0 AND j.canceled = 0 AND (j.priority > ? OR (j.priority = ? AND j.seq < ?))
         AND st.count_ready > 0 LIMIT ?`,
    )
    .all(job.priority, job.priority, job.seq, MAX_QUEUED_STEPS);
  const earlierSteps = job.suspended || job.canceled ? [] : steps.filter((s) => s.step_index < step.step_index && s.counts.READY > 0).map((s) => ({ host_requirements: s.host_requirements, ready: s.counts.READY }));
  const readyBeforeInStep =
    sqlite.prepare<[string, number], { n: number }>("SELECT COUNT(*) AS n FROM tasks WHERE step_id = ? AND status = 'READY' AND task_index < ?").get(task.step_id, task.task_index)?.n ?? 0;

  const facts: WaitFacts = {
    now,
    task: { index: task.task_index, status: task.status, failureCount: task.failure_count, workerName: task.worker_name, retryNotBefore },
    job: { suspended: job.suspended === 1, canceled: job.canceled === 1 },
    step: { ...step, hostRequirements: parseRequirements(step.host_requirements), incompatibleReason: step.incompatible_reason },
    steps,
    workers,
    readyBeforeInStep,
    queue: [...otherJobs, ...earlierSteps].map((q) => ({ hostRequirements: parseRequirements(q.host_requirements), ready: q.ready })),
  };
  return { taskId, status: task.status, reasons: explainWait(facts) };
}
