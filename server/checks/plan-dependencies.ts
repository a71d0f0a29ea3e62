/**
 * A job's task-to-task dependencies (lib/openjd TaskGraph) as the store writes them: each step's
 * resolved dependencies (for its row), how many of its tasks start out waiting on others, and,
 * walked in batches like the tasks, each waiting task's count of unmet requirements and the
 * edges and any-of groups as JSON array texts that SQL unpacks (json_each, json_array_elements).
 * Pure, and run on the check thread: the server's event loop never walks an edge.
 */
import type { StoredDependency } from "../../lib/farm/task-dependencies";
import type { Job, JobStep } from "../../lib/openjd";
import type { ResolvedDependency, TaskGraph } from "../../lib/openjd";

/** A step's dependencies as 2023-09 has them (no subspace): each a whole-step gate. */
function wholeStepDependencies(step: JobStep, indexOf: ReadonlyMap<string, number>): ResolvedDependency[] {
  return step.dependencies.map((name, index) => ({ index, dependsOn: name, upstreamStep: indexOf.get(name) ?? -1, self: name === step.name, kind: "step", label: "whole step", edges: 0 }));
}

/** Each step's resolved dependencies, in template order (`steps` is the job's steps in that order). */
export function resolvedDependencies(job: Job, steps: readonly JobStep[]): ResolvedDependency[][] {
  const graph = job.taskGraph;
  const indexOf = new Map(steps.map((s, i) => [s.name, i]));
  return steps.map((step, index) => graph?.steps[index] ?? wholeStepDependencies(step, indexOf));
}

/** Per step index, each task's unmet requirements at the start (all-of edges, any-of groups); steps no edge waits in are absent. */
export type WaitingCounts = ReadonlyMap<number, Int32Array>;

const waitingMemo = new WeakMap<TaskGraph, WaitingCounts>();

/** Each downstream task's requirements: one per all-of edge, one per any-of group (counted once, at its first edge). */
export function waitingCounts(graph: TaskGraph, taskCounts: readonly number[]): WaitingCounts {
  const known = waitingMemo.get(graph);
  if (known) return known;
  const counts = new Map<number, Int32Array>();
  const seenGroup = new Uint8Array(graph.groupCount);
  const { edges } = graph;
  for (let i = 0; i < edges.length; i++) {
    const group = edges.group[i]!;
    if (group >= 0) {
      if (seenGroup[group]) continue;
      seenGroup[group] = 1;
    }
    const step = edges.downStep[i]!;
    let perTask = counts.get(step);
    if (!perTask) counts.set(step, (perTask = new Int32Array(taskCounts[step] ?? 0)));
    perTask[edges.downTask[i]!]! += 1;
  }
  waitingMemo.set(graph, counts);
  return counts;
}

/** How many tasks of each step start out waiting on other tasks (index: step index). */
export function waitingTaskCounts(counts: WaitingCounts | null, stepCount: number): number[] {
  return Array.from({ length: stepCount }, (_, step) => {
    const perTask = counts?.get(step);
    let n = 0;
    if (perTask) for (const w of perTask) if (w > 0) n++;
    return n;
  });
}

/**
 * The waiting tasks among `count` tasks of a step from `first`: per number of requirements, the
 * task indexes as a JSON array text (one UPDATE each; most steps have one number, 1). Null when
 * none of them waits.
 */
export function waitingRows(perTask: Int32Array | undefined, first: number, count: number): Array<[number, string]> | null {
  if (!perTask) return null;
  const byCount = new Map<number, number[]>();
  for (let task = first; task < first + count; task++) {
    const n = perTask[task]!;
    if (n === 0) continue;
    let indexes = byCount.get(n);
    if (!indexes) byCount.set(n, (indexes = []));
    indexes.push(task);
  }
  if (byCount.size === 0) return null;
  return [...byCount].map(([n, indexes]) => [n, JSON.stringify(indexes)]);
}

/** Edges and any-of groups per JSON text: one INSERT … SELECT each, a few milliseconds. */
export const EDGE_CHUNK_ROWS = 2_000;

/**
 * A job's edges and any-of groups, about `rows` edges at a time: `edges` as JSON array texts of
 * `[upStep, upTask, downStep, downTask, group]`, `groups` (each once, with the batch that holds
 * its first edge) of `[group, downStep, downTask]`.
 */
export interface EdgeBatch {
  kind: "edges";
  edges: string[];
  groups: string[];
}

export function* edgeBatches(graph: TaskGraph, rows: number): Generator<EdgeBatch> {
  const { edges } = graph;
  const seenGroup = new Uint8Array(graph.groupCount);
  for (let first = 0; first < edges.length; first += rows) {
    const end = Math.min(edges.length, first + rows);
    const batch: EdgeBatch = { kind: "edges", edges: [], groups: [] };
    let groups: number[][] = [];
    for (let from = first; from < end; from += EDGE_CHUNK_ROWS) {
      const chunk: number[][] = [];
      for (let i = from; i < Math.min(end, from + EDGE_CHUNK_ROWS); i++) {
        const group = edges.group[i]!;
        chunk.push([edges.upStep[i]!, edges.upTask[i]!, edges.downStep[i]!, edges.downTask[i]!, group]);
        if (group >= 0 && !seenGroup[group]) {
          seenGroup[group] = 1;
          groups.push([group, edges.downStep[i]!, edges.downTask[i]!]);
          if (groups.length === EDGE_CHUNK_ROWS) {
            batch.groups.push(JSON.stringify(groups));
            groups = [];
          }
        }
      }
      batch.edges.push(JSON.stringify(chunk));
    }
    if (groups.length > 0) batch.groups.push(JSON.stringify(groups));
    yield batch;
  }
}

/** The store keeps ResolvedDependency under lib/farm's name for it: this fails to compile when the two shapes part. */
type SameShape<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameShape: SameShape<StoredDependency, ResolvedDependency> = true;
void sameShape;
