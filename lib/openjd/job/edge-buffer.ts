/**
 * Task-to-task edges as they are found, in growing typed columns. Past the job's cap edges are
 * still counted (the refusal names the count) but no longer stored, so a runaway subspace costs
 * time, never memory.
 */
import type { TaskEdges } from "./task-graph-types";

export class EdgeBuffer {
  /** Edges found so far, stored or not; the first `min(count, max)` are stored. */
  count = 0;
  groups = 0;
  #capacity = 0;
  #downStep = new Int32Array(0);
  #downTask = new Int32Array(0);
  #upStep = new Int32Array(0);
  #upTask = new Int32Array(0);
  #group = new Int32Array(0);

  constructor(readonly max: number) {}

  get overflowed(): boolean {
    return this.count > this.max;
  }

  get stored(): number {
    return Math.min(this.count, this.max);
  }

  newGroup(): number {
    return this.groups++;
  }

  push(downStep: number, downTask: number, upStep: number, upTask: number, group: number): void {
    const at = this.count++;
    if (at >= this.max) return;
    if (at === this.#capacity) this.#grow();
    this.#downStep[at] = downStep;
    this.#downTask[at] = downTask;
    this.#upStep[at] = upStep;
    this.#upTask[at] = upTask;
    this.#group[at] = group;
  }

  /** Edges to every upstream task `0 … upCount-1` but `except`; only counted once past the cap. */
  pushAll(downStep: number, downTask: number, upStep: number, upCount: number, group: number, except = -1): void {
    for (let upTask = 0; upTask < upCount; upTask++) {
      if (this.count >= this.max) {
        this.count += upCount - upTask - (except >= upTask && except < upCount ? 1 : 0);
        return;
      }
      if (upTask !== except) this.push(downStep, downTask, upStep, upTask, group);
    }
  }

  /** Forgets the edges found after the first `count`. */
  truncate(count: number): void {
    this.count = Math.min(this.count, count);
  }

  downTask(i: number): number {
    return this.#downTask[i]!;
  }

  upTask(i: number): number {
    return this.#upTask[i]!;
  }

  group(i: number): number {
    return this.#group[i]!;
  }

  finish(): TaskEdges {
    const length = this.stored;
    return {
      length,
      downStep: this.#downStep.slice(0, length),
      downTask: this.#downTask.slice(0, length),
      upStep: this.#upStep.slice(0, length),
      upTask: this.#upTask.slice(0, length),
      group: this.#group.slice(0, length),
    };
  }

  #grow(): void {
    this.#capacity = Math.min(Math.max(1024, this.#capacity * 2), this.max);
    const grow = (old: Int32Array) => {
      const next = new Int32Array(this.#capacity);
      next.set(old);
      return next;
    };
    this.#downStep = grow(this.#downStep);
    this.#downTask = grow(this.#downTask);
    this.#upStep = grow(this.#upStep);
    this.#upTask = grow(this.#upTask);
    this.#group = grow(this.#group);
  }
}
