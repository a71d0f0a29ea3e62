/**
 * What a wrangler operation applies to: a whole job, one step, or some tasks of one job. Checked
 * against the database (an unknown id is a NOT_FOUND, never a silent no-op) and turned into a
 * WHERE clause over `tasks`.
 */
import { z } from "zod";
import { AppError } from "./errors";
import type { Farm } from "./farm";

export const taskTarget = z.object({
  jobId: z.string().min(1).max(100),
  stepId: z.string().min(1).max(200).optional(),
  taskIds: z.array(z.number().int().nonnegative()).min(1).max(100_000).optional(),
});
export type TaskTarget = z.infer<typeof taskTarget>;

/** What an audit row says a target was (a step, a number of tasks, or the whole job). */
export function describeTarget(target: TaskTarget): { step?: string; tasks?: number } {
  return { ...(target.stepId ? { step: target.stepId } : {}), ...(target.taskIds ? { tasks: target.taskIds.length } : {}) };
}

export interface ResolvedTarget {
  jobId: string;
  where: string;
  params: Array<string | number>;
  stepIds: string[];
}

export function resolveTarget(farm: Farm, target: TaskTarget): ResolvedTarget {
  const sqlite = farm.store.sqlite;
  if (!sqlite.prepare("SELECT 1 FROM jobs WHERE id = ?").get(target.jobId)) throw new AppError("NOT_FOUND", `no job ${target.jobId}`);
  const stepIds = sqlite.prepare<[string], { id: string }>("SELECT id FROM steps WHERE job_id = ?").all(target.jobId).map((s) => s.id);
  const clauses = ["job_id = ?"];
  const params: Array<string | number> = [target.jobId];
  let steps = stepIds;
  if (target.stepId !== undefined) {
    if (!stepIds.includes(target.stepId)) throw new AppError("NOT_FOUND", `job ${target.jobId} has no step ${target.stepId}`);
    clauses.push("step_id = ?");
    params.push(target.stepId);
    steps = [target.stepId];
  }
  if (target.taskIds) {
    const ids = [...new Set(target.taskIds)];
    const found = ids.length === 0 ? 0 : countIn(farm, clauses, params, ids);
    if (found !== ids.length) throw new AppError("NOT_FOUND", `${ids.length - found} of the given tasks are not in job ${target.jobId}${target.stepId ? ` step ${target.stepId}` : ""}`);
    clauses.push(`id IN (SELECT value FROM json_each(?))`);
    params.push(JSON.stringify(ids));
  }
  return { jobId: target.jobId, where: clauses.join(" AND "), params, stepIds: steps };
}

function countIn(farm: Farm, clauses: string[], params: Array<string | number>, ids: number[]): number {
  const row = farm.store.sqlite
    .prepare<unknown[], { n: number }>(`SELECT COUNT(*) AS n FROM tasks WHERE ${clauses.join(" AND ")} AND id IN (SELECT value FROM json_each(?))`)
    .get(...params, JSON.stringify(ids));
  return row?.n ?? 0;
}

/** Sets `to` on the target's tasks whose status is in `from`; recounts and settles; returns how many changed. */
export function moveTasks(farm: Farm, target: ResolvedTarget, from: readonly string[], to: string, extra = ""): number {
  const sqlite = farm.store.sqlite;
  const placeholders = from.map(() => "?").join(", ");
  const changes = sqlite
    .prepare(`UPDATE tasks SET status = ?${extra} WHERE ${target.where} AND status IN (${placeholders})`)
    .run(to, ...target.params, ...from).changes;
  for (const stepId of target.stepIds) farm.tasks.recountStep(stepId);
  farm.tasks.settleJob(target.jobId, farm.now());
  return changes;
}
