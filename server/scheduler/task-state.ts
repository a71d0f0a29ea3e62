/**
 * Task status changes and the counts they roll up into. Every change of a task's status goes
 * through here, inside a unit of work (store.transaction, its tx passed down), so the per-status
 * counts on its step and job (what dashboards read) never drift from the task rows. Single changes
 * adjust the counts; bulk changes adjust them by the grouped count of the rows they moved (a step
 * of 1,000,000 tasks is never recounted while a wrangler's chunked change walks it). The
 * statements are server/store's (tasks.ts, job-progress.ts); the moves' checks and the roll-ups are here.
 */
import { ACTIVE_TASK_STATUSES, emptyCounts, rollUpStatus, TASK_STATUSES, type StatusCounts, type TaskStatus } from "../../lib/farm/statuses";
import { canMove, TransitionRefused } from "../../lib/farm/task-transitions";
import { countsFromRow } from "../db/status-counts";
import type { ReadTx, Tx, UnitLocal } from "../store/engine/engine";
import { jobProgressRepository, type JobStepRow } from "../store/job-progress";
import { dependenciesOf } from "../store/task-edges";
import { tasksRepository, type TaskPatch, type TaskRow } from "../store/tasks";
import { gateOpen, stepGates } from "./step-gates";
import { releaseAfterSuccess, reverseReleases, type MoveRecorder, type UpstreamTask } from "./task-releases";

export type { TaskPatch, TaskRow } from "../store/tasks";

/**
 * Count changes of single task moves, gathered per step of one unit of work and written once (a
 * sync moving 64 tasks writes each step's counts once, not 128 times). They are written before
 * anything reads step counts (flushCounts: settleJob and the dispatcher call it) and, at the
 * latest, when their unit commits — or forgotten when it rolls back. The unit does both (Tx.local):
 * it flushes them before a savepoint opens and before COMMIT, and has them forgotten when a
 * savepoint rolls back; a unit that rolls back drops them with itself. Per unit, because several
 * units may be open at once (PostgreSQL): one's moves are never written by another.
 */
class GatheredCounts implements UnitLocal {
  /** Count changes per step (each status's net change). */
  readonly deltas = new Map<string, StatusCounts>();
  /** Runtimes of successful tasks per step, written with the counts. */
  readonly runtimes = new Map<string, { totalMs: number; count: number }>();

  count(stepId: string, status: TaskStatus, by: number): void {
    let step = this.deltas.get(stepId);
    if (!step) this.deltas.set(stepId, (step = emptyCounts()));
    step[status] += by;
  }

  async flush(tx: Tx): Promise<void> {
    // Each entry is taken out before its statements run: what is gathered meanwhile is written by this flush or the next.
    for (const [stepId, runtime] of this.runtimes) {
      this.runtimes.delete(stepId);
      await jobProgressRepository.addRuntime(tx, stepId, runtime.totalMs, runtime.count);
    }
    for (const [stepId, by] of this.deltas) {
      this.deltas.delete(stepId);
      // Moves that cancel out (ASSIGNED and back to READY) change nothing: no statement.
      if (TASK_STATUSES.every((status) => by[status] === 0)) continue;
      const step = await jobProgressRepository.addStepCounts(tx, stepId, by);
      if (!step) continue;
      const status = rollUpStatus(countsFromRow(step));
      if (status !== step.status) await jobProgressRepository.setStepStatus(tx, stepId, status);
    }
  }

  /** What a savepoint that rolls back gathered: its rows are gone, so are their count changes. */
  forget(): void {
    this.deltas.clear();
    this.runtimes.clear();
  }
}

/** A step's gates, as its row stores its dependencies. */
function gatesOf(step: JobStepRow) {
  return stepGates(dependenciesOf(step));
}

/** Tx.local's maker: one function for every unit, no closure per call. */
const gather = (): GatheredCounts => new GatheredCounts();

export class TaskState implements MoveRecorder {
  /** The unit's gathered counts, made on its first task move (keyed by this TaskState: one per farm). */
  private gathered(tx: Tx): GatheredCounts {
    return tx.local(this, gather);
  }

  /**
   * The task while it still runs under this Session (ASSIGNED or RUNNING); undefined once a
   * wrangler canceled, suspended or requeued it, or it went to another worker: only then may
   * what the Session reports about it change it.
   */
  async heldBy(tx: ReadTx, taskId: number, sessionId: string): Promise<TaskRow | undefined> {
    const task = await tasksRepository.byId(tx, taskId);
    return task && task.session_id === sessionId && ACTIVE_TASK_STATUSES.has(task.status) ? task : undefined;
  }

  /**
   * Moves one task to `to` (with the patch), adjusting its step's counts; a move the state machine
   * does not allow throws. A success releases the tasks that waited on it (task-releases.ts), in
   * this unit; leaving SUCCEEDED takes that back.
   */
  async change(tx: Tx, task: TaskRow, to: TaskStatus, patch: TaskPatch = {}): Promise<void> {
    if (!canMove(task.status, to)) throw new TransitionRefused(task.status, to, `task ${task.id}`);
    await tasksRepository.setStatus(tx, task.id, to, patch);
    if (task.status === to) return;
    const gathered = this.gathered(tx);
    gathered.count(task.step_id, task.status, -1);
    gathered.count(task.step_id, to, 1);
    if (to === "SUCCEEDED") await releaseAfterSuccess(tx, this, task);
    else if (task.status === "SUCCEEDED") await reverseReleases(tx, this, task.job_id, [task]);
  }

  /** Succeeded tasks of a job that a bulk move is about to take out of SUCCEEDED (a requeue): what they released waits again. */
  unrelease(tx: Tx, jobId: string, tasks: ReadonlyArray<Omit<UpstreamTask, "job_id">>): Promise<void> {
    return reverseReleases(tx, this, jobId, tasks);
  }

  /** Binds READY tasks of one step to a Session (one UPDATE, one counts change). */
  async assign(tx: Tx, tasks: readonly TaskRow[], stepId: string, sessionId: string, workerId: string): Promise<void> {
    if (tasks.length === 0) return;
    for (const task of tasks) if (!canMove(task.status, "ASSIGNED")) throw new TransitionRefused(task.status, "ASSIGNED", `task ${task.id}`);
    const bound = await tasksRepository.assign(
      tx,
      tasks.map((t) => t.id),
      sessionId,
      workerId,
    );
    // Counts follow what moved: a task that stopped being READY since it was read (another unit
    // claimed it) must not be counted, nor handed out; the unit rolls back and the sync is retried.
    if (bound !== tasks.length) throw new Error(`claim lost: ${tasks.length - bound} of ${tasks.length} task(s) of step ${stepId} were no longer READY`);
    const gathered = this.gathered(tx);
    gathered.count(stepId, "READY", -tasks.length);
    gathered.count(stepId, "ASSIGNED", tasks.length);
  }

  /** Counts `n` tasks of a step moved from one status to another by a bulk UPDATE (which counted them first); no statement. */
  recordMove(tx: Tx, stepId: string, from: TaskStatus, to: TaskStatus, n: number): void {
    if (!canMove(from, to)) throw new TransitionRefused(from, to, `${n} tasks of step ${stepId}`);
    if (from === to || n === 0) return;
    const gathered = this.gathered(tx);
    gathered.count(stepId, from, -n);
    gathered.count(stepId, to, n);
  }

  /** A successful task's runtime, for its step's average (written with the counts); no statement. */
  addRuntime(tx: Tx, stepId: string, ms: number): void {
    const runtimes = this.gathered(tx).runtimes;
    const runtime = runtimes.get(stepId);
    if (runtime) {
      runtime.totalMs += ms;
      runtime.count += 1;
    } else runtimes.set(stepId, { totalMs: ms, count: 1 });
  }

  /** Writes the unit's gathered count changes and runtimes now (before reading step counts). */
  flushCounts(tx: Tx): Promise<void> {
    return this.gathered(tx).flush(tx);
  }

  /** Recounts a step from its task rows (after a bulk UPDATE). */
  async recountStep(tx: Tx, stepId: string): Promise<void> {
    this.gathered(tx).deltas.delete(stepId);
    const counts = emptyCounts();
    for (const row of await tasksRepository.countByStatus(tx, stepId)) counts[row.status] = row.n;
    await jobProgressRepository.setStepCounts(tx, stepId, counts, rollUpStatus(counts));
  }

  /**
   * Makes PENDING tasks READY in every step whose gates are open (every step it depends on as a
   * whole succeeded, or for `step-any` one of its tasks did) — those of them that wait on no other
   * task — then rolls the steps up into the job's counts and status. Call once per transaction
   * that changed tasks.
   */
  async settleJob(tx: Tx, jobId: string, now: number): Promise<void> {
    await this.flushCounts(tx);
    let steps = await jobProgressRepository.jobSteps(tx, jobId);
    const byName = new Map(steps.map((s) => [s.name, { taskCount: s.task_count, succeeded: s.count_succeeded }]));
    let released = false;
    for (const step of steps) {
      const counts = countsFromRow(step);
      if (counts.PENDING > 0 && gatesOf(step).every((gate) => gateOpen(gate, byName.get(gate.dependsOn)))) {
        // The UPDATE moves exactly PENDING to READY: its change count is the counts' change.
        this.recordMove(tx, step.id, "PENDING", "READY", await tasksRepository.releasePending(tx, step.id));
        released = true;
      }
    }
    if (released) {
      await this.flushCounts(tx);
      steps = await jobProgressRepository.jobSteps(tx, jobId);
    }
    const total = emptyCounts();
    for (const step of steps) {
      const counts = countsFromRow(step);
      for (const status of TASK_STATUSES) total[status] += counts[status];
    }
    const job = await jobProgressRepository.jobTimes(tx, jobId);
    if (!job) return;
    // Suspending and canceling move the job's tasks, so the roll-up of its counts is its status.
    const status = rollUpStatus(total);
    const active = total.ASSIGNED + total.RUNNING > 0;
    const finished = ["SUCCEEDED", "FAILED", "CANCELED"].includes(status) && !active;
    const startedAt = job.started_at ?? (active || total.SUCCEEDED + total.FAILED > 0 ? now : null);
    const endedAt = finished ? (job.ended_at ?? now) : null;
    if (status === job.status) await jobProgressRepository.setJobCounts(tx, jobId, total, startedAt, endedAt);
    else await jobProgressRepository.setJob(tx, jobId, total, status, startedAt, endedAt);
  }
}
