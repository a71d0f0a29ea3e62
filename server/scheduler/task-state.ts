/**
 * Task status changes and the counts they roll up into. Every change of a task's status goes
 * through here, inside a unit of work (store.transaction), so the per-status counts on
 * its step and job (what dashboards read) never drift from the task rows. Single changes adjust
 * the counts; bulk changes adjust them by the grouped count of the rows they moved (a step of
 * 1,000,000 tasks is never recounted while a wrangler's chunked change walks it). The statements
 * are server/store's (tasks.ts, job-progress.ts); the moves' checks and the roll-ups are here.
 */
import { ACTIVE_TASK_STATUSES, emptyCounts, rollUpStatus, TASK_STATUSES, type TaskStatus } from "../../lib/farm/statuses";
import { canMove, TransitionRefused } from "../../lib/farm/task-transitions";
import type { Store } from "../db/connection";
import { countsFromRow } from "../db/status-counts";
import { jobProgressRepository } from "../store/job-progress";
import { tasksRepository, type TaskPatch, type TaskRow } from "../store/tasks";

export type { TaskPatch, TaskRow } from "../store/tasks";

export class TaskState {
  private readonly rows;
  private readonly progress;

  constructor(store: Store) {
    this.rows = tasksRepository(store);
    this.progress = jobProgressRepository(store);
    // Count changes wait in memory for the unit's commit (or the next savepoint), and die with its rollback.
    store.writeBehind({ flush: () => this.flushCounts(), forget: () => this.forgetCounts() });
  }

  /**
   * The task while it still runs under this Session (ASSIGNED or RUNNING); undefined once a
   * wrangler canceled, suspended or requeued it, or it went to another worker: only then may
   * what the Session reports about it change it.
   */
  heldBy(taskId: number, sessionId: string): TaskRow | undefined {
    const task = this.rows.byId(taskId);
    return task && task.session_id === sessionId && ACTIVE_TASK_STATUSES.has(task.status) ? task : undefined;
  }

  /** Moves one task to `to` (with the patch), adjusting its step's counts; a move the state machine does not allow throws. */
  change(task: TaskRow, to: TaskStatus, patch: TaskPatch = {}): void {
    if (!canMove(task.status, to)) throw new TransitionRefused(task.status, to, `task ${task.id}`);
    this.rows.setStatus(task.id, to, patch);
    if (task.status === to) return;
    this.count(task.step_id, task.status, -1);
    this.count(task.step_id, to, 1);
  }

  /** Binds READY tasks of one step to a Session (one UPDATE, one counts change). */
  assign(tasks: readonly TaskRow[], stepId: string, sessionId: string, workerId: string): void {
    if (tasks.length === 0) return;
    for (const task of tasks) if (!canMove(task.status, "ASSIGNED")) throw new TransitionRefused(task.status, "ASSIGNED", `task ${task.id}`);
    const bound = this.rows.assign(
      tasks.map((t) => t.id),
      sessionId,
      workerId,
    );
    // Counts follow what moved: a task that stopped being READY since it was read (another unit
    // claimed it) must not be counted, nor handed out; the unit rolls back and the sync is retried.
    if (bound !== tasks.length) throw new Error(`claim lost: ${tasks.length - bound} of ${tasks.length} task(s) of step ${stepId} were no longer READY`);
    this.count(stepId, "READY", -tasks.length);
    this.count(stepId, "ASSIGNED", tasks.length);
  }

  /**
   * Count changes of single task moves are gathered per step and written once (a sync moving 64
   * tasks writes each step's counts once, not 128 times). They are written before anything reads
   * step counts (flushCounts: settleJob and the dispatcher call it) and, at the latest, when their
   * unit of work commits — or forgotten when it rolls back (the store calls flushCounts and
   * forgetCounts: see WriteBehind in server/store/store.ts).
   */
  private readonly deltas = new Map<string, Map<TaskStatus, number>>();

  /** Counts `n` tasks of a step moved from one status to another by a bulk UPDATE (which counted them first). */
  recordMove(stepId: string, from: TaskStatus, to: TaskStatus, n: number): void {
    if (!canMove(from, to)) throw new TransitionRefused(from, to, `${n} tasks of step ${stepId}`);
    if (from === to || n === 0) return;
    this.count(stepId, from, -n);
    this.count(stepId, to, n);
  }

  private count(stepId: string, status: TaskStatus, by: number): void {
    let step = this.deltas.get(stepId);
    if (!step) this.deltas.set(stepId, (step = new Map()));
    step.set(status, (step.get(status) ?? 0) + by);
  }

  /** Runtimes of successful tasks per step, written with the counts. */
  private readonly runtimes = new Map<string, { totalMs: number; count: number }>();

  addRuntime(stepId: string, ms: number): void {
    const runtime = this.runtimes.get(stepId) ?? { totalMs: 0, count: 0 };
    runtime.totalMs += ms;
    runtime.count += 1;
    this.runtimes.set(stepId, runtime);
  }

  flushCounts(): void {
    for (const [stepId, runtime] of this.runtimes) this.progress.addRuntime(stepId, runtime.totalMs, runtime.count);
    this.runtimes.clear();
    for (const [stepId, changes] of this.deltas) {
      const by = emptyCounts();
      for (const [status, n] of changes) by[status] = n;
      if (TASK_STATUSES.every((status) => by[status] === 0)) continue;
      const step = this.progress.addStepCounts(stepId, by);
      if (!step) continue;
      const status = rollUpStatus(countsFromRow(step));
      if (status !== step.status) this.progress.setStepStatus(stepId, status);
    }
    this.deltas.clear();
  }

  /** What a unit of work (or savepoint) that rolls back gathered: its rows are gone, so are their count changes. */
  private forgetCounts(): void {
    this.deltas.clear();
    this.runtimes.clear();
  }

  /** Recounts a step from its task rows (after a bulk UPDATE). */
  recountStep(stepId: string): void {
    this.deltas.delete(stepId);
    const counts = emptyCounts();
    for (const row of this.rows.countByStatus(stepId)) counts[row.status] = row.n;
    this.progress.setStepCounts(stepId, counts, rollUpStatus(counts));
  }

  /**
   * Makes PENDING tasks READY in every step whose dependencies all succeeded, then rolls the
   * steps up into the job's counts and status. Call once per transaction that changed tasks.
   */
  settleJob(jobId: string, now: number): void {
    this.flushCounts();
    let steps = this.progress.jobSteps(jobId);
    // A step with no tasks (yet) has not succeeded: its dependents wait for its tasks.
    const succeeded = new Set(steps.filter((s) => s.task_count > 0 && s.count_succeeded === s.task_count).map((s) => s.name));
    let released = false;
    for (const step of steps) {
      const counts = countsFromRow(step);
      const dependencies = JSON.parse(step.dependencies) as string[];
      if (counts.PENDING > 0 && dependencies.every((d) => succeeded.has(d))) {
        // The UPDATE moves exactly PENDING to READY: its change count is the counts' change.
        this.recordMove(step.id, "PENDING", "READY", this.rows.releasePending(step.id));
        released = true;
      }
    }
    if (released) {
      this.flushCounts();
      steps = this.progress.jobSteps(jobId);
    }
    const total = emptyCounts();
    for (const step of steps) {
      const counts = countsFromRow(step);
      for (const status of TASK_STATUSES) total[status] += counts[status];
    }
    const job = this.progress.jobTimes(jobId);
    if (!job) return;
    // Suspending and canceling move the job's tasks, so the roll-up of its counts is its status.
    const status = rollUpStatus(total);
    const active = total.ASSIGNED + total.RUNNING > 0;
    const finished = ["SUCCEEDED", "FAILED", "CANCELED"].includes(status) && !active;
    const startedAt = job.started_at ?? (active || total.SUCCEEDED + total.FAILED > 0 ? now : null);
    const endedAt = finished ? (job.ended_at ?? now) : null;
    if (status === job.status) this.progress.setJobCounts(jobId, total, startedAt, endedAt);
    else this.progress.setJob(jobId, total, status, startedAt, endedAt);
  }
}
