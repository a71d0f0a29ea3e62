/**
 * Read models of jobs, steps and tasks for the API and the portal: plain rows with parsed JSON,
 * server-side filter, sort and paging so 10,000 jobs and 100,000-task steps stay fast. The
 * statements are in server/store/job-queries.ts and task-queries.ts.
 */
import { z } from "zod";
import { TASK_STATUSES, type StatusCounts, type TaskStatus } from "../../lib/farm/statuses";
import { environmentNameOf, type HostRequirements } from "../../lib/openjd";
import type { ResolvedDependency } from "../../lib/openjd";
import { countsFromRow } from "../db/status-counts";
import { JOB_SORTS, jobQueriesRepository, type JobSummaryRow, type StepDetailRow } from "../store/job-queries";
import { dependenciesOf } from "../store/task-edges";
import type { ReadTx } from "../store/repository";
import { taskQueriesRepository, type TaskPageRow } from "../store/task-queries";
import { AppError } from "../context/errors";
import type { Farm } from "../context/farm";
import { requireSortParameter, taskSortFields } from "./task-sort";

export { JOB_SORTS, type JobSort } from "../store/job-queries";

export interface JobSummary {
  id: string;
  name: string;
  submitter: string;
  /** The user who owns the job (the rules' ownJob); null for jobs submitted before accounts existed. */
  ownerId: string | null;
  priority: number;
  status: TaskStatus;
  suspended: boolean;
  canceled: boolean;
  counts: StatusCounts;
  taskCount: number;
  submittedAt: number;
  startedAt: number | null;
  endedAt: number | null;
}

function toSummary(row: JobSummaryRow): JobSummary {
  return {
    id: row.id,
    name: row.name,
    submitter: row.submitter,
    ownerId: row.owner_id,
    priority: row.priority,
    status: row.status,
    suspended: row.suspended === 1,
    canceled: row.canceled === 1,
    counts: countsFromRow(row),
    taskCount: row.task_count,
    submittedAt: row.submitted_at,
    startedAt: row.started_at,
    endedAt: row.ended_at,
  };
}

export const listJobsInput = z.object({
  statuses: z.array(z.enum(TASK_STATUSES)).optional(),
  search: z.string().max(200).optional(),
  submitter: z.string().max(200).optional(),
  /** Inclusive priority bounds (0–100). */
  minPriority: z.number().int().min(0).max(100).optional(),
  maxPriority: z.number().int().min(0).max(100).optional(),
  /** Submitted at or after / before (epoch ms, `to` exclusive), so adjacent day ranges never overlap. */
  submittedFrom: z.number().int().nonnegative().optional(),
  submittedTo: z.number().int().nonnegative().optional(),
  sort: z.enum(JOB_SORTS).default("submittedAt"),
  direction: z.enum(["asc", "desc"]).default("desc"),
  offset: z.number().int().nonnegative().default(0),
  limit: z.number().int().min(1).max(500).default(50),
});
export type ListJobsInput = z.input<typeof listJobsInput>;

export async function listJobs(farm: Farm, raw: ListJobsInput = {}): Promise<{ total: number; jobs: JobSummary[] }> {
  const input = listJobsInput.parse(raw);
  // One snapshot: the total and the page it counts.
  const { total, rows } = await farm.store.read((tx) => jobQueriesRepository.page(tx, input), { consistent: true });
  return { total, jobs: rows.map(toSummary) };
}

/** Everyone who submitted a job, for the table's submitter filter (the distinct-value scan is cheap at table scale). */
export function listSubmitters(farm: Farm): Promise<string[]> {
  return farm.store.read((tx) => jobQueriesRepository.submitters(tx));
}

/** One job's row as the job table shows it (what live views re-read on every change: one statement). */
export async function getJobSummary(farm: Farm, jobId: string): Promise<JobSummary> {
  const row = await farm.store.read((tx) => jobQueriesRepository.summary(tx, jobId));
  if (!row) throw new AppError("NOT_FOUND", `no job ${jobId}`);
  return toSummary(row);
}

export interface StepDetail {
  id: string;
  index: number;
  name: string;
  dependencies: string[];
  /** Each dependency as job creation resolved it: its kind (whole step, any task, per task), label and edge count (TASK_DEPENDENCIES). */
  taskDependencies: ResolvedDependency[];
  status: TaskStatus;
  counts: StatusCounts;
  taskCount: number;
  chunked: boolean;
  incompatibleReason: string | null;
  hostRequirements: HostRequirements | null;
  /** Its task parameters' names, in definition order (the task table's columns). */
  parameterNames: string[];
}

export interface JobDetail extends JobSummary {
  description: string | null;
  parameters: Record<string, { type: string; value: string }>;
  maxRetriesPerTask: number;
  maxFailedTasks: number;
  failedTaskCount: number;
  steps: StepDetail[];
}

/** The job, its steps and their counts from one snapshot. */
export function getJob(farm: Farm, jobId: string): Promise<JobDetail> {
  return farm.store.read((tx) => readJob(tx, jobId), { consistent: true });
}

async function readJob(tx: ReadTx, jobId: string): Promise<JobDetail> {
  const row = await jobQueriesRepository.detail(tx, jobId);
  if (!row) throw new AppError("NOT_FOUND", `no job ${jobId}`);
  const steps: StepDetail[] = [];
  for (const s of await jobQueriesRepository.steps(tx, jobId)) {
    // A step's tasks all have the same parameter names: its first task's say them.
    const firstParameters = await jobQueriesRepository.stepParameters(tx, s.id);
    steps.push(stepDetail(s, firstParameters));
  }
  // Jobs from before resolved dependencies name their upstream steps only.
  const indexOf = new Map(steps.map((s) => [s.name, s.index]));
  for (const step of steps) for (const d of step.taskDependencies) if (d.upstreamStep < 0) d.upstreamStep = indexOf.get(d.dependsOn) ?? -1;
  return {
    ...toSummary(row),
    description: row.description,
    parameters: JSON.parse(row.parameters) as JobDetail["parameters"],
    maxRetriesPerTask: row.max_retries_per_task,
    maxFailedTasks: row.max_failed_tasks,
    failedTaskCount: row.failed_task_count,
    steps,
  };
}

function stepDetail(s: StepDetailRow, firstParameters: string | undefined): StepDetail {
  return {
    id: s.id,
    index: s.step_index,
    name: s.name,
    dependencies: JSON.parse(s.dependencies) as string[],
    taskDependencies: dependenciesOf(s),
    status: s.status,
    counts: countsFromRow(s),
    taskCount: s.task_count,
    chunked: s.chunked === 1,
    incompatibleReason: s.incompatible_reason,
    hostRequirements: s.host_requirements === null ? null : (JSON.parse(s.host_requirements) as HostRequirements | null),
    parameterNames: Object.keys(JSON.parse(firstParameters ?? "{}") as object),
  };
}

export const listTasksInput = z
  .object({
    stepId: z.string().min(1).max(200),
    statuses: z.array(z.enum(TASK_STATUSES)).optional(),
    ...taskSortFields,
    offset: z.number().int().nonnegative().default(0),
    limit: z.number().int().min(1).max(1000).default(100),
  })
  .superRefine(requireSortParameter);

export interface TaskRowView {
  id: number;
  index: number;
  parameters: Record<string, { type: string; value: string }>;
  status: TaskStatus;
  workerId: string | null;
  /** The worker's name as the Workers page shows it (its id when the worker row is gone). */
  workerName: string | null;
  sessionId: string | null;
  failureCount: number;
  interruptionCount: number;
  progress: number | null;
  statusMessage: string | null;
  startedAt: number | null;
  endedAt: number | null;
  /** What an ASSIGNED task waits on while its Session enters or exits an environment; else null. */
  activity: TaskActivity | null;
  /** A FAILED task's last attempt's exit code (null: it had none, e.g. it timed out or never started). */
  exitCode: number | null;
  /** A READY task waiting out its retry delay is not dispatched before this time (null: not waiting). */
  retryAt: number | null;
  /** Its task-to-task requirements not met yet (TASK_DEPENDENCIES; jobs.taskDependencies says which). */
  waiting: number;
}

export interface TaskActivity {
  kind: "ENV_ENTER" | "ENV_EXIT";
  /** The environment's name, as its template gives it. */
  environment: string;
  startedAt: number | null;
}

/** Per Session of the page's ASSIGNED tasks: the environment action it runs now, if that is what they wait on. */
async function activities(tx: ReadTx, sessionIds: ReadonlySet<string>): Promise<Map<string, TaskActivity>> {
  const found = new Map<string, TaskActivity>();
  for (const sessionId of sessionIds) {
    const action = await taskQueriesRepository.openAction(tx, sessionId);
    if (!action || action.status !== "RUNNING" || action.environment_id === null || (action.kind !== "ENV_ENTER" && action.kind !== "ENV_EXIT")) continue;
    found.set(sessionId, { kind: action.kind, environment: environmentNameOf(action.environment_id, action.step_name), startedAt: action.started_at });
  }
  return found;
}

/** A page of a step's tasks, with the total it is a page of and what its tasks wait on, from one snapshot. */
export async function listTasks(farm: Farm, raw: z.input<typeof listTasksInput>): Promise<{ total: number; tasks: TaskRowView[] }> {
  const input = listTasksInput.parse(raw);
  const now = farm.now();
  return farm.store.read(
    async (tx) => {
      const { total, rows } = await taskQueriesRepository.page(tx, input, now);
      const waiting = await activities(tx, new Set(rows.flatMap((r) => (r.status === "ASSIGNED" && r.session_id !== null ? [r.session_id] : []))));
      const tasks: TaskRowView[] = [];
      for (const r of rows) tasks.push(taskRowView(r, waiting, r.status === "FAILED" ? await taskQueriesRepository.lastExitCode(tx, r.id) : null));
      return { total, tasks };
    },
    { consistent: true },
  );
}

function taskRowView(r: TaskPageRow, waiting: ReadonlyMap<string, TaskActivity>, exitCode: number | null): TaskRowView {
  return {
    id: r.id,
    index: r.task_index,
    parameters: JSON.parse(r.parameters) as TaskRowView["parameters"],
    status: r.status,
    workerId: r.worker_id,
    workerName: r.worker_id === null ? null : (r.worker_name ?? r.worker_id),
    sessionId: r.session_id,
    failureCount: r.failure_count,
    interruptionCount: r.interruption_count,
    progress: r.progress,
    statusMessage: r.status_message,
    startedAt: r.started_at,
    endedAt: r.ended_at,
    activity: r.status === "ASSIGNED" && r.session_id !== null ? (waiting.get(r.session_id) ?? null) : null,
    exitCode,
    // The browser counts down to it (and says "Retrying" past it, until a worker takes the task).
    retryAt: r.status === "READY" ? r.retry_at : null,
    waiting: r.waiting,
  };
}
