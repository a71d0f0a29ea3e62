/**
 * What a wrangler operation applies to: a whole job, one step, or some tasks of one job. Checked
 * against the database (an unknown id is a NOT_FOUND, never a silent no-op) and turned into a
 * WHERE clause over `tasks`, which moveTasks walks in chunks (by id range, or slices of the given
 * ids) so a 1,000,000-task job never holds the event loop in one statement.
 */
import { z } from "zod";
import { TASK_STATUSES, type TaskStatus } from "../../lib/farm/statuses";
import { assertMoves } from "../../lib/farm/task-transitions";
import { AppError } from "./errors";
import type { Farm } from "./farm";
import { inSlices } from "./in-slices";

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
  /** Job (and step) clause; the given task ids are kept apart, to be walked in slices. */
  where: string;
  params: Array<string | number>;
  stepIds: string[];
  taskIds: number[] | null;
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
  let taskIds: number[] | null = null;
  if (target.taskIds) {
    taskIds = [...new Set(target.taskIds)].sort((a, b) => a - b);
    const found = countIn(farm, clauses, params, taskIds);
    if (found !== taskIds.length) throw new AppError("NOT_FOUND", `${taskIds.length - found} of the given tasks are not in job ${target.jobId}${target.stepId ? ` step ${target.stepId}` : ""}`);
  }
  return { jobId: target.jobId, where: clauses.join(" AND "), params, stepIds: steps, taskIds };
}

function countIn(farm: Farm, clauses: string[], params: Array<string | number>, ids: number[]): number {
  const row = farm.store.sqlite
    .prepare<unknown[], { n: number }>(`SELECT COUNT(*) AS n FROM tasks WHERE ${clauses.join(" AND ")} AND id IN (SELECT value FROM json_each(?))`)
    .get(...params, JSON.stringify(ids));
  return row?.n ?? 0;
}

/** Task ids per chunk: a chunk's UPDATE takes a few milliseconds; a slice runs several. */
const CHUNK_IDS = 1_000;

/**
 * The lowest and highest task id of a job. One index seek per status (the job/status index ends
 * in the rowid), where MIN(id) over the job alone would read every one of its index entries.
 */
export function taskIdBounds(farm: Farm, jobId: string): { low: number; high: number } | null {
  const sqlite = farm.store.sqlite;
  const min = sqlite.prepare<[string, string], { id: number | null }>("SELECT MIN(id) AS id FROM tasks WHERE job_id = ? AND status = ?");
  const max = sqlite.prepare<[string, string], { id: number | null }>("SELECT MAX(id) AS id FROM tasks WHERE job_id = ? AND status = ?");
  let low = Infinity;
  let high = -Infinity;
  for (const status of TASK_STATUSES) {
    low = Math.min(low, min.get(jobId, status)?.id ?? Infinity);
    high = Math.max(high, max.get(jobId, status)?.id ?? -Infinity);
  }
  return low === Infinity ? null : { low, high };
}

/** The target's chunks, each as the parameters of `<where> AND <chunk clause>`. */
function* chunksOf(farm: Farm, target: ResolvedTarget): Generator<Array<string | number>> {
  if (target.taskIds) {
    for (let i = 0; i < target.taskIds.length; i += CHUNK_IDS) yield [...target.params, JSON.stringify(target.taskIds.slice(i, i + CHUNK_IDS))];
    return;
  }
  const bounds = taskIdBounds(farm, target.jobId);
  if (!bounds) return;
  for (let low = bounds.low; low <= bounds.high; low += CHUNK_IDS) yield [...target.params, low, low + CHUNK_IDS - 1];
}

/**
 * Sets `to` on the target's tasks whose status is in `from`, chunk by chunk: each chunk's tasks
 * are counted by step and status, moved, and the step counts adjusted by that count; each slice
 * of chunks settles the job. Returns how many changed. Every status of `from` must be allowed to
 * move to `to` (lib/farm/task-transitions.ts), and each counted group is checked again on the way.
 */
export async function moveTasks(farm: Farm, target: ResolvedTarget, from: readonly TaskStatus[], to: TaskStatus, extra = ""): Promise<number> {
  assertMoves(from, to, "moveTasks");
  const sqlite = farm.store.sqlite;
  const where = `${target.where} AND ${target.taskIds ? "id IN (SELECT value FROM json_each(?))" : "id BETWEEN ? AND ?"} AND status IN (${from.map(() => "?").join(", ")})`;
  const count = sqlite.prepare<unknown[], { step_id: string; status: TaskStatus; n: number }>(`SELECT step_id, status, COUNT(*) AS n FROM tasks WHERE ${where} GROUP BY step_id, status`);
  const update = sqlite.prepare(`UPDATE tasks SET status = ?${extra} WHERE ${where}`);
  const chunks = chunksOf(farm, target);
  let changed = 0;
  await inSlices(
    (fn) => farm.store.transaction(fn),
    () => {
      const chunk = chunks.next();
      if (chunk.done) return false;
      const counted = count.all(...chunk.value, ...from);
      if (counted.length > 0) {
        changed += update.run(to, ...chunk.value, ...from).changes;
        for (const row of counted) farm.tasks.recordMove(row.step_id, row.status, to, row.n);
      }
      return true;
    },
    () => farm.tasks.settleJob(target.jobId, farm.now()),
  );
  return changed;
}
