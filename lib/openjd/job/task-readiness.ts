/**
 * Which tasks may start, given which have succeeded, read from a TaskGraph as the scheduler reads
 * it: a task is ready when every gate on its step is open (`step`: the upstream step finished,
 * `step-any`: one of its tasks succeeded), every all-of edge's upstream task succeeded and every
 * any-of group has one that did. Pure and in memory: `loom run` orders tasks with it, and the
 * tests check the graph against the contract's meaning with it.
 */
import { MinHeap } from "../min-heap";
import type { TaskGraph } from "./task-graph-types";

interface Gate {
  down: number;
  any: boolean;
  open: boolean;
}

export class TaskReadiness {
  readonly #counts: readonly number[];
  readonly #offsets: number[];
  /** Per task: its all-of edges and any-of groups not met yet. */
  readonly #needs: Int32Array;
  readonly #done: Uint8Array;
  /** Per step: gates not open yet, tasks done. */
  readonly #gatesLeft: Int32Array;
  readonly #doneCount: Int32Array;
  readonly #gatesFrom: Gate[][];
  /** Per upstream task, the edges leaving it (CSR). */
  readonly #firstEdge: Int32Array;
  readonly #edgeList: Int32Array;
  readonly #groupMet: Uint8Array;

  constructor(
    private readonly graph: TaskGraph,
    taskCounts: readonly number[],
  ) {
    this.#counts = taskCounts;
    this.#offsets = [0];
    for (const count of taskCounts) this.#offsets.push(this.#offsets.at(-1)! + count);
    const total = this.#offsets.at(-1)!;
    this.#needs = new Int32Array(total);
    this.#done = new Uint8Array(total);
    this.#gatesLeft = new Int32Array(taskCounts.length);
    this.#doneCount = new Int32Array(taskCounts.length);
    this.#gatesFrom = taskCounts.map(() => []);
    this.#groupMet = new Uint8Array(graph.groupCount);
    graph.steps.forEach((dependencies, down) => {
      for (const d of dependencies) {
        if ((d.kind !== "step" && d.kind !== "step-any") || d.upstreamStep < 0) continue;
        this.#gatesLeft[down]!++;
        this.#gatesFrom[d.upstreamStep]!.push({ down, any: d.kind === "step-any", open: false });
      }
    });
    const { edges } = graph;
    const groupCounted = new Uint8Array(graph.groupCount);
    this.#firstEdge = new Int32Array(total + 1);
    for (let e = 0; e < edges.length; e++) {
      const group = edges.group[e]!;
      const down = this.#id(edges.downStep[e]!, edges.downTask[e]!);
      if (group === -1) this.#needs[down]!++;
      else if (!groupCounted[group]) {
        groupCounted[group] = 1;
        this.#needs[down]!++;
      }
      this.#firstEdge[this.#id(edges.upStep[e]!, edges.upTask[e]!) + 1]!++;
    }
    for (let i = 0; i < total; i++) this.#firstEdge[i + 1]! += this.#firstEdge[i]!;
    this.#edgeList = new Int32Array(edges.length);
    const fill = this.#firstEdge.slice(0, total);
    for (let e = 0; e < edges.length; e++) this.#edgeList[fill[this.#id(edges.upStep[e]!, edges.upTask[e]!)]!++] = e;
  }

  isDone(step: number, task: number): boolean {
    return this.#done[this.#id(step, task)] === 1;
  }

  /** Not done, and everything it waits for has succeeded. */
  isReady(step: number, task: number): boolean {
    const id = this.#id(step, task);
    return this.#done[id] === 0 && this.#needs[id] === 0 && this.#gatesLeft[step] === 0;
  }

  /** Records a success; returns the tasks of other rows it released (for finding ready ones fast). */
  succeed(step: number, task: number): Array<[number, number]> {
    const id = this.#id(step, task);
    if (this.#done[id]) return [];
    this.#done[id] = 1;
    const released: Array<[number, number]> = [];
    const { edges } = this.graph;
    for (let k = this.#firstEdge[id]!; k < this.#firstEdge[id + 1]!; k++) {
      const e = this.#edgeList[k]!;
      const group = edges.group[e]!;
      if (group !== -1) {
        if (this.#groupMet[group]) continue;
        this.#groupMet[group] = 1;
      }
      const downStep = edges.downStep[e]!;
      const downTask = edges.downTask[e]!;
      if (--this.#needs[this.#id(downStep, downTask)]! === 0) released.push([downStep, downTask]);
    }
    const doneCount = ++this.#doneCount[step]!;
    for (const gate of this.#gatesFrom[step]!) {
      if (gate.open || (!gate.any && doneCount < this.#counts[step]!)) continue;
      gate.open = true;
      this.#gatesLeft[gate.down]!--;
    }
    return released;
  }

  #id(step: number, task: number): number {
    return this.#offsets[step]! + task;
  }
}

/**
 * The order to run one step's tasks in when everything it needs from other steps is done: a
 * topological order of its own task-to-task edges that is parameter-space order wherever they
 * allow (the smallest ready index first). Tasks that could never run (a refused graph) come last.
 */
export function taskOrder(graph: TaskGraph | null, step: number, taskCount: number): number[] {
  const own = graph?.steps[step]?.some((d) => d.self) ? graph : null;
  if (!own) return Array.from({ length: taskCount }, (_, i) => i);
  const counts = own.steps.map((_, s) => (s === step ? taskCount : 0));
  const selfOnly: TaskGraph = { ...own, steps: own.steps.map(() => []), edges: selfEdges(own, step) };
  const readiness = new TaskReadiness(selfOnly, counts);
  const heap = new MinHeap();
  for (let task = 0; task < taskCount; task++) if (readiness.isReady(step, task)) heap.push(task);
  const order: number[] = [];
  for (let task = heap.pop(); task !== undefined; task = heap.pop()) {
    order.push(task);
    for (const [, released] of readiness.succeed(step, task)) heap.push(released);
  }
  // Job creation refuses every graph whose tasks wait for each other: a task left over is a bug, never run out of order.
  if (order.length < taskCount) throw new Error(`step ${step}: ${taskCount - order.length} of its ${taskCount} tasks never become ready`);
  return order;
}

function selfEdges(graph: TaskGraph, step: number): TaskGraph["edges"] {
  const { edges } = graph;
  const keep: number[] = [];
  for (let e = 0; e < edges.length; e++) if (edges.downStep[e] === step && edges.upStep[e] === step) keep.push(e);
  const pick = (column: Int32Array) => Int32Array.from(keep, (e) => column[e]!);
  return { length: keep.length, downStep: pick(edges.downStep), downTask: pick(edges.downTask), upStep: pick(edges.upStep), upTask: pick(edges.upTask), group: pick(edges.group) };
}
