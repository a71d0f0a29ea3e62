/**
 * Applying what a worker reports about its actions (inside the sync transaction). Reports are
 * idempotent: an action that already ended keeps its first ending, and a task only follows its
 * action while it is still bound to that action's Session — a task a wrangler canceled or
 * requeued, or one handed to another worker after this one was declared lost, is never
 * completed twice.
 */
import type { ActionUpdate } from "../../lib/farm/protocol";
import { TERMINAL_ACTION_STATUSES, type ActionStatus } from "../../lib/farm/statuses";
import { retryDelayMs } from "../../lib/farm/retry";
import type { Tx } from "../store/engine/engine";
import { jobProgressRepository } from "../store/job-progress";
import { sessionsRepository } from "../store/sessions";
import { tasksRepository } from "../store/tasks";
import { afterFailure, afterInterruption } from "./plan";
import type { ActionRow, SessionRow, SessionStore } from "./session-store";
import type { TaskRow, TaskState } from "./task-state";
import type { WorkerFailures } from "./worker-failures";

export class UpdateApplier {
  constructor(
    private readonly sessions: SessionStore,
    private readonly tasks: TaskState,
    private readonly workerFailures: WorkerFailures,
    /** A retry was delayed until `at` (the farm wakes idle workers then). */
    private readonly onRetryDelayed: (at: number) => void = () => {},
  ) {}

  /** Applies one report from `session`'s worker; returns the job whose tasks may have changed. */
  async apply(tx: Tx, session: SessionRow, action: ActionRow, update: ActionUpdate, now: number): Promise<string | null> {
    if (TERMINAL_ACTION_STATUSES.has(action.status)) return null;
    const status: ActionStatus = update.status;
    const ended = TERMINAL_ACTION_STATUSES.has(status);
    await sessionsRepository.report(
      tx,
      action.id,
      status,
      update.exitCode ?? null,
      update.progress ?? null,
      update.statusMessage ?? null,
      update.failMessage ?? null,
      update.startedAt ?? (status === "RUNNING" ? now : null),
      ended ? (update.endedAt ?? now) : null,
    );
    if (ended && status !== "SUCCEEDED") {
      // OpenJD: any failure, cancel or timeout makes the Session terminal (only exits run now).
      if (session.state === "ACTIVE") {
        await this.sessions.setState(tx, session.id, "ENDING");
        session.state = "ENDING";
      }
      if (action.kind === "ENV_ENTER" && status !== "NEVER_ATTEMPTED" && status !== "CANCELED") await this.chargeQueuedTasks(tx, session, now);
    }
    // An environment starting to enter or exit changes what its queued tasks wait on (the job page shows it).
    if (action.kind !== "TASK_RUN" || action.task_id === null) return ended || (status === "RUNNING" && action.status !== "RUNNING") ? session.job_id : null;
    const task = await this.tasks.heldBy(tx, action.task_id, session.id);
    if (!task) return null;
    await this.followTask(tx, task, status, update, now, action.started_at);
    return task.job_id;
  }

  private async followTask(tx: Tx, task: TaskRow, status: ActionStatus, update: ActionUpdate, now: number, startedAtOf: number | null): Promise<void> {
    const progress = update.progress ?? undefined;
    const statusMessage = update.statusMessage ?? undefined;
    switch (status) {
      case "ASSIGNED":
        return;
      case "RUNNING":
        await this.tasks.change(tx, task, "RUNNING", { startedAt: update.startedAt ?? now, progress, statusMessage });
        return;
      case "SUCCEEDED": {
        const endedAt = update.endedAt ?? now;
        await this.tasks.change(tx, task, "SUCCEEDED", { endedAt, progress: 100, statusMessage, ...(update.startedAt ? { startedAt: update.startedAt } : {}) });
        // The step's average runtime decides how many of its tasks a worker may queue (taskBuffer).
        const startedAt = update.startedAt ?? startedAtOf ?? endedAt;
        this.tasks.addRuntime(tx, task.step_id, Math.max(0, endedAt - startedAt));
        return;
      }
      case "FAILED":
      case "TIMEOUT":
        // A failure reported with its start (a short task's RUNNING folded into its end) keeps that start, for its duration.
        await this.fail(tx, task, now, statusMessage ?? update.failMessage ?? undefined, update.startedAt ?? undefined, true, failureWords(status, update));
        return;
      case "NEVER_ATTEMPTED":
        // Not the task's fault (something before it failed, and was charged for it).
        await this.tasks.change(tx, task, "READY", { workerId: null, sessionId: null });
        return;
      case "CANCELED":
      case "INTERRUPTED":
        // Still bound to this Session, so no wrangler canceled it: the worker was drained or lost.
        await this.interrupt(tx, task);
        return;
    }
  }

  /**
   * A failed attempt: retry while the budget lasts, after the job's retry delay (doubling with each
   * failure) and preferably elsewhere; a task out of retries counts against the job. `chargeWorker`
   * false: the failure is counted against the worker once by the caller (a broken environment
   * fails every task queued behind it, but it is one failure of the worker).
   */
  private async fail(tx: Tx, task: TaskRow, now: number, statusMessage?: string, startedAt?: number, chargeWorker = true, why = statusMessage): Promise<void> {
    const limits = await jobProgressRepository.failurePolicy(tx, task.job_id);
    if (!limits) return;
    const failures = task.failure_count + 1;
    const next = afterFailure(failures, limits.max_retries_per_task);
    if (chargeWorker && task.worker_id !== null) await this.workerFailures.record(tx, task.job_id, task.worker_id, now, why ?? null, limits.max_worker_failures);
    const delay = retryDelayMs(limits.retry_delay_seconds, failures);
    const retryAt = next === "READY" && delay > 0 ? now + delay : null;
    // A task out of retries keeps its worker and Session, so a wrangler sees where it failed and opens its log.
    const released = next === "FAILED" ? (startedAt !== undefined ? { startedAt } : {}) : { workerId: null, sessionId: null, retryAt, lastFailedWorkerId: task.worker_id };
    await this.tasks.change(tx, task, next, { failureCount: failures, ...released, endedAt: next === "FAILED" ? now : null, statusMessage });
    if (retryAt !== null) this.onRetryDelayed(retryAt);
    if (next !== "FAILED") return;
    await jobProgressRepository.countFailedTask(tx, task.job_id);
    if (limits.failed_task_count + 1 > limits.max_failed_tasks) {
      // The job failed: nothing else of it starts (what runs finishes or is canceled by the wrangler).
      await tasksRepository.cancelWaiting(tx, task.job_id, now);
      for (const step of await jobProgressRepository.stepIds(tx, task.job_id)) await this.tasks.recountStep(tx, step.id);
    }
  }

  async interrupt(tx: Tx, task: TaskRow): Promise<void> {
    const interruptions = task.interruption_count + 1;
    await this.tasks.change(tx, task, afterInterruption(interruptions), { interruptionCount: interruptions, workerId: null, sessionId: null });
  }

  /**
   * An environment failed to enter: the tasks queued behind it in the Session are charged a failed
   * attempt (otherwise a broken environment would bounce the same task between workers forever).
   */
  private async chargeQueuedTasks(tx: Tx, session: SessionRow, now: number): Promise<void> {
    const message = "an environment of its Session failed to enter";
    const limits = await jobProgressRepository.failurePolicy(tx, session.job_id);
    if (limits) await this.workerFailures.record(tx, session.job_id, session.worker_id, now, message, limits.max_worker_failures);
    for (const queued of await this.sessions.openActions(tx, session.id)) {
      if (queued.kind !== "TASK_RUN" || queued.task_id === null) continue;
      const task = await this.tasks.heldBy(tx, queued.task_id, session.id);
      if (task) await this.fail(tx, task, now, message, undefined, false);
    }
  }
}

/** What a failed attempt is remembered by on its worker's failure row: its message, else its exit code or timeout. */
function failureWords(status: "FAILED" | "TIMEOUT", update: ActionUpdate): string | undefined {
  const message = update.statusMessage ?? update.failMessage;
  if (message) return message;
  if (status === "TIMEOUT") return "timed out";
  return update.exitCode !== null && update.exitCode !== undefined ? `exit code ${update.exitCode}` : undefined;
}
