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
import { lt } from "drizzle-orm";
import type Database from "better-sqlite3";
import { emptyCounts, rollUpStatus, TASK_STATUSES, type StatusCounts, type TaskStatus } from "../../lib/farm/statuses";
import type { WorkerCapabilities } from "../../lib/openjd";
import { TASK_CHUNK_ROWS, type JobPlan, type TaskBatch } from "../checks/plan-job";
import type { SubmitJobInput } from "../checks/validate-submission";
import type { Store } from "../db/connection";
import { perDatabase } from "../db/per-database";
import { jobNumbers, jobs, steps } from "../db/schema";
import { countColumn, countValues } from "../db/status-counts";
import { incompatibility } from "../scheduler/plan";
import { audit } from "./audit";
import { deleteJobRows } from "./delete-job-rows";
import type { Farm } from "./farm";
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

/**
 * The next job number, from the engine (job_numbers' AUTOINCREMENT; PostgreSQL: its identity),
 * so concurrent submissions never need a lock to number their jobs. Older rows are dropped.
 */
function nextJobNumber(store: Store): number {
  const { number } = store.db.insert(jobNumbers).values({}).returning({ number: jobNumbers.number }).get();
  store.db.delete(jobNumbers).where(lt(jobNumbers.number, number)).run();
  return number;
}

/** The job row and its steps, live (`starts`) or being created (null: zero counts, PENDING). */
function insertJobAndSteps(store: Store, jobId: string, input: SubmitJobInput, plan: JobPlan, starts: readonly StepStart[] | null): void {
  const seq = nextJobNumber(store);
  const jobCounts = starts ? sumCounts(starts) : emptyCounts();
  const { settings } = plan;
  store.db
    .insert(jobs)
    .values({
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
    })
    .run();
  store.db
    .insert(steps)
    .values(
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
    )
    .run();
}

function auditSubmission(store: Store, jobId: string, input: SubmitJobInput, plan: JobPlan): void {
  if (!input.owner) return;
  audit({ store, now: () => input.now }, input.owner.actor, {
    action: "job.submit",
    target: { kind: "job", id: jobId },
    after: { name: plan.name, tasks: plan.taskCount, priority: plan.settings.priority, initialState: plan.settings.initialState },
  });
}

const insertChunk = perDatabase((sqlite) =>
  sqlite.prepare<[string, string, number, string, string]>("INSERT INTO tasks (job_id, step_id, task_index, parameters, status) SELECT ?, ?, ? + key, value, ? FROM json_each(?)"),
);

/** Inserts chunk `index` of the batch. */
function insertRows(sqlite: Database.Database, jobId: string, batch: TaskBatch, status: TaskStatus, index: number): void {
  insertChunk(sqlite).run(jobId, `${jobId}:${batch.stepIndex}`, batch.first + index * TASK_CHUNK_ROWS, status, batch.chunks[index]!);
}

/** The whole job in one transaction (submitJob: small jobs in tests and benchmarks; no farm, so no compatibility). */
export function writeJobAtOnce(store: Store, jobId: string, input: SubmitJobInput, plan: JobPlan, batches: Iterable<TaskBatch>): void {
  const starts = stepStarts(plan, []);
  store.transaction(
    () => {
      insertJobAndSteps(store, jobId, input, plan, starts);
      for (const batch of batches) {
        for (let index = 0; index < batch.chunks.length; index++) insertRows(store.sqlite, jobId, batch, starts[batch.stepIndex]!.status, index);
      }
      auditSubmission(store, jobId, input, plan);
    },
    { immediate: true },
  );
}

const MARKER = "job-creating:";

/** Every count column set, in TASK_STATUSES order: a job going live gets its first counts. */
const SET_COUNTS = TASK_STATUSES.map((status) => `${countColumn(status)} = ?`).join(", ");

/** This process: creations it started are its own; markers of any other were interrupted. */
const INSTANCE_KEY = Symbol.for("loom.instance");
function instance(): string {
  const holder = globalThis as { [INSTANCE_KEY]?: string };
  return (holder[INSTANCE_KEY] ??= randomBytes(8).toString("hex"));
}

/** The workers refreshCompatibility (compatibility.ts) matches steps against. */
function enabledWorkers(farm: Farm): WorkerCapabilities[] {
  return farm.store.sqlite
    .prepare<[], { capabilities: string }>("SELECT w.capabilities FROM workers w JOIN pools p ON p.id = w.pool_id WHERE p.enabled = 1 AND w.disabled = 0 AND w.removed_at IS NULL")
    .all()
    .map((w) => JSON.parse(w.capabilities) as WorkerCapabilities);
}

/**
 * Writes the job as being created, its tasks in slices as `nextBatch` gives them, then makes it
 * live. On any failure (the check thread stopped, the database refused) the job is deleted again.
 */
export async function createJobInSlices(farm: Farm, jobId: string, input: SubmitJobInput, plan: JobPlan, nextBatch: () => Promise<TaskBatch | null>): Promise<void> {
  const { store } = farm;
  const sqlite = store.sqlite;
  const starts = stepStarts(plan, enabledWorkers(farm));
  store.transaction(
    () => {
      insertJobAndSteps(store, jobId, input, plan, null);
      sqlite.prepare("INSERT INTO server_state (key, value, updated_at) VALUES (?, ?, ?)").run(MARKER + jobId, JSON.stringify({ instance: instance() }), farm.now());
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
          insertRows(sqlite, jobId, batch, status, index++);
          return index < batch.chunks.length;
        },
      );
    }
    pending = null;
    store.transaction(() => {
      const setStep = sqlite.prepare(`UPDATE steps SET ${SET_COUNTS}, status = ?, incompatible_reason = ? WHERE id = ?`);
      for (const step of plan.steps) {
        const start = starts[step.index]!;
        setStep.run(...TASK_STATUSES.map((status) => start.counts[status]), rollUpStatus(start.counts), start.incompatibleReason, `${jobId}:${step.index}`);
      }
      const total = sumCounts(starts);
      sqlite.prepare(`UPDATE jobs SET ${SET_COUNTS}, status = ?, task_count = ? WHERE id = ?`).run(...TASK_STATUSES.map((status) => total[status]), rollUpStatus(total), plan.taskCount, jobId);
      sqlite.prepare("DELETE FROM server_state WHERE key = ?").run(MARKER + jobId);
      auditSubmission(store, jobId, input, plan);
    });
  } catch (error) {
    // A batch still on its way would reject with nobody listening.
    void pending?.catch(() => undefined);
    await deleteJobRows(farm, jobId);
    sqlite.prepare("DELETE FROM server_state WHERE key = ?").run(MARKER + jobId);
    throw error;
  }
}

/** Deletes the jobs whose creation another (stopped) server process left unfinished; returns how many. */
export async function removeInterruptedJobs(farm: Farm): Promise<number> {
  const sqlite = farm.store.sqlite;
  const markers = sqlite.prepare<[string], { key: string; value: string }>("SELECT key, value FROM server_state WHERE key LIKE ? || '%'").all(MARKER);
  let removed = 0;
  for (const marker of markers) {
    const owner = (JSON.parse(marker.value) as { instance?: string }).instance;
    if (owner === instance()) continue;
    await deleteJobRows(farm, marker.key.slice(MARKER.length));
    sqlite.prepare("DELETE FROM server_state WHERE key = ?").run(marker.key);
    removed++;
  }
  return removed;
}
