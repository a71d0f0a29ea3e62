/**
 * Read models of jobs, steps and tasks for the API and the portal: plain rows with parsed JSON,
 * server-side filter, sort and paging so 10,000 jobs and 100,000-task steps stay fast.
 */
import { z } from "zod";
import { TASK_STATUSES, type StatusCounts, type TaskStatus } from "../../lib/farm/statuses";
import { environmentNameOf, type HostRequirements } from "../../lib/openjd";
import { perDatabase } from "../db/per-database";
import { countColumnsSql, countsFromRow, countSumSql, type CountColumnsRow } from "../db/status-counts";
import { AppError } from "../services/errors";
import type { Farm } from "../services/farm";
import { requireSortParameter, taskOrder, taskSortFields } from "./task-sort";

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

const JOB_COLUMNS = `id, name, submitter, owner_id, priority, status, suspended, canceled, ${countColumnsSql()}, task_count, submitted_at, started_at, ended_at`;

interface JobRowRaw extends CountColumnsRow {
  id: string;
  name: string;
  submitter: string;
  owner_id: string | null;
  priority: number;
  status: TaskStatus;
  suspended: number;
  canceled: number;
  task_count: number;
  submitted_at: number;
  started_at: number | null;
  ended_at: number | null;
}

function toSummary(row: JobRowRaw): JobSummary {
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

/** The job table's sort keys, each a column of the table. */
export const JOB_SORTS = ["submittedAt", "priority", "name", "status", "submitter", "progress", "taskCount", "startedAt", "endedAt"] as const;
export type JobSort = (typeof JOB_SORTS)[number];

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

const ENDED = countSumSql(["SUCCEEDED", "FAILED", "CANCELED", "NOT_COMPATIBLE"]);

// submittedAt sorts by seq: the same order (seq is given at submission), and seq's unique index
// serves the default view without sorting 10,000 rows. Ties always break by seq, so paging is stable.
const SORT_EXPRESSIONS: Record<JobSort, string> = {
  submittedAt: "seq",
  priority: "priority",
  name: "name",
  status: "status",
  submitter: "submitter",
  progress: `CAST(${ENDED} AS REAL) / MAX(task_count, 1)`,
  taskCount: "task_count",
  startedAt: "started_at",
  endedAt: "ended_at",
};

/** The WHERE clause and ORDER BY of a job table view (exported so a test can read its query plan). */
export function jobListQuery(raw: ListJobsInput): { where: string; order: string; params: Array<string | number>; limit: number; offset: number } {
  const input = listJobsInput.parse(raw);
  const where: string[] = [];
  const params: Array<string | number> = [];
  if (input.statuses && input.statuses.length > 0) {
    where.push(`status IN (${input.statuses.map(() => "?").join(", ")})`);
    params.push(...input.statuses);
  }
  if (input.search) {
    where.push("(name LIKE ? ESCAPE '\\' OR id = ?)");
    params.push(`%${input.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`, input.search);
  }
  if (input.submitter) {
    where.push("submitter = ?");
    params.push(input.submitter);
  }
  const bounds: Array<[string, number | undefined]> = [
    ["priority >= ?", input.minPriority],
    ["priority <= ?", input.maxPriority],
    ["submitted_at >= ?", input.submittedFrom],
    ["submitted_at < ?", input.submittedTo],
  ];
  for (const [clause, value] of bounds) {
    if (value === undefined) continue;
    where.push(clause);
    params.push(value);
  }
  const direction = input.direction === "asc" ? "ASC" : "DESC";
  const order = input.sort === "submittedAt" ? `seq ${direction}` : `${SORT_EXPRESSIONS[input.sort]} ${direction}, seq DESC`;
  return { where: where.length > 0 ? `WHERE ${where.join(" AND ")}` : "", order, params, limit: input.limit, offset: input.offset };
}

export function listJobs(farm: Farm, raw: ListJobsInput = {}): { total: number; jobs: JobSummary[] } {
  const { where, order, params, limit, offset } = jobListQuery(raw);
  const sqlite = farm.store.sqlite;
  const total = sqlite.prepare<unknown[], { n: number }>(`SELECT COUNT(*) AS n FROM jobs ${where}`).get(...params)?.n ?? 0;
  const rows = sqlite.prepare<unknown[], JobRowRaw>(`SELECT ${JOB_COLUMNS} FROM jobs ${where} ORDER BY ${order} LIMIT ? OFFSET ?`).all(...params, limit, offset);
  return { total, jobs: rows.map(toSummary) };
}

/** Everyone who submitted a job, for the table's submitter filter (the distinct-value scan is cheap at table scale). */
export function listSubmitters(farm: Farm): string[] {
  return farm.store.sqlite.prepare<[], { submitter: string }>("SELECT DISTINCT submitter FROM jobs ORDER BY submitter LIMIT 500").all().map((r) => r.submitter);
}

const summaryStatement = perDatabase((sqlite) => sqlite.prepare<[string], JobRowRaw>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE id = ?`));

/** One job's row as the job table shows it (what live views re-read on every change, so prepared once). */
export function getJobSummary(farm: Farm, jobId: string): JobSummary {
  const row = summaryStatement(farm.store.sqlite).get(jobId);
  if (!row) throw new AppError("NOT_FOUND", `no job ${jobId}`);
  return toSummary(row);
}

export interface StepDetail {
  id: string;
  index: number;
  name: string;
  dependencies: string[];
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

/** A step's first task's parameters (all its tasks have the same names), by the step's unique index. */
const firstTaskParameters = perDatabase((sqlite) => sqlite.prepare<[string], { parameters: string }>("SELECT parameters FROM tasks WHERE step_id = ? ORDER BY task_index LIMIT 1"));

export function getJob(farm: Farm, jobId: string): JobDetail {
  const sqlite = farm.store.sqlite;
  const row = sqlite
    .prepare<[string], JobRowRaw & { description: string | null; parameters: string; max_retries_per_task: number; max_failed_tasks: number; failed_task_count: number }>(
      `SELECT ${JOB_COLUMNS}, description, parameters, max_retries_per_task, max_failed_tasks, failed_task_count FROM jobs WHERE id = ?`,
    )
    .get(jobId);
  if (!row) throw new AppError("NOT_FOUND", `no job ${jobId}`);
  const steps = sqlite
    .prepare<[string], CountColumnsRow & { id: string; step_index: number; name: string; dependencies: string; status: TaskStatus; task_count: number; chunked: number; incompatible_reason: string | null; host_requirements: string | null }>(
      `SELECT id, step_index, name, dependencies, status, ${countColumnsSql()}, task_count, chunked, incompatible_reason, host_requirements FROM steps WHERE job_id = ? ORDER BY step_index`,
    )
    .all(jobId)
    .map((s) => ({
      id: s.id,
      index: s.step_index,
      name: s.name,
      dependencies: JSON.parse(s.dependencies) as string[],
      status: s.status,
      counts: countsFromRow(s),
      taskCount: s.task_count,
      chunked: s.chunked === 1,
      incompatibleReason: s.incompatible_reason,
      hostRequirements: s.host_requirements === null ? null : (JSON.parse(s.host_requirements) as HostRequirements | null),
      parameterNames: Object.keys(JSON.parse(firstTaskParameters(sqlite).get(s.id)?.parameters ?? "{}") as object),
    }));
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
}

export interface TaskActivity {
  kind: "ENV_ENTER" | "ENV_EXIT";
  /** The environment's name, as its template gives it. */
  environment: string;
  startedAt: number | null;
}

/** The first unfinished action of a Session (actions run in order), with its step's name. */
const firstOpenAction = perDatabase((sqlite) =>
  sqlite.prepare<[string], { kind: string; status: string; environment_id: string | null; started_at: number | null; step_name: string | null }>(
    `SELECT a.kind, a.status, a.environment_id, a.started_at, s.name AS step_name FROM session_actions a LEFT JOIN steps s ON s.id = a.step_id
     WHERE a.session_id = ? AND a.status IN ('ASSIGNED', 'RUNNING') ORDER BY a.seq LIMIT 1`,
  ),
);

/** The exit code of a task's last finished run. */
const lastExitCode = perDatabase((sqlite) =>
  sqlite.prepare<[number], { exit_code: number | null }>(
    "SELECT exit_code FROM session_actions WHERE task_id = ? AND kind = 'TASK_RUN' AND ended_at IS NOT NULL ORDER BY ended_at DESC, seq DESC LIMIT 1",
  ),
);

/** Per Session of the page's ASSIGNED tasks: the environment action it runs now, if that is what they wait on. */
function activities(farm: Farm, sessionIds: ReadonlySet<string>): Map<string, TaskActivity> {
  const found = new Map<string, TaskActivity>();
  const statement = firstOpenAction(farm.store.sqlite);
  for (const sessionId of sessionIds) {
    const action = statement.get(sessionId);
    if (!action || action.status !== "RUNNING" || action.environment_id === null || (action.kind !== "ENV_ENTER" && action.kind !== "ENV_EXIT")) continue;
    found.set(sessionId, { kind: action.kind, environment: environmentNameOf(action.environment_id, action.step_name), startedAt: action.started_at });
  }
  return found;
}

/** A step's task parameter's type, from its first task (all of a step's tasks have the same parameters). */
function parameterType(sqlite: Farm["store"]["sqlite"], stepId: string, name: string): string | null {
  return (
    sqlite.prepare<[string, string], { type: string | null }>("SELECT json_extract(parameters, ?) AS type FROM tasks WHERE step_id = ? ORDER BY task_index LIMIT 1").get(`$."${name}".type`, stepId)?.type ?? null
  );
}

export function listTasks(farm: Farm, raw: z.input<typeof listTasksInput>): { total: number; tasks: TaskRowView[] } {
  const input = listTasksInput.parse(raw);
  const where = ["t.step_id = ?"];
  const params: Array<string | number> = [input.stepId];
  if (input.statuses && input.statuses.length > 0) {
    where.push(`t.status IN (${input.statuses.map(() => "?").join(", ")})`);
    params.push(...input.statuses);
  }
  const sqlite = farm.store.sqlite;
  const total = sqlite.prepare<unknown[], { n: number }>(`SELECT COUNT(*) AS n FROM tasks t WHERE ${where.join(" AND ")}`).get(...params)?.n ?? 0;
  const order = taskOrder(input, farm.now(), input.sort === "parameter" ? parameterType(sqlite, input.stepId, input.parameter!) : null);
  const rows = sqlite
    .prepare<unknown[], { id: number; task_index: number; parameters: string; status: TaskStatus; worker_id: string | null; worker_name: string | null; session_id: string | null; failure_count: number; interruption_count: number; progress: number | null; status_message: string | null; started_at: number | null; ended_at: number | null; retry_at: number | null }>(
      `SELECT t.id, t.task_index, t.parameters, t.status, t.worker_id, w.name AS worker_name, t.session_id, t.failure_count, t.interruption_count, t.progress, t.status_message, t.started_at, t.ended_at, t.retry_at
       FROM tasks t LEFT JOIN workers w ON w.id = t.worker_id WHERE ${where.join(" AND ")} ORDER BY ${order.order} LIMIT ? OFFSET ?`,
    )
    .all(...params, ...order.params, input.limit, input.offset);
  const waiting = activities(farm, new Set(rows.flatMap((r) => (r.status === "ASSIGNED" && r.session_id !== null ? [r.session_id] : []))));
  return {
    total,
    tasks: rows.map((r) => ({
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
      exitCode: r.status === "FAILED" ? (lastExitCode(sqlite).get(r.id)?.exit_code ?? null) : null,
      // The browser counts down to it (and says "Retrying" past it, until a worker takes the task).
      retryAt: r.status === "READY" ? r.retry_at : null,
    })),
  };
}

