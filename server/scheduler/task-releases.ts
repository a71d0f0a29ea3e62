/**
 * Task-to-task releases (TASK_DEPENDENCIES), in the unit of work that records the success:
 *
 * 1. the task's edges are marked met, those not met yet coming back (one UPDATE … RETURNING:
 *    none for a task nothing waits on, one index lookup);
 * 2. their any-of groups count one more met edge; a group opens when its count goes 0 → 1;
 * 3. each downstream task's `waiting` goes down by its all-of edges and opened groups;
 * 4. a PENDING task whose `waiting` reached 0 becomes READY once its step's gates are open.
 *
 * Why nothing is released twice, or never, when units run at once on PostgreSQL (READ COMMITTED):
 * every count is changed by arithmetic in an UPDATE that returns the row as that UPDATE left it.
 * A second unit changing the same row waits for the first to commit and is then evaluated on
 * the row's latest version, so of the units that complete a fan-in's upstream tasks exactly one
 * sees `waiting` reach 0 (or a group's count reach 1), and only that one releases; the task row
 * stays locked by it until it commits. Rows are locked in one order (groups by number, then
 * steps and tasks by index), so such units queue instead of deadlocking. The gates (steps'
 * counts) are read FOR SHARE: a unit that is changing a gate step's counts (the upstream's last
 * success, settleJob) either committed before (its counts are read) or waits for this unit to
 * commit, and then its own settleJob finds the task PENDING with `waiting` 0 (releasePending
 * releases only those). On SQLite units take turns.
 *
 * A requeue of a succeeded task reverses it all: its met edges are unmet, groups whose count goes
 * back to 0 close, downstream `waiting` goes up, and a dependent still READY goes back to PENDING
 * (one that ran keeps its status: the wrangler requeues it with its upstream, or not).
 */
import type { TaskStatus } from "../../lib/farm/statuses";
import type { ResolvedDependency } from "../../lib/openjd";
import type { Tx } from "../store/engine/engine";
import { dependenciesOf, stepIdOf, stepIndexIn, taskEdgesRepository, type EdgeEnd } from "../store/task-edges";
import { gateOpen, stepGates } from "./step-gates";

/** What a release records of its moves (TaskState). */
export interface MoveRecorder {
  recordMove(tx: Tx, stepId: string, from: TaskStatus, to: TaskStatus, n: number): void;
  /** Writes the unit's gathered count changes (before gate counts are read). */
  flushCounts(tx: Tx): Promise<void>;
}

/** A task as a release names it. */
export interface UpstreamTask {
  job_id: string;
  step_id: string;
  task_index: number;
}

/** Gates per step (`<job id>:<step index>`): a job's dependencies never change, so any unit may reuse them. */
const gateCache = new Map<string, ResolvedDependency[]>();
const GATE_CACHE_SIZE = 4096;

async function gatesOf(tx: Tx, jobId: string, stepIndex: number): Promise<ResolvedDependency[]> {
  const key = stepIdOf(jobId, stepIndex);
  let gates = gateCache.get(key);
  if (gates) return gates;
  const row = await taskEdgesRepository.stepDependencies(tx, jobId, stepIndex);
  gates = row ? stepGates(dependenciesOf(row)) : [];
  if (gateCache.size >= GATE_CACHE_SIZE) gateCache.clear();
  gateCache.set(key, gates);
  return gates;
}

async function gatesOpen(tx: Tx, moves: MoveRecorder, jobId: string, stepIndex: number): Promise<boolean> {
  const gates = await gatesOf(tx, jobId, stepIndex);
  if (gates.length === 0) return true;
  // This unit's own successes count too (the upstream's last one may be the task just released from).
  await moves.flushCounts(tx);
  const upstream = new Map((await taskEdgesRepository.gateSteps(tx, jobId, [...new Set(gates.map((g) => g.upstreamStep))])).map((s) => [s.step_index, s]));
  return gates.every((gate) => {
    const step = upstream.get(gate.upstreamStep);
    return gateOpen(gate, step && { taskCount: step.task_count, succeeded: step.count_succeeded });
  });
}

async function stepIndexOf(tx: Tx, task: UpstreamTask): Promise<number | undefined> {
  return stepIndexIn(task.job_id, task.step_id) ?? (await taskEdgesRepository.stepIndex(tx, task.step_id));
}

/** Keys grouped by their value: `{a: 1, b: 2, c: 1}` → `1: [a, c], 2: [b]` (one statement per value). */
function byValue<K>(values: ReadonlyMap<K, number>): Map<number, K[]> {
  const grouped = new Map<number, K[]>();
  for (const [key, value] of values) {
    const keys = grouped.get(value);
    if (keys) keys.push(key);
    else grouped.set(value, [key]);
  }
  return grouped;
}

/**
 * Per downstream step, per task index: the requirements that were met (or unmet) by these edges,
 * steps and tasks in ascending order. Groups change first, each one's count in one statement per
 * amount; on PostgreSQL they are locked in group order first (task-edges.ts lockGroups).
 */
async function requirementsChanged(tx: Tx, jobId: string, ends: readonly EdgeEnd[], direction: 1 | -1): Promise<Array<[number, Map<number, number>]>> {
  const changed = new Map<number, Map<number, number>>();
  const add = (step: number, task: number) => {
    let tasks = changed.get(step);
    if (!tasks) changed.set(step, (tasks = new Map()));
    tasks.set(task, (tasks.get(task) ?? 0) + 1);
  };
  const groupEdges = new Map<number, number>();
  for (const end of ends) {
    if (end.group_no < 0) add(end.down_step, end.down_task);
    else groupEdges.set(end.group_no, (groupEdges.get(end.group_no) ?? 0) + 1);
  }
  if (groupEdges.size > 0) await taskEdgesRepository.lockGroups(tx, jobId, JSON.stringify([...groupEdges.keys()].sort(ascending)));
  for (const [by, groups] of byValue(groupEdges)) {
    for (const group of await taskEdgesRepository.addToGroups(tx, jobId, direction * by, JSON.stringify(groups))) {
      // Opened: its count went from 0 to `by`; closed: back to 0.
      if (group.met_count === (direction > 0 ? by : 0)) add(group.down_step, group.down_task);
    }
  }
  return [...changed].sort(([a], [b]) => a - b);
}

const ascending = (a: number, b: number) => a - b;

/** A step's changed tasks locked in task order (PostgreSQL), then grouped by how much each one's `waiting` changes. */
async function lockedByAmount(tx: Tx, stepId: string, tasks: ReadonlyMap<number, number>): Promise<Map<number, number[]>> {
  await taskEdgesRepository.lockTasks(tx, stepId, JSON.stringify([...tasks.keys()].sort(ascending)));
  return byValue(tasks);
}

/** The task succeeded: its edges are met, and what waited only on them (and on open gates) becomes READY. */
export async function releaseAfterSuccess(tx: Tx, moves: MoveRecorder, task: UpstreamTask): Promise<void> {
  const upStep = await stepIndexOf(tx, task);
  if (upStep === undefined) return;
  const ends = await taskEdgesRepository.release(tx, task.job_id, upStep, task.task_index);
  if (ends.length === 0) return;
  const jobId = task.job_id;
  for (const [step, tasks] of await requirementsChanged(tx, jobId, ends, 1)) {
    const stepId = stepIdOf(jobId, step);
    const ready: number[] = [];
    for (const [by, indexes] of await lockedByAmount(tx, stepId, tasks)) {
      for (const t of await taskEdgesRepository.addWaiting(tx, stepId, -by, JSON.stringify(indexes))) if (t.waiting === 0 && t.status === "PENDING") ready.push(t.id);
    }
    if (ready.length === 0 || !(await gatesOpen(tx, moves, jobId, step))) continue;
    moves.recordMove(tx, stepId, "PENDING", "READY", await taskEdgesRepository.releaseTasks(tx, JSON.stringify(ready)));
  }
}

/**
 * These succeeded tasks of one job are about to be requeued: their edges are unmet, and what they
 * had released waits again (a dependent still READY goes back to PENDING).
 */
export async function reverseReleases(tx: Tx, moves: MoveRecorder, jobId: string, upstream: ReadonlyArray<Omit<UpstreamTask, "job_id">>): Promise<void> {
  const pairs: Array<[number, number]> = [];
  for (const task of upstream) {
    const step = await stepIndexOf(tx, { ...task, job_id: jobId });
    if (step !== undefined) pairs.push([step, task.task_index]);
  }
  if (pairs.length === 0) return;
  const ends = await taskEdgesRepository.unmeet(tx, jobId, JSON.stringify(pairs));
  if (ends.length === 0) return;
  for (const [step, tasks] of await requirementsChanged(tx, jobId, ends, -1)) {
    const stepId = stepIdOf(jobId, step);
    for (const [by, indexes] of await lockedByAmount(tx, stepId, tasks)) {
      const json = JSON.stringify(indexes);
      moves.recordMove(tx, stepId, "READY", "PENDING", await taskEdgesRepository.holdReady(tx, stepId, json));
      await taskEdgesRepository.addWaiting(tx, stepId, by, json);
    }
  }
}
