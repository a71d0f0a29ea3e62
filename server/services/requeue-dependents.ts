/**
 * The dependents a requeue reaches (TASK_DEPENDENCIES contract §2.1): the tasks that the target's
 * succeeded tasks released through their edges, and those that these released in turn, that
 * have started or finished since (READY, running, ended: what a requeue moves). A wrangler sees
 * how many before requeuing (requeueDependents) and chooses to requeue them too (requeueTasks
 * `withDependents`); it never happens silently. A whole job has none outside itself.
 */
import { movableTo } from "../../lib/farm/task-transitions";
import type { Farm } from "../context/farm";
import type { ReadTx } from "../store/repository";
import { stepIndexIn } from "../store/task-edges";
import { taskDependencyQueriesRepository, type ReachedTaskRow } from "../store/task-dependency-queries";
import { resolveTarget, type ResolvedTarget, type TaskTarget } from "./task-target";

const REQUEUED: ReadonlySet<string> = new Set(movableTo("PENDING", "requeue"));
/** Tasks per frontier statement. */
const FRONTIER_CHUNK = 500;

/** The ids of the target's released dependents outside the target, in the order they were reached. */
export async function dependentsOf(tx: ReadTx, target: ResolvedTarget): Promise<number[]> {
  const { jobId } = target;
  if (target.stepId === undefined && target.taskIds === null) return [];
  const seen = new Set<string>();
  const key = (step: number, task: number) => `${step}:${task}`;
  // Only a whole step is requeued with its own tasks: chosen tasks of a step (the portal sends
  // their step too) have dependents in that same step.
  const targetStep = target.stepId === undefined || target.taskIds !== null ? undefined : stepIndexIn(jobId, target.stepId);
  const frontier: Array<[number, number]> = [];
  let reached: ReachedTaskRow[] = [];
  if (target.taskIds) {
    for (let i = 0; i < target.taskIds.length; i += FRONTIER_CHUNK) {
      for (const task of await taskDependencyQueriesRepository.places(tx, jobId, target.taskIds.slice(i, i + FRONTIER_CHUNK))) {
        seen.add(key(task.step_index, task.task_index));
        frontier.push([task.step_index, task.task_index]);
      }
    }
  } else if (targetStep !== undefined) {
    reached = await taskDependencyQueriesRepository.reachedFromStep(tx, jobId, targetStep);
  }
  const dependents: number[] = [];
  for (;;) {
    const next: Array<[number, number]> = [];
    for (const task of reached) {
      const k = key(task.step_index, task.task_index);
      // A task of the target step is requeued with it; its own dependents were reached from the step.
      if (seen.has(k) || task.step_index === targetStep) continue;
      seen.add(k);
      if (REQUEUED.has(task.status)) dependents.push(task.id);
      next.push([task.step_index, task.task_index]);
    }
    frontier.push(...next);
    if (frontier.length === 0) return dependents;
    const chunk = frontier.splice(0, FRONTIER_CHUNK);
    reached = await taskDependencyQueriesRepository.reachedFromTasks(tx, jobId, JSON.stringify(chunk));
  }
}

/** How many released dependents a requeue of the target would leave as they are (or requeue with `withDependents`). */
export async function requeueDependents(farm: Farm, target: TaskTarget): Promise<{ dependents: number }> {
  return farm.store.read(async (tx) => ({ dependents: (await dependentsOf(tx, await resolveTarget(tx, farm, target))).length }), { consistent: true });
}
