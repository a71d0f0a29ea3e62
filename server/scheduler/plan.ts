/**
 * The scheduler's pure decision core (CONVENTIONS rule 6): what a worker should do next, how a
 * Session's environment stack changes between steps, and what becomes of a task after a failed
 * or interrupted attempt. No I/O, no clock: the shell (server/services/sync-worker.ts) gathers
 * the facts, calls these and applies the result in one transaction.
 */
import { type HostRequirements, matchHostRequirements, type WorkerCapabilities } from "../../lib/openjd";

/** A step with READY tasks, as the dispatcher sees it. */
export interface CandidateStep {
  stepId: string;
  jobId: string;
  priority: number;
  /** Submission order of the job. */
  jobSeq: number;
  stepIndex: number;
  hostRequirements: HostRequirements | null;
  /** Session stack entry ids, outermost first. */
  stack: readonly string[];
  /** Average runtime of its successful tasks so far (null before the first). */
  averageRuntimeMs?: number | null;
  /** Tasks of it assigned or running now. */
  inFlight?: number;
}

export interface HeldSession {
  jobId: string;
  priority: number;
  jobSeq: number;
  /** The stack as it will be once every issued action has run. */
  stack: readonly string[];
  /** A failure or cancel made it terminal: it may only exit its environments now. */
  ending: boolean;
  /** Opened ahead of submission order to measure its step (probeTarget). */
  probe?: boolean;
}

export interface WorkerView {
  capabilities: WorkerCapabilities;
  /** Draining (admin, or the worker is shutting down) or disabled: no new work. */
  acceptsWork: boolean;
}

export type Decision =
  | { kind: "idle" }
  /** Run a task of `step` in the held Session (exit/enter only what differs). */
  | { kind: "continue"; step: CandidateStep }
  /** Exit every environment of the held Session and end it. */
  | { kind: "end" }
  /** Open a new Session for `step`'s job (no Session is held); `probe` when ahead of order (probeTarget). */
  | { kind: "start"; step: CandidateStep; probe: boolean };

/** Dispatch order: priority (higher first), then submission, then step order. */
function compareCandidates(a: CandidateStep, b: CandidateStep): number {
  return b.priority - a.priority || a.jobSeq - b.jobSeq || a.stepIndex - b.stepIndex;
}

/**
 * What one worker does next. A held Session keeps receiving tasks of its job (preferring a step
 * with the same environment stack, so nothing is exited and entered again) until its job has no
 * compatible ready task or a job of strictly higher priority has one; then it ends, and the next
 * sync starts a Session for the best job (anchors-scheduling §0 items 8–9).
 */
export function decide(worker: WorkerView, held: HeldSession | null, candidates: readonly CandidateStep[]): Decision {
  const compatible = candidates.filter((c) => matchHostRequirements(c.hostRequirements, worker.capabilities).ok);
  if (held) {
    if (held.ending || !worker.acceptsWork) return { kind: "end" };
    const mine = compatible.filter((c) => c.jobId === held.jobId).sort((a, b) => sameStack(b.stack, held.stack) - sameStack(a.stack, held.stack) || a.stepIndex - b.stepIndex);
    // A probe goes back to submission order once its step is measured: an earlier job of its
    // priority with work wins over keeping the Session, as a higher priority does for everyone.
    const better = compatible.some((c) => c.jobId !== held.jobId && (c.priority > held.priority || (held.probe === true && c.priority === held.priority && c.jobSeq < held.jobSeq)));
    const next = mine[0];
    return next && !better ? { kind: "continue", step: next } : { kind: "end" };
  }
  if (!worker.acceptsWork) return { kind: "idle" };
  const ordered = [...compatible].sort(compareCandidates);
  const best = ordered[0];
  if (!best) return { kind: "idle" };
  const probe = probeTarget(ordered, best);
  return probe ? { kind: "start", step: probe, probe: true } : { kind: "start", step: best, probe: false };
}

/**
 * Probing ahead. A step whose runtime is not known yet goes one task per assignment (taskBuffer),
 * so workers arriving together at a new job would each take one task of it — a round trip per
 * task — before its first result sets the buffer. While such a first task is out, a worker opening
 * a Session instead takes the first task of the next unmeasured step of the same priority: every
 * new step is measured at once, by one task run ahead of submission order, after which that
 * Session yields to the earlier jobs (decide's `better`). Each new job's first task running early
 * also shows its artist a failing template within one task's time.
 */
function probeTarget(ordered: readonly CandidateStep[], best: CandidateStep): CandidateStep | null {
  if (!probing(best)) return null;
  return ordered.find((c) => c.priority === best.priority && unmeasured(c) && !probing(c)) ?? null;
}

function unmeasured(step: CandidateStep): boolean {
  return step.averageRuntimeMs === null || step.averageRuntimeMs === undefined;
}

function probing(step: CandidateStep): boolean {
  return unmeasured(step) && (step.inFlight ?? 0) > 0;
}

function sameStack(a: readonly string[], b: readonly string[]): number {
  return a.length === b.length && a.every((id, i) => id === b[i]) ? 1 : 0;
}

/**
 * How many tasks of a step a worker receives at once. Short tasks one per round trip would spend
 * more time syncing than working (anchors-scheduling §5: a spawn alone is 12–25 ms here), so a
 * worker may queue up to TASK_BUFFER_SECONDS of them, judged by the step's average successful
 * runtime so far; long tasks, and a step with no runtime known yet, go one at a time. A failure
 * ends the Session: its queued tasks come back READY without being charged.
 */
const TASK_BUFFER_SECONDS = 2;
const MAX_TASK_BUFFER = 64;
export function taskBuffer(averageRuntimeMs: number | null): number {
  if (averageRuntimeMs === null) return 1;
  return Math.max(1, Math.min(MAX_TASK_BUFFER, Math.floor((TASK_BUFFER_SECONDS * 1000) / Math.max(averageRuntimeMs, 1))));
}

/** Environments to exit (innermost first) and to enter (outermost first) to go from `current` to `wanted`. */
export function stackPlan(current: readonly string[], wanted: readonly string[]): { exit: string[]; enter: string[] } {
  let common = 0;
  while (common < current.length && common < wanted.length && current[common] === wanted[common]) common++;
  return { exit: current.slice(common).reverse(), enter: wanted.slice(common) };
}

/** After a failed attempt (non-zero exit, timeout): retry while the budget lasts. */
export function afterFailure(failureCount: number, maxRetriesPerTask: number): "READY" | "FAILED" {
  return failureCount <= maxRetriesPerTask ? "READY" : "FAILED";
}

/**
 * After an attempt lost to infrastructure (worker lost, drained now, launch failure): requeue on
 * a separate, larger budget, so a task that keeps killing workers still ends (Arvados's
 * MaxDispatchAttempts, anchors-scheduling §0 item 11).
 */
export const MAX_INTERRUPTIONS = 10;
export function afterInterruption(interruptionCount: number): "READY" | "FAILED" {
  return interruptionCount <= MAX_INTERRUPTIONS ? "READY" : "FAILED";
}

/**
 * Why no worker of the enabled pools can run a step, or null when one can. With no worker known
 * at all nothing is decided yet (a pool may be starting): the step waits instead.
 */
export function incompatibility(requirements: HostRequirements | null, workers: readonly WorkerCapabilities[]): string | null {
  if (workers.length === 0) return null;
  const reasons = new Map<string, number>();
  for (const capabilities of workers) {
    const match = matchHostRequirements(requirements, capabilities);
    if (match.ok) return null;
    for (const reason of match.reasons) reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  }
  const shown = [...reasons].sort((a, b) => b[1] - a[1]).map(([reason]) => reason);
  return `no worker of an enabled pool matches its host requirements (${workers.length} checked): ${shown.slice(0, 3).join("; ")}`;
}
