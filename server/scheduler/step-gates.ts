/**
 * A step's gates (TASK_DEPENDENCIES contract §2.3): the dependencies that hold all its tasks at
 * once. `step` opens when every task of the upstream step has succeeded, `step-any` at the
 * upstream step's first success. A step's dependency on itself is never a gate (its tasks wait
 * on each other by edges), nor is a per-task one (`tasks`, `tasks-any`: edges and groups).
 */
import type { ResolvedDependency } from "../../lib/openjd";

export function stepGates(dependencies: readonly ResolvedDependency[]): ResolvedDependency[] {
  return dependencies.filter((d) => !d.self && (d.kind === "step" || d.kind === "step-any"));
}

/** Whether a gate is open, given its upstream step's task count and successes (undefined: no such step, never open). */
export function gateOpen(gate: ResolvedDependency, upstream: { taskCount: number; succeeded: number } | undefined): boolean {
  if (!upstream) return false;
  // A step with no tasks (yet) has not succeeded: what waits for it keeps waiting.
  return gate.kind === "step-any" ? upstream.succeeded > 0 : upstream.taskCount > 0 && upstream.succeeded === upstream.taskCount;
}
