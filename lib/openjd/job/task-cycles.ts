/**
 * Deadlocks among one step's own tasks (TASK_DEPENDENCIES §2.3). The step graph without
 * self-dependencies is acyclic, so only edges within a step can close a cycle. Tasks are
 * released Kahn-style (an any-of group by its first released member); whatever is never released
 * waits, directly or not, on a cycle, and one is found by walking from a stuck task to a stuck
 * task it needs.
 */
import type { EdgeBuffer } from "./edge-buffer";

/** Edge index ranges `[start, end)` of the buffer holding the step's self edges. */
export type EdgeRange = readonly [number, number];

/** One cycle of tasks (rows), each waiting for the next, the first repeated at the end; null when none. */
export function findTaskCycle(edges: EdgeBuffer, ranges: readonly EdgeRange[], rowCount: number): number[] | null {
  const needs = new Int32Array(rowCount);
  const requirements: number[][] = Array.from({ length: rowCount }, () => []);
  const dependents: number[][] = Array.from({ length: rowCount }, () => []);
  const groupsCounted = new Set<number>();
  for (const [start, end] of ranges) {
    for (let e = start; e < end; e++) {
      const down = edges.downTask(e);
      const group = edges.group(e);
      if (group === -1 || !groupsCounted.has(group)) needs[down]!++;
      if (group !== -1) groupsCounted.add(group);
      requirements[down]!.push(e);
      dependents[edges.upTask(e)]!.push(e);
    }
  }
  const released = new Uint8Array(rowCount);
  const metGroups = new Set<number>();
  const queue: number[] = [];
  for (let row = 0; row < rowCount; row++) if (needs[row] === 0) queue.push(row);
  for (let head = 0; head < queue.length; head++) {
    const up = queue[head]!;
    released[up] = 1;
    for (const e of dependents[up]!) {
      const group = edges.group(e);
      if (group !== -1) {
        if (metGroups.has(group)) continue;
        metGroups.add(group);
      }
      const down = edges.downTask(e);
      if (--needs[down]! === 0) queue.push(down);
    }
  }
  if (queue.length === rowCount) return null;
  const waitsFor = (row: number): number => {
    // A stuck task has an unmet requirement: an all-of edge to a stuck task, or a group of stuck tasks only.
    for (const e of requirements[row]!) {
      const group = edges.group(e);
      if (!released[edges.upTask(e)] && (group === -1 || !metGroups.has(group))) return edges.upTask(e);
    }
    throw new Error(`task ${row} is stuck without an unmet requirement`);
  };
  const position = new Map<number, number>();
  const path: number[] = [];
  let row = released.indexOf(0);
  while (!position.has(row)) {
    position.set(row, path.length);
    path.push(row);
    row = waitsFor(row);
  }
  const cycle = path.slice(position.get(row));
  return [...cycle, row];
}
