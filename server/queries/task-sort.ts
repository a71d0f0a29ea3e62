/**
 * How the task table sorts a step's tasks, server-side (it pages 100,000-task steps, so a sort in
 * the browser would only order the rows it holds). Every column sorts; empty values (no worker,
 * not started) go last both ways, and ties keep task order, so paging is stable.
 */
import { z } from "zod";
import { TASK_STATUSES } from "../../lib/farm/statuses";

export const TASK_SORTS = ["index", "status", "parameter", "worker", "startedAt", "duration", "retries", "message", "progress", "session"] as const;
export type TaskSort = (typeof TASK_SORTS)[number];

/** OpenJD identifiers (spec §1: `[A-Za-z_][A-Za-z0-9_]*`, at most 64 characters); bound, never spliced into SQL. */
const parameterName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, "a task parameter name (letters, digits, _)");

export const taskSortFields = {
  sort: z.enum(TASK_SORTS).default("index"),
  /** The task parameter to sort by, with sort "parameter". */
  parameter: parameterName.optional(),
  direction: z.enum(["asc", "desc"]).default("asc"),
};

/** A sort by parameter names its parameter (zod refine: the error sits on `parameter`). */
export function requireSortParameter(input: { sort: TaskSort; parameter?: string | undefined }, ctx: z.RefinementCtx): void {
  if (input.sort === "parameter" && input.parameter === undefined) ctx.addIssue({ code: "custom", path: ["parameter"], message: 'sort "parameter" needs the parameter\'s name' });
}

/** Lifecycle order (TASK_STATUSES), not alphabetical: Pending … Succeeded. */
const STATUS_RANK = `CASE t.status ${TASK_STATUSES.map((s, i) => `WHEN '${s}' THEN ${i}`).join(" ")} END`;

/** Parameter types whose values sort as numbers (a chunk's "1-10" by its first frame); the rest as text. */
const NUMERIC_TYPES: ReadonlySet<string> = new Set(["INT", "FLOAT", "CHUNK[INT]"]);

/**
 * The ORDER BY of a task page over `tasks t LEFT JOIN workers w`, and its bound values. `now`
 * measures running tasks' durations; `parameterType` is the sorted parameter's type (every task
 * of a step has the same parameters, so it is read once, and each row costs one json_extract).
 */
export function taskOrder(
  input: { sort: TaskSort; parameter?: string | undefined; direction: "asc" | "desc" },
  now: number,
  parameterType: string | null = null,
): { order: string; params: Array<string | number> } {
  const direction = input.direction === "asc" ? "ASC" : "DESC";
  // Empty values last whichever the direction, then task order for ties; the key is written twice, so are its values.
  const by = (key: string, params: Array<string | number> = []) => ({ order: `(${key}) IS NULL, ${key} ${direction}, t.task_index ASC`, params: [...params, ...params] });
  switch (input.sort) {
    case "index":
      return { order: `t.task_index ${direction}`, params: [] };
    case "status":
      return by(STATUS_RANK);
    case "parameter": {
      // Every task has every parameter of its step: no empty values to put last, and one json_extract a row.
      const value = parameterType !== null && NUMERIC_TYPES.has(parameterType) ? "CAST(json_extract(t.parameters, ?) AS REAL)" : "json_extract(t.parameters, ?)";
      return { order: `${value} ${direction}, t.task_index ASC`, params: [`$."${input.parameter ?? ""}".value`] };
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
