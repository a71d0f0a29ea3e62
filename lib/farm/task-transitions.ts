/**
 * The task state machine as data: every move of a task's status the farm makes, with the farm
 * event that makes it. Every change of `tasks.status` — one task (TaskState.change), a batch
 * (assign, release) or a wrangler's bulk move (task-target.ts's moveTasks) — is checked against
 * it, and a move not in it throws TransitionRefused (its transaction rolls back). The from-status
 * lists of bulk moves are derived from it (movableTo), so a list and the table cannot disagree.
 *
 * Tasks are created in one of INITIAL_TASK_STATUSES (persist-job.ts); a "move" to the status a
 * task already has (a patch of its other columns) is always allowed.
 */
import { TASK_STATUSES, type TaskStatus } from "./statuses";

/** What makes a task move. */
export const TASK_EVENTS = [
  /** Every step the step depends on succeeded (TaskState.settleJob). */
  "release",
  /** A worker's sync took the task into a Session (Dispatcher). */
  "claim",
  /** The worker reported its run started. */
  "start",
  /** The worker reported it succeeded (a short run's start may come folded into its end). */
  "succeed",
  /** A failed or timed-out run, or an environment before it that failed to enter: READY while retries last, else FAILED. */
  "fail",
  /** The worker reported the run never attempted (something before it in the Session failed). */
  "not-attempted",
  /** Its worker went silent, was removed, or registered again: READY on the interruption budget, else FAILED. */
  "worker-lost",
  /** Its worker held it ASSIGNED past assignedTimeoutSeconds without starting anything. */
  "assigned-timeout",
  /** Its worker was drained now or disabled and canceled the run (or reported it interrupted). */
  "drain",
  /** A wrangler canceled it. */
  "cancel",
  /** Its job failed (more failed tasks than it allows): what waits is canceled. */
  "job-failed",
  /** A wrangler suspended it (a running one is canceled on its worker). */
  "suspend",
  "resume",
  /** A wrangler requeued it: run again from the start, whatever it was doing. */
  "requeue",
  /** A wrangler retried the failed tasks. */
  "retry",
  /** No worker of an enabled pool meets its step's host requirements. */
  "not-compatible",
  /** A worker that meets them came (or its pool was enabled). */
  "compatible-again",
] as const;
export type TaskEvent = (typeof TASK_EVENTS)[number];

export interface TaskTransition {
  from: TaskStatus;
  to: TaskStatus;
  why: TaskEvent;
}

/** The statuses a task is created in: held, waiting for a compatible worker, waiting on dependencies, or ready. */
export const INITIAL_TASK_STATUSES: readonly TaskStatus[] = ["SUSPENDED", "NOT_COMPATIBLE", "PENDING", "READY"];

/** A run in a Session, as the worker's reports move it. */
const HELD: readonly TaskStatus[] = ["ASSIGNED", "RUNNING"];
/** Waiting for a worker (not in a Session). */
const WAITING: readonly TaskStatus[] = ["PENDING", "READY"];

function moves(from: readonly TaskStatus[], to: TaskStatus, why: TaskEvent): TaskTransition[] {
  return from.map((f) => ({ from: f, to, why }));
}

export const TASK_TRANSITIONS: readonly TaskTransition[] = Object.freeze([
  ...moves(["PENDING"], "READY", "release"),
  ...moves(["READY"], "ASSIGNED", "claim"),
  ...moves(["ASSIGNED"], "RUNNING", "start"),
  ...moves(HELD, "SUCCEEDED", "succeed"),
  ...moves(HELD, "READY", "fail"),
  ...moves(HELD, "FAILED", "fail"),
  ...moves(HELD, "READY", "not-attempted"),
  ...moves(HELD, "READY", "worker-lost"),
  ...moves(HELD, "FAILED", "worker-lost"),
  ...moves(["ASSIGNED"], "READY", "assigned-timeout"),
  ...moves(["ASSIGNED"], "FAILED", "assigned-timeout"),
  ...moves(HELD, "READY", "drain"),
  ...moves(HELD, "FAILED", "drain"),
  ...moves([...WAITING, ...HELD, "SUSPENDED", "NOT_COMPATIBLE"], "CANCELED", "cancel"),
  ...moves([...WAITING, "SUSPENDED", "NOT_COMPATIBLE"], "CANCELED", "job-failed"),
  ...moves([...WAITING, ...HELD], "SUSPENDED", "suspend"),
  ...moves(["SUSPENDED"], "PENDING", "resume"),
  ...moves(["READY", ...HELD, "SUCCEEDED", "FAILED", "CANCELED", "NOT_COMPATIBLE"], "PENDING", "requeue"),
  ...moves(["FAILED"], "PENDING", "retry"),
  ...moves(WAITING, "NOT_COMPATIBLE", "not-compatible"),
  ...moves(["NOT_COMPATIBLE"], "PENDING", "compatible-again"),
]);

/** from → the statuses it may move to (same status excluded: always allowed). */
export const ALLOWED_MOVES: Readonly<Record<TaskStatus, ReadonlySet<TaskStatus>>> = (() => {
  const allowed = Object.fromEntries(TASK_STATUSES.map((s) => [s, new Set<TaskStatus>()])) as Record<TaskStatus, Set<TaskStatus>>;
  for (const { from, to } of TASK_TRANSITIONS) allowed[from].add(to);
  return Object.freeze(allowed);
})();

/** Whether a task may move from one status to another (a Set lookup: cheap enough for every change). */
export function canMove(from: TaskStatus, to: TaskStatus): boolean {
  return from === to || ALLOWED_MOVES[from]?.has(to) === true;
}

/** A change of task status the state machine does not allow. */
export class TransitionRefused extends Error {
  constructor(
    readonly from: TaskStatus,
    readonly to: TaskStatus,
    readonly context?: string,
  ) {
    super(`task status ${from} → ${to} is not an allowed move${context ? ` (${context})` : ""}`);
    this.name = "TransitionRefused";
  }
}

export function assertMove(from: TaskStatus, to: TaskStatus, context?: string): void {
  if (!canMove(from, to)) throw new TransitionRefused(from, to, context);
}

/** For a bulk move: every status of `from` may move to `to`. */
export function assertMoves(from: readonly TaskStatus[], to: TaskStatus, context?: string): void {
  for (const status of from) assertMove(status, to, context);
}

/** The statuses that move to `to` on `why` (any event when omitted), in vocabulary order: a bulk move's from-list. */
export function movableTo(to: TaskStatus, why?: TaskEvent): TaskStatus[] {
  const from = new Set(TASK_TRANSITIONS.filter((t) => t.to === to && (why === undefined || t.why === why)).map((t) => t.from));
  return TASK_STATUSES.filter((s) => from.has(s));
}

/** The events that move a task from one status to another (none: not allowed). */
export function eventsOf(from: TaskStatus, to: TaskStatus): TaskEvent[] {
  return TASK_TRANSITIONS.filter((t) => t.from === from && t.to === to).map((t) => t.why);
}
