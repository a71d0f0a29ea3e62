/**
 * A job's task-to-task dependencies resolved (TASK_DEPENDENCIES contract §2, §2.3): what job
 * creation hands to the store and to `loom run`. Plain data (typed arrays and numbers), so it
 * crosses from a check thread by structured clone.
 *
 * Steps are numbered in template order (a step row's step_index); tasks by their index in the
 * step's parameter space (a chunk of frames is one task, as on the task rows).
 */

/**
 * How one dependency of a step is kept:
 * - `step`: every task of the upstream step must succeed (no subspace, or a subspace that matched
 *   the whole upstream step for every downstream task): one gate on the step, no edges;
 * - `step-any`: `anyOf` over the whole upstream step: one gate on the step, open at the first success;
 * - `tasks`: `allOf` per task: each edge is a requirement of its downstream task;
 * - `tasks-any`: `anyOf` per task: the edges of one group, the downstream task needs one of them.
 */
export type DependencyKind = "step" | "step-any" | "tasks" | "tasks-any";

export interface ResolvedDependency {
  /** Position in the step template's `dependencies` list. */
  index: number;
  /** The upstream step's name, and its step index. */
  dependsOn: string;
  upstreamStep: number;
  /** The step waits for (some of) its own tasks. */
  self: boolean;
  kind: DependencyKind;
  /** What the portal and `loom summary` print for it: "whole step", "any task", "Frame = Task.Param.Frame - 1". */
  label: string;
  /** Edges this dependency adds after gates are collapsed (0 for the step kinds). */
  edges: number;
}

/**
 * Task-to-task edges, column-wise: edge `i` makes task `downTask[i]` of step `downStep[i]` wait
 * for task `upTask[i]` of step `upStep[i]`. `group[i]` is -1 for an all-of edge (a requirement by
 * itself) or an any-of group number, unique within the job: the downstream task needs one
 * edge of each of its groups met. Edges are unique (no two with the same four ends and group).
 */
export interface TaskEdges {
  length: number;
  downStep: Int32Array;
  downTask: Int32Array;
  upStep: Int32Array;
  upTask: Int32Array;
  group: Int32Array;
}

export interface TaskGraph {
  /** Per step index (template order), its dependencies as resolved; [] for a step without any. */
  steps: ResolvedDependency[][];
  edges: TaskEdges;
  /** Any-of groups (each is one requirement of its downstream task). */
  groupCount: number;
}

/** At most this many edges per job after gates are collapsed (contract §2.3). */
export const MAX_TASK_EDGES = 1_000_000;
