/**
 * Read models of tasks (server/queries/jobs.ts and why-waiting.ts map the rows). The task table
 * is sorted server-side (it pages 100,000-task steps, so a sort in the browser would only order
 * the rows it holds): every column sorts; empty values (no worker, not started) go last both
 * ways, and ties keep task order, so paging is stable. A page's statement text is built from
 * whitelists (statuses, sort keys): the engine prepares each shape once.
 */
import { TASK_STATUSES, type TaskStatus } from "../../lib/farm/statuses";
import type { sessionActions, tasks } from "../db/schema";
import type { Engine } from "./engine/engine";
import { perEngine, type ReadTx } from "./repository";
import type { RawPick } from "./rows";

export const TASK_SORTS = ["index", "status", "parameter", "worker", "startedAt", "duration", "retries", "message", "progress", "session"] as const;
export type TaskSort = (typeof TASK_SORTS)[number];

/** A page of a step's tasks, as the caller validated it. */
export interface TaskListFilter {
  stepId: string;
  statuses?: readonly TaskStatus[] | undefined;
  sort: TaskSort;
  /** With sort "parameter": the task parameter's name (an OpenJD identifier, bound, never spliced). */
  parameter?: string | undefined;
  direction: "asc" | "desc";
  offset: number;
  limit: number;
}

export type TaskPageRow = RawPick<
  typeof tasks,
  | "id"
  | "task_index"
  | "parameters"
  | "status"
  | "worker_id"
  | "session_id"
  | "failure_count"
  | "interruption_count"
  | "progress"
  | "status_message"
  | "started_at"
  | "ended_at"
  | "retry_at"
  | "waiting"
> & { worker_name: string | null };

/** A Session's first unfinished action, with its step's name. */
export type OpenActionRow = RawPick<typeof sessionActions, "kind" | "status" | "environment_id" | "started_at"> & { step_name: string | null };

export type WaitingTaskRow = RawPick<typeof tasks, "job_id" | "step_id" | "task_index" | "status" | "failure_count" | "waiting"> & { worker_name: string | null };

/** Lifecycle order (TASK_STATUSES), not alphabetical: Pending … Succeeded. */
const STATUS_RANK = `CASE t.status ${TASK_STATUSES.map((s, i) => `WHEN '${s}' THEN ${i}`).join(" ")} END`;

/** Parameter types whose values sort as numbers (a chunk's "1-10" by its first frame); the rest as text. */
const NUMERIC_TYPES: ReadonlySet<string> = new Set(["INT", "FLOAT", "CHUNK[INT]"]);

/**
 * The ORDER BY of a task page over `tasks t LEFT JOIN workers w`, and its bound values. `now`
 * measures running tasks' durations; `numeric` says the sorted parameter sorts as a number (every
 * task of a step has the same parameters, so its type is read once, and each row costs one json_extract).
 */
function taskOrder(engine: Engine, filter: TaskListFilter, now: number, numeric: boolean): { order: string; params: Array<string | number> } {
  const direction = filter.direction === "asc" ? "ASC" : "DESC";
  // Empty values last whichever the direction, then task order for ties; the key is written twice, so are its values.
  const by = (key: string, params: Array<string | number> = []) => ({ order: `(${key}) IS NULL, ${key} ${direction}, t.task_index ASC`, params: [...params, ...params] });
  switch (filter.sort) {
    case "index":
      return { order: `t.task_index ${direction}`, params: [] };
    case "status":
      return by(STATUS_RANK);
    case "parameter": {
      // Every task has every parameter of its step: no empty values to put last, and one json_extract a row.
      const field = PARAMETER_FIELD[engine];
      const value = numeric ? `CAST(${field.sql} AS REAL)` : field.sql;
      return { order: `${value} ${direction}, t.task_index ASC`, params: [field.param(filter.parameter ?? "", "value")] };
    }
    case "worker":
      return by("COALESCE(w.name, t.worker_id)");
    case "startedAt":
      return by("t.started_at");
    case "duration":
      return by("COALESCE(t.ended_at, ?) - t.started_at", [now]);
    case "retries":
      return { order: `t.failure_count + t.interruption_count ${direction}, t.failure_count ${direction}, t.task_index ASC`, params: [] };
    case "message":
      return by("t.status_message");
    case "progress":
      return by("t.progress");
    case "session":
      return by("t.session_id");
  }
}

/**
 * One field of one task parameter in `t.parameters` (`{"F": {"type": "INT", "value": 3}}`), as
 * SQL with one placeholder and the value it binds: SQLite's json_extract takes a path; PostgreSQL
 * takes the parameter's name, the field fixed in the SQL.
 */
const PARAMETER_FIELD = perEngine((d) =>
  d.engine === "sqlite"
    ? { sql: "json_extract(t.parameters, ?)", param: (name: string, field: "type" | "value") => `$."${name}".${field}` }
    : { sql: "(CAST(t.parameters AS json) -> CAST(? AS text) ->> 'value')", param: (name: string, _field: "type" | "value") => name },
);

// A step's task parameter's type, from its first task (all of a step's tasks have the same parameters).
const PARAMETER_TYPE = perEngine((d) =>
  d.engine === "sqlite"
    ? "SELECT json_extract(parameters, ?) AS type FROM tasks WHERE step_id = ? ORDER BY task_index LIMIT 1"
    : "SELECT CAST(parameters AS json) -> CAST(? AS text) ->> 'type' AS type FROM tasks WHERE step_id = ? ORDER BY task_index LIMIT 1",
);
const FIRST_OPEN_ACTION = `SELECT a.kind, a.status, a.environment_id, a.started_at, s.name AS step_name FROM session_actions a LEFT JOIN steps s ON s.id = a.step_id
     WHERE a.session_id = ? AND a.status IN ('ASSIGNED', 'RUNNING') ORDER BY a.seq LIMIT 1`;
const LAST_EXIT_CODE = "SELECT exit_code FROM session_actions WHERE task_id = ? AND kind = 'TASK_RUN' AND ended_at IS NOT NULL ORDER BY ended_at DESC, seq DESC LIMIT 1";
const WAITING_TASK = "SELECT t.job_id, t.step_id, t.task_index, t.status, t.failure_count, t.waiting, w.name AS worker_name FROM tasks t LEFT JOIN workers w ON w.id = t.worker_id WHERE t.id = ?";
const READY_BEFORE = "SELECT COUNT(*) AS n FROM tasks WHERE step_id = ? AND status = 'READY' AND task_index < ?";

export const taskQueriesRepository = {
  /** A page of a step's tasks (with each one's worker's name) and how many the view holds; `now` measures running tasks' durations. */
  async page(tx: ReadTx, filter: TaskListFilter, now: number): Promise<{ total: number; rows: TaskPageRow[] }> {
    const where = ["t.step_id = ?"];
    const params: Array<string | number> = [filter.stepId];
    // Repeats change nothing but the statement's shape: dropped, so the shapes stay few.
    const statuses = [...new Set(filter.statuses ?? [])];
    if (statuses.length > 0) {
      where.push(`t.status IN (${statuses.map(() => "?").join(", ")})`);
      params.push(...statuses);
    }
    const total = (await tx.get<{ n: number }>(`SELECT COUNT(*) AS n FROM tasks t WHERE ${where.join(" AND ")}`, params))?.n ?? 0;
    const type =
      filter.sort === "parameter"
        ? ((await tx.get<{ type: string | null }>(PARAMETER_TYPE[tx.engine], [PARAMETER_FIELD[tx.engine].param(filter.parameter ?? "", "type"), filter.stepId]))?.type ?? null)
        : null;
    const order = taskOrder(tx.engine, filter, now, type !== null && NUMERIC_TYPES.has(type));
    const rows = await tx.all<TaskPageRow>(
      `SELECT t.id, t.task_index, t.parameters, t.status, t.worker_id, w.name AS worker_name, t.session_id, t.failure_count, t.interruption_count, t.progress, t.status_message, t.started_at, t.ended_at, t.retry_at, t.waiting
       FROM tasks t LEFT JOIN workers w ON w.id = t.worker_id WHERE ${where.join(" AND ")} ORDER BY ${order.order} LIMIT ? OFFSET ?`,
      [...params, ...order.params, filter.limit, filter.offset],
    );
    return { total, rows };
  },
  /** The first unfinished action of a Session (actions run in order). */
  openAction: (tx: ReadTx, sessionId: string): Promise<OpenActionRow | undefined> => tx.get<OpenActionRow>(FIRST_OPEN_ACTION, [sessionId]),
  /** The exit code of a task's last finished run (null: none, or it had none). */
  lastExitCode: async (tx: ReadTx, taskId: number): Promise<number | null> => (await tx.get<{ exit_code: number | null }>(LAST_EXIT_CODE, [taskId]))?.exit_code ?? null,
  /** A task as "why isn't this task running?" reads it, with its worker's name. */
  waitingTask: (tx: ReadTx, taskId: number): Promise<WaitingTaskRow | undefined> => tx.get<WaitingTaskRow>(WAITING_TASK, [taskId]),
  /** READY tasks of a step before `taskIndex` (the dispatcher takes a step's tasks in order). */
  readyBefore: async (tx: ReadTx, stepId: string, taskIndex: number): Promise<number> => (await tx.get<{ n: number }>(READY_BEFORE, [stepId, taskIndex]))?.n ?? 0,
};
