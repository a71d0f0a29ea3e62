/**
 * The task table's sort as a caller asks for it (the ORDER BY each key stands for is built in
 * server/store/task-queries.ts): the sort key, its direction, and the parameter to sort by.
 */
import { z } from "zod";
import { TASK_SORTS, type TaskSort } from "../store/task-queries";

export { TASK_SORTS, type TaskSort } from "../store/task-queries";

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
