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
import { gateOpen, stepGates } from "../scheduler/step-gates";
import { explainWait, type UpstreamFact, type UpstreamFacts, type WaitFacts, type WaitReason, type WaitWorker } from "../scheduler/why-waiting";
import { readTaskRetryFacts, readWorkerRule } from "./retry-rules";
import { AppError } from "../context/errors";
import type { Farm } from "../context/farm";
import { jobQueriesRepository, type WaitingStepRow } from "../store/job-queries";
import type { ReadTx } from "../store/repository";
import { dependenciesOf } from "../store/task-edges";
import { taskDependencyQueriesRepository, type LinkedTaskRow } from "../store/task-dependency-queries";
import { taskQueriesRepository } from "../store/task-queries";
import { workerQueriesRepository } from "../store/worker-queries";

export const whyWaitingInput = z.object({ taskId: z.number().int().positive() });

/** Steps ahead looked at; past this many the farm's queue is long enough that the count says so anyway. */
const MAX_QUEUED_STEPS = 2000;
/** Upstream tasks named in a reason (the rest are counted). */
const NAMED_UPSTREAM = 3;

export interface WhyWaiting {
  taskId: number;
  status: TaskStatus;
  reasons: WaitReason[];
}

const parseRequirements = (text: string | null) => (text === null ? null : (JSON.parse(text) as HostRequirements | null));

export async function whyWaiting(farm: Farm, input: z.input<typeof whyWaitingInput>): Promise<WhyWaiting> {
  const { taskId } = whyWaitingInput.parse(input);
  const now = farm.now();
  // One snapshot: the task, its steps, the fleet and the queue ahead are weighed against each other.
  const facts = await farm.store.read((tx) => waitFacts(tx, taskId, now), { consistent: true });
  return { taskId, status: facts.task.status, reasons: explainWait(facts) };
}

async function waitFacts(tx: ReadTx, taskId: number, now: number): Promise<WaitFacts> {
  const task = await taskQueriesRepository.waitingTask(tx, taskId);
  if (!task) throw new AppError("NOT_FOUND", `no task ${taskId}`);
  const job = await jobQueriesRepository.queuePosition(tx, task.job_id);
  if (!job) throw new AppError("NOT_FOUND", `no job for task ${taskId}`);
  const rows = await jobQueriesRepository.waitingSteps(tx, task.job_id);
  const steps = rows.map((s) => ({ ...s, dependencies: closedGates(s, rows), counts: countsFromRow(s), taskCount: s.task_count }));
  const step = steps.find((s) => s.id === task.step_id);
  if (!step) throw new AppError("NOT_FOUND", `no step for task ${taskId}`);

  const workers: WaitWorker[] = [];
  for (const w of await workerQueriesRepository.waitingFleet(tx)) {
    workers.push({
      name: w.name,
      status: w.status,
      drain: w.drain,
      disabled: w.disabled === 1,
      poolEnabled: w.pool_enabled === 1,
      busy: w.busy === 1,
      keptAway: (await readWorkerRule(tx, task.job_id, w.id)).blocked,
      capabilities: JSON.parse(w.capabilities) as WorkerCapabilities,
    });
  }
  const { retryNotBefore } = await readTaskRetryFacts(tx, taskId, now);

  // The dispatcher's order (plan.ts compareCandidates): priority, submission, step order.
  const otherJobs = await jobQueriesRepository.readyStepsAhead(tx, job.priority, job.seq, MAX_QUEUED_STEPS);
  const earlierSteps =
    job.suspended || job.canceled ? [] : steps.filter((s) => s.step_index < step.step_index && s.counts.READY > 0).map((s) => ({ host_requirements: s.host_requirements, ready: s.counts.READY }));
  const readyBeforeInStep = await taskQueriesRepository.readyBefore(tx, task.step_id, task.task_index);

  return {
    now,
    task: { index: task.task_index, status: task.status, failureCount: task.failure_count, workerName: task.worker_name, retryNotBefore },
    job: { suspended: job.suspended === 1, canceled: job.canceled === 1 },
    step: { ...step, hostRequirements: parseRequirements(step.host_requirements), incompatibleReason: step.incompatible_reason },
    steps,
    upstream: task.waiting > 0 ? await upstreamFacts(tx, taskId, task.waiting) : null,
    workers,
    readyBeforeInStep,
    queue: [...otherJobs, ...earlierSteps].map((q) => ({ hostRequirements: parseRequirements(q.host_requirements), ready: q.ready })),
  };
}

/** The steps a step waits for as a whole (its gates: not itself, not per task), but for an any-task gate already open. */
function closedGates(step: WaitingStepRow, steps: readonly WaitingStepRow[]): string[] {
  const byName = new Map(steps.map((s) => [s.name, { taskCount: s.task_count, succeeded: s.count_succeeded }]));
  return stepGates(dependenciesOf(step))
    .filter((gate) => gate.kind === "step" || !gateOpen(gate, byName.get(gate.dependsOn)))
    .map((gate) => gate.dependsOn);
}

const upstreamFact = (row: LinkedTaskRow): UpstreamFact => ({ step: row.step_name, parameters: JSON.parse(row.parameters) as UpstreamFact["parameters"], status: row.status });

/** What a task with unmet task-to-task requirements waits for, and what blocks it. */
async function upstreamFacts(tx: ReadTx, taskId: number, waiting: number): Promise<UpstreamFacts> {
  const place = await taskDependencyQueriesRepository.place(tx, taskId);
  if (!place) return { waiting, blockedBy: [], blockedCount: 0, waitingOn: [] };
  const blockers = await taskDependencyQueriesRepository.blockers(tx, place, NAMED_UPSTREAM);
  const waitingOn = blockers.total > 0 ? [] : await taskDependencyQueriesRepository.unmetUpstream(tx, place, NAMED_UPSTREAM);
  return { waiting, blockedBy: blockers.rows.map(upstreamFact), blockedCount: blockers.total, waitingOn: waitingOn.map(upstreamFact) };
}
