/**
 * What a wrangler operation applies to: a whole job, one step, or some tasks of one job (or of one
 * of its steps). Checked against the database (an unknown id is a NOT_FOUND, never a silent
 * no-op), then moved by moveTasks in chunks (by id range, or slices of the given ids), a slice of
 * chunks per unit of work, so a 1,000,000-task job never holds the event loop in one statement.
 */
import { z } from "zod";
import type { TaskStatus } from "../../lib/farm/statuses";
import { assertMoves } from "../../lib/farm/task-transitions";
import type { ReadTx, Tx } from "../store/repository";
import { taskEdgesRepository } from "../store/task-edges";
import { taskMovesRepository, type AlsoSet, type MovedGroup, type SucceededTask, type TaskMove } from "../store/task-moves";
import { AppError } from "../context/errors";
import type { Farm } from "../context/farm";
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
  /** The one step it names, if it does. */
  stepId: string | undefined;
  stepIds: string[];
  /** The given task ids, sorted and without repeats (walked in slices); null for every task. */
  taskIds: number[] | null;
  /** Tasks of the job moved with the target, wherever they are (a requeue's dependents: requeue-tasks.ts). */
  alsoTaskIds?: number[];
}

export async function resolveTarget(tx: ReadTx, _farm: Farm, target: TaskTarget): Promise<ResolvedTarget> {
  if (!(await taskMovesRepository.jobExists(tx, target.jobId))) throw new AppError("NOT_FOUND", `no job ${target.jobId}`);
  const stepIds = await taskMovesRepository.stepIdsOf(tx, target.jobId);
  let steps = stepIds;
  if (target.stepId !== undefined) {
    if (!stepIds.includes(target.stepId)) throw new AppError("NOT_FOUND", `job ${target.jobId} has no step ${target.stepId}`);
    steps = [target.stepId];
  }
  let taskIds: number[] | null = null;
  if (target.taskIds) {
    taskIds = [...new Set(target.taskIds)].sort((a, b) => a - b);
    const found = await taskMovesRepository.countListed(tx, target.jobId, target.stepId, taskIds);
    if (found !== taskIds.length) throw new AppError("NOT_FOUND", `${taskIds.length - found} of the given tasks are not in job ${target.jobId}${target.stepId ? ` step ${target.stepId}` : ""}`);
  }
  return { jobId: target.jobId, stepId: target.stepId, stepIds: steps, taskIds };
}

/** Task ids per chunk: a chunk's UPDATE takes a few milliseconds; a slice runs several. */
const CHUNK_IDS = 1_000;

/** The lowest and highest task id of a job (null: it has no tasks). */
export function taskIdBounds(tx: ReadTx, _farm: Farm, jobId: string): Promise<{ low: number; high: number } | null> {
  return taskMovesRepository.taskIdBounds(tx, jobId);
}

/** One chunk of a target: counts its tasks that would move, and moves them. */
interface Chunk {
  count(tx: Tx): Promise<MovedGroup[]>;
  move(tx: Tx): Promise<number>;
  /** Its SUCCEEDED tasks. */
  succeeded(tx: Tx): Promise<SucceededTask[]>;
}

/** Listed tasks of the job (anywhere in it), a chunk per CHUNK_IDS. */
function listedInJob(jobId: string, taskIds: readonly number[], move: TaskMove): Chunk[] {
  const chunks: Chunk[] = [];
  for (let i = 0; i < taskIds.length; i += CHUNK_IDS) {
    const ids = taskIds.slice(i, i + CHUNK_IDS);
    chunks.push({ count: (tx) => move.countListedInJob(tx, jobId, ids), move: (tx) => move.moveListedInJob(tx, jobId, ids), succeeded: (tx) => move.succeededListedInJob(tx, jobId, ids) });
  }
  return chunks;
}

/** The target's chunks, each through the move's statements for the target's shape (the job's task id bounds read through `read`). */
async function chunksOf(read: ReadTx, farm: Farm, target: ResolvedTarget, move: TaskMove): Promise<Chunk[]> {
  const { jobId, stepId, taskIds } = target;
  const also = listedInJob(jobId, target.alsoTaskIds ?? [], move);
  if (taskIds) {
    if (stepId === undefined) return [...listedInJob(jobId, taskIds, move), ...also];
    const chunks: Chunk[] = [];
    for (let i = 0; i < taskIds.length; i += CHUNK_IDS) {
      const ids = taskIds.slice(i, i + CHUNK_IDS);
      chunks.push({
        count: (tx) => move.countListedInStep(tx, jobId, stepId, ids),
        move: (tx) => move.moveListedInStep(tx, jobId, stepId, ids),
        succeeded: (tx) => move.succeededListedInStep(tx, jobId, stepId, ids),
      });
    }
    return [...chunks, ...also];
  }
  const chunks: Chunk[] = [];
  const bounds = await taskIdBounds(read, farm, jobId);
  if (!bounds) return also;
  for (let low = bounds.low; low <= bounds.high; low += CHUNK_IDS) {
    const high = low + CHUNK_IDS - 1;
    chunks.push(
      stepId === undefined
        ? { count: (tx) => move.countInJob(tx, jobId, low, high), move: (tx) => move.moveInJob(tx, jobId, low, high), succeeded: (tx) => move.succeededInJob(tx, jobId, low, high) }
        : {
            count: (tx) => move.countInStep(tx, jobId, stepId, low, high),
            move: (tx) => move.moveInStep(tx, jobId, stepId, low, high),
            succeeded: (tx) => move.succeededInStep(tx, jobId, stepId, low, high),
          },
    );
  }
  return [...chunks, ...also];
}

/**
 * Sets `to` on the target's tasks whose status is in `from`, chunk by chunk: each chunk's tasks
 * are counted by step and status, moved, and the step counts adjusted by that count; each slice
 * of chunks (a unit of work) settles the job. Returns how many changed. Every status of `from`
 * must be allowed to move to `to` (lib/farm/task-transitions.ts), and each counted group is
 * checked again on the way. `also` says what else the move sets (store/task-moves.ts); `endedAt`
 * is the time `"end"` sets. A move out of SUCCEEDED (a requeue) first takes back what the
 * target's succeeded tasks released (TaskState.unrelease, every chunk before any moves), when the
 * job has task-to-task edges.
 */
export async function moveTasks(farm: Farm, target: ResolvedTarget, from: readonly TaskStatus[], to: TaskStatus, also: AlsoSet = "nothing", endedAt?: number): Promise<number> {
  assertMoves(from, to, "moveTasks");
  const move = taskMovesRepository.move(from, to, also, endedAt);
  // Listed in the first slice's unit; `next` and `changed` go back with a slice that rolls back.
  let chunks: Chunk[] | null = null;
  let unreleases: boolean | null = null;
  let next = 0;
  let changed = 0;
  await inSlices(
    (fn) => farm.store.transaction(fn),
    async (tx) => {
      chunks ??= await chunksOf(tx, farm, target, move);
      // A job's edges are written with it: whether it has any is known once.
      unreleases ??= from.includes("SUCCEEDED") && to !== "SUCCEEDED" && (await taskEdgesRepository.hasEdges(tx, target.jobId));
      // With edges, every chunk's releases are taken back before any task moves: a dependent met
      // in an earlier chunk than its upstream would otherwise be made READY again by the slice's
      // settle while its upstream still counted as succeeded.
      const passes = unreleases ? 2 : 1;
      if (next >= passes * chunks.length) return false;
      const unreleasing = unreleases && next < chunks.length;
      const chunk = chunks[next % chunks.length]!;
      next++;
      if (unreleasing) {
        await farm.tasks.unrelease(tx, target.jobId, await chunk.succeeded(tx));
        return true;
      }
      const counted = await chunk.count(tx);
      if (counted.length > 0) {
        changed += await chunk.move(tx);
        for (const row of counted) farm.tasks.recordMove(tx, row.step_id, row.status, to, row.n);
      }
      return true;
    },
    {
      start: (tx) => {
        const [nextBefore, changedBefore] = [next, changed];
        tx.onRollback(() => {
          next = nextBefore;
          changed = changedBefore;
        });
      },
      end: (tx) => farm.tasks.settleJob(tx, target.jobId, farm.now()),
    },
  );
  return changed;
}
