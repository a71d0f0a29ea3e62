/**
 * What holds a step's PENDING tasks back: each dependency that has not fully succeeded, as the
 * step graph, the step panel and the "why isn't it running?" answer say it. A dependency with
 * failed, canceled or incompatible tasks can never complete without a wrangler (a retry, a
 * requeue), so it blocks for good; otherwise it is still under way.
 */
import type { StatusCounts } from "./statuses";

export interface BlockerStep {
  name: string;
  dependencies: readonly string[];
  counts: Readonly<StatusCounts>;
  taskCount: number;
}

export type StepBlocker =
  | { kind: "waiting"; step: string; succeeded: number; taskCount: number }
  /** `why` names the first status that stops it, in the order a wrangler acts on them. */
  | { kind: "blocked"; step: string; why: "failed" | "canceled" | "not compatible"; count: number };

const STOPPERS = [
  ["FAILED", "failed"],
  ["CANCELED", "canceled"],
  ["NOT_COMPATIBLE", "not compatible"],
] as const;

/** The dependencies of `step` that keep it waiting (none once they all succeeded, or when it has none). */
export function stepBlockers(step: BlockerStep, steps: readonly BlockerStep[]): StepBlocker[] {
  const byName = new Map(steps.map((s) => [s.name, s]));
  const blockers: StepBlocker[] = [];
  for (const name of step.dependencies) {
    const dependency = byName.get(name);
    if (!dependency || dependency.counts.SUCCEEDED === dependency.taskCount) continue;
    const stopper = STOPPERS.find(([status]) => dependency.counts[status] > 0);
    blockers.push(
      stopper
        ? { kind: "blocked", step: name, why: stopper[1], count: dependency.counts[stopper[0]] }
        : { kind: "waiting", step: name, succeeded: dependency.counts.SUCCEEDED, taskCount: dependency.taskCount },
    );
  }
  return blockers;
}

/** One short line for a graph node or step header: "blocked: Render failed", "waiting for Render (40/200)". */
export function blockerNote(blockers: readonly StepBlocker[]): string | null {
  if (blockers.length === 0) return null;
  const blocked = blockers.filter((b) => b.kind === "blocked");
  if (blocked.length > 0) return `blocked: ${blocked.map((b) => `${b.step} ${b.why}`).join(", ")}`;
  return `waiting for ${blockers.map((b) => (b.kind === "waiting" ? `${b.step} (${b.succeeded.toLocaleString("en")}/${b.taskCount.toLocaleString("en")})` : b.step)).join(", ")}`;
}

/** The note of a step that has PENDING tasks; null for any other. */
export function pendingStepNote(step: BlockerStep, steps: readonly BlockerStep[]): string | null {
  return step.counts.PENDING > 0 ? blockerNote(stepBlockers(step, steps)) : null;
}
