/**
 * Writing a planned job (server/checks/plan-job.ts): its row, its steps and every task.
 *
 * On a farm the job is first written as *being created*: its row and steps with zero counts and
 * status PENDING (the dispatcher takes only READY/ASSIGNED/RUNNING jobs with READY tasks, so none
 * of it dispatches; a job table refreshed meanwhile shows it PENDING with 0 tasks), plus a
 * `job-creating:<id>` marker in server_state. Its tasks go in through short transactions with a
 * turn of the event loop between them; one last transaction writes the counts, makes it live,
 * drops the marker and writes the audit row. A creation interrupted by a crash leaves its marker,
 * and the next start deletes that job (nothing of it was acknowledged).
 *
 * Tasks go in as JSON arrays of parameter sets (plan-job.ts TaskBatch), one INSERT … SELECT
 * FROM json_each per chunk of 500: SQLite unpacks them, so writing a task costs the event loop
 * nothing of its own.
 */
import { randomBytes } from "node:crypto";
import { emptyCounts, rollUpStatus, TASK_STATUSES, type StatusCounts, type TaskStatus } from "../../lib/farm/statuses";
import type { WorkerCapabilities } from "../../lib/openjd";
import { TASK_CHUNK_ROWS, type JobPlan, type TaskBatch } from "../checks/plan-job";
import type { SubmitJobInput } from "../checks/validate-submission";
import type { Store } from "../db/connection";
import { countValues } from "../db/status-counts";
import { incompatibility } from "../scheduler/plan";
import { jobWritesRepository } from "../store/job-writes";
import { audit } from "./audit";
import { enabledWorkers } from "./compatibility";
import { deleteJobRows } from "./delete-job-rows";
import type { Farm } from "../context/farm";
import { inSlices, yieldToEventLoop } from "./in-slices";

interface StepStart {
  status: TaskStatus;
  incompatibleReason: string | null;
  counts: StatusCounts;
}

/** Each step's first task status: held, waiting for a compatible worker, waiting on dependencies, or ready. */
function stepStarts(plan: JobPlan, workers: readonly WorkerCapabilities[]): StepStart[] {
  const suspended = plan.settings.initialState === "SUSPENDED";
  return plan.steps.map((step) => {
    const incompatibleReason = step.hostRequirements ? incompatibility(step.hostRequirements, workers) : null;
    const status: TaskStatus = suspended ? "SUSPENDED" : incompatibleReason ? "NOT_COMPATIBLE" : step.dependencies.length === 0 ? "READY" : "PENDING";
    const counts = emptyCounts();
    counts[status] = step.taskCount;
    return { status, incompatibleReason, counts };
  });
}

function sumCounts(starts: readonly StepStart[]): StatusCounts {
  const total = emptyCounts();
  for (const start of starts) for (const status of TASK_STATUSES) total[status] += start.counts[status];
  return total;
}

/** The job row and its steps, live (`starts`) or being created (null: zero counts, PENDING). */
function insertJobAndSteps(store: Store, jobId: string, input: SubmitJobInput, plan: JobPlan, starts: readonly StepStart[] | null): void {
  const writes = jobWritesRepository(store);
  const seq = writes.nextJobNumber();
  const jobCounts = starts ? sumCounts(starts) : emptyCounts();
  const { settings } = plan;
  writes.insertJob({
    id: jobId,
    seq,
    name: plan.name,
    description: plan.description,
    submitter: input.owner?.name ?? settings.submitter,
    ownerId: input.owner?.userId ?? null,
    templateText: input.template.text,
    templateFormat: input.template.format,
    environmentTemplates: (input.environmentTemplates ?? []).map(({ text, format }) => ({ text, format })),
    parameters: plan.parameters,
    priority: settings.priority,
    suspended: settings.initialState === "SUSPENDED",
    status: starts ? rollUpStatus(jobCounts) : "PENDING",
    ...countValues(jobCounts),
    taskCount: starts ? plan.taskCount : 0,
    maxRetriesPerTask: settings.maxRetriesPerTask,
    maxFailedTasks: settings.maxFailedTasks,
    retryDelaySeconds: settings.retryDelaySeconds,
    maxWorkerFailures: settings.maxWorkerFailures,
    submittedAt: input.now,
  });
  writes.insertSteps(
    plan.steps.map((step) => ({
      id: `${jobId}:${step.index}`,
      jobId,
      stepIndex: step.index,
      name: step.name,
      dependencies: step.dependencies,
      hostRequirements: step.hostRequirements,
      environmentStack: JSON.stringify(step.environmentStack),
      chunked: step.chunked,
      status: starts ? rollUpStatus(starts[step.index]!.counts) : ("PENDING" as const),
      ...countValues(starts ? starts[step.index]!.counts : emptyCounts()),
      taskCount: step.taskCount,
      incompatibleReason: starts ? starts[step.index]!.incompatibleReason : null,
    })),
  );
}

function auditSubmission(store: Store, jobId: string, input: SubmitJobInput, plan: JobPlan): void {
  if (!input.owner) return;
  audit({ store, now: () => input.now }, input.owner.actor, {
    action: "job.submit",
    target: { kind: "job", id: jobId },
    after: { name: plan.name, tasks: plan.taskCount, priority: plan.settings.priority, initialState: plan.settings.initialState },
  });
}

type JobWrites = ReturnType<typeof jobWritesRepository>;

/** Inserts chunk `index` of the batch. */
function insertRows(writes: JobWrites, jobId: string, batch: TaskBatch, status: TaskStatus, index: number): void {
  writes.insertTasks(jobId, `${jobId}:${batch.stepIndex}`, batch.first + index * TASK_CHUNK_ROWS, status, batch.chunks[index]!);
}

/** The whole job in one transaction (submitJob: small jobs in tests and benchmarks; no farm, so no compatibility). */
export function writeJobAtOnce(store: Store, jobId: string, input: SubmitJobInput, plan: JobPlan, batches: Iterable<TaskBatch>): void {
  const starts = stepStarts(plan, []);
  const writes = jobWritesRepository(store);
  store.transaction(
    () => {
      insertJobAndSteps(store, jobId, input, plan, starts);
      for (const batch of batches) {
        for (let index = 0; index < batch.chunks.length; index++) insertRows(writes, jobId, batch, starts[batch.stepIndex]!.status, index);
      }
      auditSubmission(store, jobId, input, plan);
    },
    { immediate: true },
  );
}

/** This process: creations it started are its own; markers of any other were interrupted. */
const INSTANCE_KEY = Symbol.for("loom.instance");
function instance(): string {
  const holder = globalThis as { [INSTANCE_KEY]?: string };
  return (holder[INSTANCE_KEY] ??= randomBytes(8).toString("hex"));
}

/**
 * Writes the job as being created, its tasks in slices as `nextBatch` gives them, then makes it
 * live. On any failure (the check thread stopped, the database refused) the job is deleted again.
 */
export async function createJobInSlices(farm: Farm, jobId: string, input: SubmitJobInput, plan: JobPlan, nextBatch: () => Promise<TaskBatch | null>): Promise<void> {
  const { store } = farm;
  const writes = jobWritesRepository(store);
  const starts = stepStarts(plan, enabledWorkers(farm));
  store.transaction(
    () => {
      insertJobAndSteps(store, jobId, input, plan, null);
      writes.markCreating(jobId, instance(), farm.now());
    },
    { immediate: true },
  );
  let pending: Promise<TaskBatch | null> | null = nextBatch();
  try {
    for (;;) {
      const batch: TaskBatch | null = await pending;
      if (!batch) break;
      // The thread walks the next batch while this one is written; the batch that just came in
      // may have been waiting already, so the event loop gets its turn before the first slice.
      pending = nextBatch();
      await yieldToEventLoop();
      const status = starts[batch.stepIndex]!.status;
      let index = 0;
      await inSlices(
        (fn) => store.transaction(fn),
        () => {
          insertRows(writes, jobId, batch, status, index++);
          return index < batch.chunks.length;
        },
      );
    }
    pending = null;
    store.transaction(() => {
      for (const step of plan.steps) {
        const start = starts[step.index]!;
        writes.setStepCounts(`${jobId}:${step.index}`, start.counts, rollUpStatus(start.counts), start.incompatibleReason);
      }
      const total = sumCounts(starts);
      writes.setJobCounts(jobId, total, rollUpStatus(total), plan.taskCount);
      writes.unmarkCreating(jobId);
      auditSubmission(store, jobId, input, plan);
    });
  } catch (error) {
    // A batch still on its way would reject with nobody listening.
    void pending?.catch(() => undefined);
    await deleteJobRows(farm, jobId);
    writes.unmarkCreating(jobId);
    throw error;
  }
}

/** Deletes the jobs whose creation another (stopped) server process left unfinished; returns how many. */
export async function removeInterruptedJobs(farm: Farm): Promise<number> {
  const writes = jobWritesRepository(farm.store);
  let removed = 0;
  for (const creating of writes.creatingJobs()) {
    if (creating.instance === instance()) continue;
    await deleteJobRows(farm, creating.jobId);
    writes.unmarkCreating(creating.jobId);
    removed++;
  }
  return removed;
}
