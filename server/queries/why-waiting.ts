/**
 * The facts "why isn't this task running?" is decided on (server/scheduler/why-waiting.ts),
 * read in one go: the task, its job's steps, the fleet, and the ready work the dispatcher offers
 * first. Bounded however big the farm: one task, one job's steps, the workers, and at most
 * MAX_QUEUED_STEPS steps ahead.
 */
import { z } from "zod";
import type { TaskStatus } from "../../lib/farm/statuses";
import type { HostRequirements, WorkerCapabilities } from "../../lib/openjd";
import { countsFromRow } from "../db/status-counts";
import { explainWait, type WaitFacts, type WaitReason } from "../scheduler/why-waiting";
import { taskRetryFacts, workerRule } from "./retry-rules";
import { AppError } from "../context/errors";
import type { Farm } from "../context/farm";
import { jobQueriesRepository } from "../store/job-queries";
import { taskQueriesRepository } from "../store/task-queries";
import { workerQueriesRepository } from "../store/worker-queries";

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
  const taskQueries = taskQueriesRepository(farm.store);
  const jobQueries = jobQueriesRepository(farm.store);
  const task = taskQueries.waitingTask(taskId);
  if (!task) throw new AppError("NOT_FOUND", `no task ${taskId}`);
  const job = jobQueries.queuePosition(task.job_id);
  if (!job) throw new AppError("NOT_FOUND", `no job for task ${taskId}`);
  const steps = jobQueries.waitingSteps(task.job_id).map((s) => ({ ...s, dependencies: JSON.parse(s.dependencies) as string[], counts: countsFromRow(s), taskCount: s.task_count }));
  const step = steps.find((s) => s.id === task.step_id);
  if (!step) throw new AppError("NOT_FOUND", `no step for task ${taskId}`);

  const workers = workerQueriesRepository(farm.store)
    .waitingFleet()
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
  const otherJobs = jobQueries.readyStepsAhead(job.priority, job.seq, MAX_QUEUED_STEPS);
  const earlierSteps =
    job.suspended || job.canceled ? [] : steps.filter((s) => s.step_index < step.step_index && s.counts.READY > 0).map((s) => ({ host_requirements: s.host_requirements, ready: s.counts.READY }));
  const readyBeforeInStep = taskQueries.readyBefore(task.step_id, task.task_index);

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
