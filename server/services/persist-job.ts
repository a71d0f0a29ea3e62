/**
 * Writing a planned job (server/checks/plan-job.ts): its row, its steps and every task.
 *
 * On a farm the job is first written as *being created*: its row and steps with zero counts and
 * status PENDING (the dispatcher takes only READY/ASSIGNED/RUNNING jobs with READY tasks, so none
 * of it dispatches; a job table refreshed meanwhile shows it PENDING with 0 tasks), plus a
 * `job-creating:<id>` marker in server_state. Its tasks go in through short units of work with a
 * turn of the event loop between them; one last unit writes the counts, makes it live, drops the
 * marker and writes the audit row. A creation interrupted by a crash leaves its marker,
 * and the next start deletes that job (nothing of it was acknowledged).
 *
 * Tasks go in as JSON arrays of parameter sets (plan-job.ts TaskBatch), one INSERT … SELECT
 * FROM json_each per chunk of 500: SQLite unpacks them, so writing a task costs the event loop
 * nothing of its own. A job with task-to-task dependencies (TASK_DEPENDENCIES) also marks, per
 * chunk, the tasks that wait on others with their count of requirements, and after the tasks
 * writes its edges and any-of groups the same way (plan-job.ts EdgeBatch). A step with such
 * tasks and no closed gate starts PENDING, and each chunk releases at once those of its tasks that
 * wait on nothing: when the job goes live its counts (known from the plan) are already true, and
 * the last unit has nothing to release. A job without such dependencies writes nothing more.
 */
import { randomBytes } from "node:crypto";
import { emptyCounts, rollUpStatus, TASK_STATUSES, type StatusCounts, type TaskStatus } from "../../lib/farm/statuses";
import type { WorkerCapabilities } from "../../lib/openjd";
import { stepGates } from "../scheduler/step-gates";
import { TASK_CHUNK_ROWS, type CreationBatch, type JobPlan, type TaskBatch } from "../checks/plan-job";
import type { SubmitJobInput } from "../checks/validate-submission";
import type { Store } from "../db/connection";
import { countValues } from "../db/status-counts";
import { incompatibility } from "../scheduler/plan";
import { jobWritesRepository } from "../store/job-writes";
import type { LeaderFence } from "../store/leader";
import type { Tx } from "../store/repository";
import { audit } from "./audit";
import { enabledWorkers } from "./compatibility";
import { deleteJobRows } from "./delete-job-rows";
import type { Farm } from "../context/farm";
import { inSlices, yieldToEventLoop } from "./in-slices";

interface StepStart {
  status: TaskStatus;
  incompatibleReason: string | null;
  counts: StatusCounts;
  /** Its tasks that wait on no task are made READY as each chunk is written (it starts PENDING for the others). */
  releases: boolean;
}

/**
 * Each step's first task status: held, waiting for a compatible worker, waiting on a step it
 * depends on (or, some of its tasks, on other tasks), or ready.
 */
function stepStarts(plan: JobPlan, workers: readonly WorkerCapabilities[]): StepStart[] {
  const suspended = plan.settings.initialState === "SUSPENDED";
  return plan.steps.map((step) => {
    const incompatibleReason = step.hostRequirements ? incompatibility(step.hostRequirements, workers) : null;
    const gated = stepGates(step.taskDependencies).length > 0;
    const status: TaskStatus = suspended ? "SUSPENDED" : incompatibleReason ? "NOT_COMPATIBLE" : gated || step.waitingTasks > 0 ? "PENDING" : "READY";
    const counts = emptyCounts();
    counts[status] = step.taskCount;
    const releases = status === "PENDING" && !gated;
    if (releases) {
      counts.PENDING = step.waitingTasks;
      counts.READY = step.taskCount - step.waitingTasks;
    }
    return { status, incompatibleReason, counts, releases };
  });
}

function sumCounts(starts: readonly StepStart[]): StatusCounts {
  const total = emptyCounts();
  for (const start of starts) for (const status of TASK_STATUSES) total[status] += start.counts[status];
  return total;
}

/** The job row and its steps, live (`starts`) or being created (null: zero counts, PENDING). */
async function insertJobAndSteps(tx: Tx, jobId: string, input: SubmitJobInput, plan: JobPlan, starts: readonly StepStart[] | null): Promise<void> {
  const seq = await jobWritesRepository.nextJobNumber(tx);
  const jobCounts = starts ? sumCounts(starts) : emptyCounts();
  const { settings } = plan;
  await jobWritesRepository.insertJob(tx, {
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
  await jobWritesRepository.insertSteps(
    tx,
    plan.steps.map((step) => ({
      id: `${jobId}:${step.index}`,
      jobId,
      stepIndex: step.index,
      name: step.name,
      dependencies: step.dependencies,
      resolvedDependencies: step.taskDependencies,
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

async function auditSubmission(tx: Tx, jobId: string, input: SubmitJobInput, plan: JobPlan): Promise<void> {
  if (!input.owner) return;
  await audit(tx, { now: () => input.now }, input.owner.actor, {
    action: "job.submit",
    target: { kind: "job", id: jobId },
    after: { name: plan.name, tasks: plan.taskCount, priority: plan.settings.priority, initialState: plan.settings.initialState },
  });
}

/** Inserts chunk `index` of a batch of tasks, marks those of them that wait on others, and releases the rest if the step has no gate. */
async function insertRows(tx: Tx, jobId: string, batch: TaskBatch, start: StepStart, index: number): Promise<void> {
  const stepId = `${jobId}:${batch.stepIndex}`;
  const first = batch.first + index * TASK_CHUNK_ROWS;
  await jobWritesRepository.insertTasks(tx, jobId, stepId, first, start.status, batch.chunks[index]!);
  for (const [n, taskIndexes] of batch.waiting?.[index] ?? []) await jobWritesRepository.setWaiting(tx, stepId, n, taskIndexes);
  if (start.releases) await jobWritesRepository.releaseRange(tx, stepId, first, Math.min(batch.first + batch.rows, first + TASK_CHUNK_ROWS) - 1);
}

/** A batch as pieces of about one statement each, each written in the unit it is given. */
function piecesOf(jobId: string, batch: CreationBatch, starts: readonly StepStart[]): Array<(tx: Tx) => Promise<unknown>> {
  if (batch.kind === "edges") {
    return [
      ...batch.edges.map((edges) => (tx: Tx) => jobWritesRepository.insertEdges(tx, jobId, edges)),
      ...batch.groups.map((groups) => (tx: Tx) => jobWritesRepository.insertGroups(tx, jobId, groups)),
    ];
  }
  const start = starts[batch.stepIndex]!;
  return batch.chunks.map((_, index) => (tx: Tx) => insertRows(tx, jobId, batch, start, index));
}

/** The whole job in one unit of work (submitJob: small jobs in tests and benchmarks; no farm, so no compatibility). */
export async function writeJobAtOnce(store: Store, jobId: string, input: SubmitJobInput, plan: JobPlan, batches: Iterable<CreationBatch>): Promise<void> {
  const starts = stepStarts(plan, []);
  await store.transaction(async (tx) => {
    await insertJobAndSteps(tx, jobId, input, plan, starts);
    for (const batch of batches) for (const piece of piecesOf(jobId, batch, starts)) await piece(tx);
    await auditSubmission(tx, jobId, input, plan);
  });
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
export async function createJobInSlices(farm: Farm, jobId: string, input: SubmitJobInput, plan: JobPlan, nextBatch: () => Promise<CreationBatch | null>): Promise<void> {
  const { store } = farm;
  const starts = await store.transaction(async (tx) => {
    const found = stepStarts(plan, await enabledWorkers(tx, farm));
    await insertJobAndSteps(tx, jobId, input, plan, null);
    await jobWritesRepository.markCreating(tx, jobId, instance(), farm.now());
    return found;
  });
  let pending: Promise<CreationBatch | null> | null = nextBatch();
  try {
    for (;;) {
      const batch: CreationBatch | null = await pending;
      if (!batch) break;
      // The thread walks the next batch while this one is written; the batch that just came in
      // may have been waiting already, so the event loop gets its turn before the first slice.
      pending = nextBatch();
      await yieldToEventLoop();
      const pieces = piecesOf(jobId, batch, starts);
      if (pieces.length === 0) continue;
      let index = 0;
      await inSlices(
        (fn) => store.transaction(fn),
        async (tx) => {
          await pieces[index]!(tx);
          if (index === 0) await jobWritesRepository.touchCreating(tx, jobId, farm.now());
          return ++index < pieces.length;
        },
        {
          start: (tx) => {
            const first = index;
            tx.onRollback(() => (index = first));
          },
        },
      );
    }
    pending = null;
    await store.transaction(async (tx) => {
      for (const step of plan.steps) {
        const start = starts[step.index]!;
        await jobWritesRepository.setStepCounts(tx, `${jobId}:${step.index}`, start.counts, rollUpStatus(start.counts), start.incompatibleReason);
      }
      const total = sumCounts(starts);
      await jobWritesRepository.setJobCounts(tx, jobId, total, rollUpStatus(total), plan.taskCount);
      await jobWritesRepository.unmarkCreating(tx, jobId);
      await auditSubmission(tx, jobId, input, plan);
    });
  } catch (error) {
    // A batch still on its way would reject with nobody listening.
    void pending?.catch(() => undefined);
    await deleteJobRows(farm, jobId, (tx) => jobWritesRepository.unmarkCreating(tx, jobId));
    throw error;
  }
}

/**
 * How long a creation may go without writing a slice before another server process takes it for
 * interrupted. SQLite has one server process per database: another's marker is a stopped one's.
 * On PostgreSQL another replica may be creating that job right now; it touches the marker with
 * every batch it writes.
 */
export const INTERRUPTED_AFTER_MS = 2 * 60_000;

/** Deletes the jobs whose creation another (stopped) server process left unfinished; returns how many. */
export async function removeInterruptedJobs(farm: Farm, fence?: LeaderFence): Promise<number> {
  let removed = 0;
  const quietFor = farm.store.engine === "sqlite" ? 0 : INTERRUPTED_AFTER_MS;
  for (const creating of await farm.store.read((tx) => jobWritesRepository.creatingJobs(tx))) {
    if (creating.instance === instance()) continue;
    if (farm.now() - creating.touchedAt < quietFor) continue;
    // The marker goes with the job row, in the same unit.
    await deleteJobRows(farm, creating.jobId, (tx) => jobWritesRepository.unmarkCreating(tx, creating.jobId), fence);
    removed++;
  }
  return removed;
}
