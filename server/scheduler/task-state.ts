/**
 * Task status changes and the counts they roll up into. Every change of a task's status goes
 * through here, inside a unit of work (store.transaction), so the per-status counts on
 * its step and job (what dashboards read) never drift from the task rows. Single changes adjust
 * the counts; bulk changes adjust them by the grouped count of the rows they moved (a step of
 * 1,000,000 tasks is never recounted while a wrangler's chunked change walks it).
 */
import type Database from "better-sqlite3";
import { ACTIVE_TASK_STATUSES, emptyCounts, rollUpStatus, TASK_STATUSES, type StatusCounts, type TaskStatus } from "../../lib/farm/statuses";
import { canMove, TransitionRefused } from "../../lib/farm/task-transitions";
import type { Store } from "../db/connection";
import { countColumn, countColumnsSql, countsFromRow, type CountColumnsRow } from "../db/status-counts";

export interface TaskRow {
  id: number;
  job_id: string;
  step_id: string;
  task_index: number;
  parameters: string;
  status: TaskStatus;
  failure_count: number;
  interruption_count: number;
  session_id: string | null;
  worker_id: string | null;
  /** Read by the dispatcher only (its nextTasks). */
  retry_at?: number | null;
  last_failed_worker_id?: string | null;
}

export interface TaskPatch {
  workerId?: string | null;
  sessionId?: string | null;
  startedAt?: number | null;
  endedAt?: number | null;
  failureCount?: number;
  interruptionCount?: number;
  progress?: number | null;
  statusMessage?: string | null;
  retryAt?: number | null;
  lastFailedWorkerId?: string | null;
}

const PATCH_COLUMNS: Record<keyof TaskPatch, string> = {
  workerId: "worker_id",
  sessionId: "session_id",
  startedAt: "started_at",
  endedAt: "ended_at",
  failureCount: "failure_count",
  interruptionCount: "interruption_count",
  progress: "progress",
  statusMessage: "status_message",
  retryAt: "retry_at",
  lastFailedWorkerId: "last_failed_worker_id",
};

/** A job's counts are the sums of its steps' (settleJob): set, in TASK_STATUSES order. */
const JOB_COUNTS_SET = TASK_STATUSES.map((status) => `${countColumn(status)} = ?`).join(", ");

/** Counts in TASK_STATUSES order, as statement parameters. */
function countParams(counts: Readonly<StatusCounts>): number[] {
  return TASK_STATUSES.map((status) => counts[status]);
}

export class TaskState {
  private readonly sqlite: Database.Database;
  private readonly statements;

  constructor(store: Store) {
    this.sqlite = store.sqlite;
    // Count changes wait in memory for the unit's commit (or the next savepoint), and die with its rollback.
    store.writeBehind({ flush: () => this.flushCounts(), forget: () => this.forgetCounts() });
    const s = this.sqlite;
    this.statements = {
      task: s.prepare<[number], TaskRow>("SELECT id, job_id, step_id, task_index, parameters, status, failure_count, interruption_count, session_id, worker_id FROM tasks WHERE id = ?"),
      // Count changes are arithmetic on the row (never read, changed and written back); the
      // counts it returns give the step's roll-up, written only when it changed.
      addStepCounts: s.prepare<[...number[], string], CountColumnsRow & { status: TaskStatus }>(
        `UPDATE steps SET ${TASK_STATUSES.map((status) => `${countColumn(status)} = MAX(0, ${countColumn(status)} + ?)`).join(", ")} WHERE id = ? RETURNING status, ${countColumnsSql()}`,
      ),
      setStepStatus: s.prepare<[TaskStatus, string]>("UPDATE steps SET status = ? WHERE id = ?"),
      setStepCounts: s.prepare<[...number[], TaskStatus, string]>(`UPDATE steps SET ${TASK_STATUSES.map((status) => `${countColumn(status)} = ?`).join(", ")}, status = ? WHERE id = ?`),
      groupStep: s.prepare<[string], { status: TaskStatus; n: number }>("SELECT status, COUNT(*) AS n FROM tasks WHERE step_id = ? GROUP BY status"),
      jobSteps: s.prepare<[string], CountColumnsRow & { id: string; dependencies: string; name: string; task_count: number }>(
        `SELECT id, ${countColumnsSql()}, dependencies, name, task_count FROM steps WHERE job_id = ? ORDER BY step_index`,
      ),
      job: s.prepare<[string], { status: TaskStatus; started_at: number | null; ended_at: number | null }>("SELECT status, started_at, ended_at FROM jobs WHERE id = ?"),
      setJob: s.prepare<[...number[], TaskStatus, number | null, number | null, string]>(`UPDATE jobs SET ${JOB_COUNTS_SET}, status = ?, started_at = ?, ended_at = ? WHERE id = ?`),
      // Without status: an UPDATE that names an indexed column rewrites its index entry (the
      // dispatch index) even when the value is unchanged, one more page per sync transaction.
      setJobCounts: s.prepare<[...number[], number | null, number | null, string]>(`UPDATE jobs SET ${JOB_COUNTS_SET}, started_at = ?, ended_at = ? WHERE id = ?`),
      addRuntime: s.prepare<[number, number, string]>("UPDATE steps SET runtime_total_ms = runtime_total_ms + ?, runtime_count = runtime_count + ? WHERE id = ?"),
      release: s.prepare<[string]>("UPDATE tasks SET status = 'READY' WHERE step_id = ? AND status = 'PENDING'"),
      assign: s.prepare<[string, string, string]>(
        "UPDATE tasks SET status = 'ASSIGNED', session_id = ?, worker_id = ?, progress = NULL, status_message = NULL WHERE id IN (SELECT value FROM json_each(?)) AND status = 'READY'",
      ),
    };
  }

  /** `UPDATE tasks SET <sets>` statements by their SET clause (a handful of shapes; preparing one costs more than running it). */
  private readonly updates = new Map<string, Database.Statement>();

  private update(sets: string): Database.Statement {
    let statement = this.updates.get(sets);
    if (!statement) this.updates.set(sets, (statement = this.sqlite.prepare(`UPDATE tasks SET ${sets} WHERE id = ?`)));
    return statement;
  }

  /**
   * The task while it still runs under this Session (ASSIGNED or RUNNING); undefined once a
   * wrangler canceled, suspended or requeued it, or it went to another worker: only then may
   * what the Session reports about it change it.
   */
  heldBy(taskId: number, sessionId: string): TaskRow | undefined {
    const task = this.statements.task.get(taskId);
    return task && task.session_id === sessionId && ACTIVE_TASK_STATUSES.has(task.status) ? task : undefined;
  }

  /** Moves one task to `to` (with the patch), adjusting its step's counts; a move the state machine does not allow throws. */
  change(task: TaskRow, to: TaskStatus, patch: TaskPatch = {}): void {
    if (!canMove(task.status, to)) throw new TransitionRefused(task.status, to, `task ${task.id}`);
    const sets = ["status = ?"];
    const values: Array<string | number | null> = [to];
    for (const [key, value] of Object.entries(patch) as Array<[keyof TaskPatch, string | number | null | undefined]>) {
      if (value === undefined) continue;
      sets.push(`${PATCH_COLUMNS[key]} = ?`);
      values.push(value);
    }
    this.update(sets.join(", ")).run(...values, task.id);
    if (task.status === to) return;
    this.count(task.step_id, task.status, -1);
    this.count(task.step_id, to, 1);
  }

  /** Binds READY tasks of one step to a Session (one UPDATE, one counts change). */
  assign(tasks: readonly TaskRow[], stepId: string, sessionId: string, workerId: string): void {
    if (tasks.length === 0) return;
    for (const task of tasks) if (!canMove(task.status, "ASSIGNED")) throw new TransitionRefused(task.status, "ASSIGNED", `task ${task.id}`);
    this.statements.assign.run(sessionId, workerId, JSON.stringify(tasks.map((t) => t.id)));
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
    for (const [stepId, runtime] of this.runtimes) this.statements.addRuntime.run(runtime.totalMs, runtime.count, stepId);
    this.runtimes.clear();
    for (const [stepId, changes] of this.deltas) {
      const by = emptyCounts();
      for (const [status, n] of changes) by[status] = n;
      if (TASK_STATUSES.every((status) => by[status] === 0)) continue;
      const step = this.statements.addStepCounts.get(...countParams(by), stepId);
      if (!step) continue;
      const status = rollUpStatus(countsFromRow(step));
      if (status !== step.status) this.statements.setStepStatus.run(status, stepId);
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
    for (const row of this.statements.groupStep.all(stepId)) counts[row.status] = row.n;
    this.statements.setStepCounts.run(...countParams(counts), rollUpStatus(counts), stepId);
  }

  /**
   * Makes PENDING tasks READY in every step whose dependencies all succeeded, then rolls the
   * steps up into the job's counts and status. Call once per transaction that changed tasks.
   */
  settleJob(jobId: string, now: number): void {
    this.flushCounts();
    let steps = this.statements.jobSteps.all(jobId);
    // A step with no tasks (yet) has not succeeded: its dependents wait for its tasks.
    const succeeded = new Set(steps.filter((s) => s.task_count > 0 && s.count_succeeded === s.task_count).map((s) => s.name));
    let released = false;
    for (const step of steps) {
      const counts = countsFromRow(step);
      const dependencies = JSON.parse(step.dependencies) as string[];
      if (counts.PENDING > 0 && dependencies.every((d) => succeeded.has(d))) {
        // The UPDATE moves exactly PENDING to READY: its change count is the counts' change.
        this.recordMove(step.id, "PENDING", "READY", this.statements.release.run(step.id).changes);
        released = true;
      }
    }
    if (released) {
      this.flushCounts();
      steps = this.statements.jobSteps.all(jobId);
    }
    const total = emptyCounts();
    for (const step of steps) {
      const counts = countsFromRow(step);
      for (const status of TASK_STATUSES) total[status] += counts[status];
    }
    const job = this.statements.job.get(jobId);
    if (!job) return;
    // Suspending and canceling move the job's tasks, so the roll-up of its counts is its status.
    const status = rollUpStatus(total);
    const active = total.ASSIGNED + total.RUNNING > 0;
    const finished = ["SUCCEEDED", "FAILED", "CANCELED"].includes(status) && !active;
    const startedAt = job.started_at ?? (active || total.SUCCEEDED + total.FAILED > 0 ? now : null);
    const endedAt = finished ? (job.ended_at ?? now) : null;
    if (status === job.status) this.statements.setJobCounts.run(...countParams(total), startedAt, endedAt, jobId);
    else this.statements.setJob.run(...countParams(total), status, startedAt, endedAt, jobId);
  }
}
