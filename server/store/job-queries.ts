/**
 * Read models of jobs and their steps (server/queries/jobs.ts and why-waiting.ts map the rows):
 * the job table's page, filtered and sorted server-side so 10,000 jobs stay fast, one job with
 * its steps, and the ready work the dispatcher offers ahead of a job.
 */
import type { TaskStatus } from "../../lib/farm/statuses";
import type { jobs, steps } from "../db/schema";
import { countColumnsSql, countSumSql, type CountColumnsRow } from "../db/status-counts";
import type { ReadTx } from "./repository";
import type { RawPick } from "./rows";

/** The job table's sort keys, each a column of the table (or computed from its columns). */
export const JOB_SORTS = ["submittedAt", "priority", "name", "status", "submitter", "progress", "taskCount", "startedAt", "endedAt"] as const;
export type JobSort = (typeof JOB_SORTS)[number];

/** A job table view, as the caller validated it. */
export interface JobListFilter {
  statuses?: readonly TaskStatus[] | undefined;
  /** Part of the name (wildcards are plain text), or the whole id. */
  search?: string | undefined;
  submitter?: string | undefined;
  minPriority?: number | undefined;
  maxPriority?: number | undefined;
  /** Epoch ms; `submittedTo` exclusive. */
  submittedFrom?: number | undefined;
  submittedTo?: number | undefined;
  sort: JobSort;
  direction: "asc" | "desc";
  offset: number;
  limit: number;
}

export type JobSummaryRow = RawPick<
  typeof jobs,
  "id" | "name" | "submitter" | "owner_id" | "priority" | "status" | "suspended" | "canceled" | "task_count" | "submitted_at" | "started_at" | "ended_at"
> &
  CountColumnsRow;

export type JobDetailRow = JobSummaryRow & RawPick<typeof jobs, "description" | "parameters" | "max_retries_per_task" | "max_failed_tasks" | "failed_task_count">;

export type StepDetailRow = RawPick<
  typeof steps,
  "id" | "step_index" | "name" | "dependencies" | "resolved_dependencies" | "status" | "task_count" | "chunked" | "incompatible_reason" | "host_requirements"
> &
  CountColumnsRow;

/** A step as "why isn't this task running?" weighs it. */
export type WaitingStepRow = RawPick<typeof steps, "id" | "step_index" | "name" | "dependencies" | "resolved_dependencies" | "task_count" | "host_requirements" | "incompatible_reason"> &
  CountColumnsRow;

/** Where a job stands in the dispatcher's order, and whether it dispatches at all. */
export type JobQueueRow = RawPick<typeof jobs, "suspended" | "canceled" | "priority" | "seq">;

const JOB_COLUMNS = `id, name, submitter, owner_id, priority, status, suspended, canceled, ${countColumnsSql()}, task_count, submitted_at, started_at, ended_at`;

const ENDED = countSumSql(["SUCCEEDED", "FAILED", "CANCELED", "NOT_COMPATIBLE"]);

// submittedAt sorts by seq: the same order (seq is given at submission), and seq's unique index
// serves the default view without sorting 10,000 rows. Ties always break by seq, so paging is stable.
const SORT_EXPRESSIONS: Record<JobSort, string> = {
  submittedAt: "seq",
  priority: "priority",
  name: "name",
  status: "status",
  submitter: "submitter",
  progress: `CAST(${ENDED} AS REAL) / (CASE WHEN task_count > 1 THEN task_count ELSE 1 END)`,
  taskCount: "task_count",
  startedAt: "started_at",
  endedAt: "ended_at",
};

/**
 * The statements of a job table view and their bound values (the page's also takes LIMIT and
 * OFFSET). Only whitelisted text enters the SQL: the sort's expression, the direction and one
 * placeholder per filter, so the engine prepares each view shape once; exported so a test can
 * read the page's query plan.
 */
export function jobListSql(filter: JobListFilter): { count: string; page: string; params: Array<string | number> } {
  const where: string[] = [];
  const params: Array<string | number> = [];
  // Repeats change nothing but the statement's shape: dropped, so the shapes stay few.
  const statuses = [...new Set(filter.statuses ?? [])];
  if (statuses.length > 0) {
    where.push(`status IN (${statuses.map(() => "?").join(", ")})`);
    params.push(...statuses);
  }
  if (filter.search) {
    // LOWER(): SQLite's LIKE ignores ASCII case, PostgreSQL's does not.
    where.push("(LOWER(name) LIKE LOWER(?) ESCAPE '\\' OR id = ?)");
    params.push(`%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`, filter.search);
  }
  if (filter.submitter) {
    where.push("submitter = ?");
    params.push(filter.submitter);
  }
  const bounds: Array<[string, number | undefined]> = [
    ["priority >= ?", filter.minPriority],
    ["priority <= ?", filter.maxPriority],
    ["submitted_at >= ?", filter.submittedFrom],
    ["submitted_at < ?", filter.submittedTo],
  ];
  for (const [clause, value] of bounds) {
    if (value === undefined) continue;
    where.push(clause);
    params.push(value);
  }
  const direction = filter.direction === "asc" ? "ASC" : "DESC";
  const order = filter.sort === "submittedAt" ? `seq ${direction}` : `${SORT_EXPRESSIONS[filter.sort]} ${direction}, seq DESC`;
  const whereSql = where.length > 0 ? `WHERE ${where.join(" AND ")}` : "";
  return { count: `SELECT COUNT(*) AS n FROM jobs ${whereSql}`, page: `SELECT ${JOB_COLUMNS} FROM jobs ${whereSql} ORDER BY ${order} LIMIT ? OFFSET ?`, params };
}

const SUBMITTERS = "SELECT DISTINCT submitter FROM jobs ORDER BY submitter LIMIT 500";
const SUMMARY = `SELECT ${JOB_COLUMNS} FROM jobs WHERE id = ?`;
const DETAIL = `SELECT ${JOB_COLUMNS}, description, parameters, max_retries_per_task, max_failed_tasks, failed_task_count FROM jobs WHERE id = ?`;
const STEPS = `SELECT id, step_index, name, dependencies, resolved_dependencies, status, ${countColumnsSql()}, task_count, chunked, incompatible_reason, host_requirements FROM steps WHERE job_id = ? ORDER BY step_index`;
// A step's first task, by the step's unique index: all its tasks have the same parameter names.
const FIRST_TASK_PARAMETERS = "SELECT parameters FROM tasks WHERE step_id = ? ORDER BY task_index LIMIT 1";
const QUEUE_POSITION = "SELECT suspended, canceled, priority, seq FROM jobs WHERE id = ?";
const WAITING_STEPS = `SELECT id, step_index, name, dependencies, resolved_dependencies, ${countColumnsSql()}, task_count, host_requirements, incompatible_reason FROM steps WHERE job_id = ? ORDER BY step_index`;
// The dispatcher's order (plan.ts compareCandidates): priority, then submission.
const READY_STEPS_AHEAD = `SELECT st.host_requirements, st.count_ready AS ready FROM jobs j JOIN steps st ON st.job_id = j.id
   WHERE j.status IN ('READY', 'RUNNING', 'ASSIGNED') AND j.suspended = FALSE AND j.canceled = FALSE AND (j.priority > ? OR (j.priority = ? AND j.seq < ?))
     AND st.count_ready > 0 LIMIT ?`;

export const jobQueriesRepository = {
  /** A page of the job table and how many jobs the view holds. */
  async page(tx: ReadTx, filter: JobListFilter): Promise<{ total: number; rows: JobSummaryRow[] }> {
    const { count, page, params } = jobListSql(filter);
    const total = (await tx.get<{ n: number }>(count, params))?.n ?? 0;
    return { total, rows: await tx.all<JobSummaryRow>(page, [...params, filter.limit, filter.offset]) };
  },
  /** Everyone who submitted a job, in order (the distinct-value scan is cheap at table scale). */
  submitters: async (tx: ReadTx): Promise<string[]> => (await tx.all<{ submitter: string }>(SUBMITTERS)).map((r) => r.submitter),
  /** One job's row as the job table shows it (what live views re-read on every change). */
  summary: (tx: ReadTx, jobId: string): Promise<JobSummaryRow | undefined> => tx.get<JobSummaryRow>(SUMMARY, [jobId]),
  detail: (tx: ReadTx, jobId: string): Promise<JobDetailRow | undefined> => tx.get<JobDetailRow>(DETAIL, [jobId]),
  /** A job's steps in step order. */
  steps: (tx: ReadTx, jobId: string): Promise<StepDetailRow[]> => tx.all<StepDetailRow>(STEPS, [jobId]),
  /** The task parameters (JSON text) of a step's first task; undefined for a step without tasks. */
  stepParameters: async (tx: ReadTx, stepId: string): Promise<string | undefined> => (await tx.get<{ parameters: string }>(FIRST_TASK_PARAMETERS, [stepId]))?.parameters,
  queuePosition: (tx: ReadTx, jobId: string): Promise<JobQueueRow | undefined> => tx.get<JobQueueRow>(QUEUE_POSITION, [jobId]),
  waitingSteps: (tx: ReadTx, jobId: string): Promise<WaitingStepRow[]> => tx.all<WaitingStepRow>(WAITING_STEPS, [jobId]),
  /** Steps with ready tasks of dispatchable jobs ahead of a job at (priority, seq), at most `limit`. */
  readyStepsAhead: (tx: ReadTx, priority: number, seq: number, limit: number) => tx.all<{ host_requirements: string | null; ready: number }>(READY_STEPS_AHEAD, [priority, priority, seq, limit]),
};
