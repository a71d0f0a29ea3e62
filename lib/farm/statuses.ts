/**
 * The farm's vocabularies (DESIGN.md "Vocabulary"), as data: task run statuses (their allowed
 * transitions are in task-transitions.ts), the roll-up of task counts to steps and jobs, Session
 * action kinds and statuses, worker statuses. Shared by the scheduler, the services, the API and
 * the portal.
 */

export const TASK_STATUSES = ["PENDING", "READY", "ASSIGNED", "RUNNING", "SUSPENDED", "CANCELED", "FAILED", "SUCCEEDED", "NOT_COMPATIBLE"] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** Statuses a task does not leave without a wrangler's action (requeue, retry), or, NOT_COMPATIBLE, a matching worker coming (task-transitions.ts). */
export const TERMINAL_TASK_STATUSES: ReadonlySet<TaskStatus> = new Set(["CANCELED", "FAILED", "SUCCEEDED", "NOT_COMPATIBLE"]);

/** A task in one of these holds (or is about to hold) a worker. */
export const ACTIVE_TASK_STATUSES: ReadonlySet<TaskStatus> = new Set(["ASSIGNED", "RUNNING"]);

export type StatusCounts = Record<TaskStatus, number>;

export function emptyCounts(): StatusCounts {
  return Object.fromEntries(TASK_STATUSES.map((s) => [s, 0])) as StatusCounts;
}

/**
 * The status a step or job shows for its task counts: what it is doing if anything (running,
 * assigned, ready), else why it is stopped (failed tasks — dependents behind them can never run —,
 * no compatible worker, suspended, waiting on dependencies), else how it ended. With no tasks at
 * all (a step whose tasks are not there yet) it is PENDING: nothing has succeeded, and a step
 * that rolled up SUCCEEDED would release its dependents.
 */
export const ROLL_UP_ORDER: readonly TaskStatus[] = ["RUNNING", "ASSIGNED", "READY", "FAILED", "NOT_COMPATIBLE", "SUSPENDED", "PENDING", "CANCELED", "SUCCEEDED"];

export function rollUpStatus(counts: Readonly<StatusCounts>): TaskStatus {
  return ROLL_UP_ORDER.find((status) => counts[status] > 0) ?? "PENDING";
}

/** Job lifecycle settings a wrangler controls (the roll-up above is what it shows). */
export const JOB_INITIAL_STATES = ["READY", "SUSPENDED"] as const;
export type JobInitialState = (typeof JOB_INITIAL_STATES)[number];

export const ACTION_KINDS = ["ENV_ENTER", "TASK_RUN", "ENV_EXIT"] as const;
export type ActionKind = (typeof ACTION_KINDS)[number];

export const ACTION_STATUSES = ["ASSIGNED", "RUNNING", "SUCCEEDED", "FAILED", "CANCELED", "INTERRUPTED", "NEVER_ATTEMPTED", "TIMEOUT"] as const;
export type ActionStatus = (typeof ACTION_STATUSES)[number];

export const TERMINAL_ACTION_STATUSES: ReadonlySet<ActionStatus> = new Set(["SUCCEEDED", "FAILED", "CANCELED", "INTERRUPTED", "NEVER_ATTEMPTED", "TIMEOUT"]);

export const SESSION_STATES = ["ACTIVE", "ENDING", "ENDED"] as const;
export type SessionState = (typeof SESSION_STATES)[number];

export const WORKER_STATUSES = ["STARTED", "IDLE", "RUNNING", "STOPPING", "STOPPED", "NOT_RESPONDING"] as const;
export type WorkerStatus = (typeof WORKER_STATUSES)[number];

/** How an admin asked a worker to stop taking work. */
export const DRAIN_MODES = ["AFTER_TASK", "NOW"] as const;
export type DrainMode = (typeof DRAIN_MODES)[number];
