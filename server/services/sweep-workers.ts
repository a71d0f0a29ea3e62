/**
 * The scheduler's periodic sweeps over workers (anchors-scheduling §0 item 13, issue 10):
 *
 * - a worker that has not synced within the timeout becomes NOT_RESPONDING: its lease epoch moves
 *   on (so its late reports are refused), its running actions become INTERRUPTED and their tasks
 *   go back to READY on the interruption budget;
 * - a worker that keeps syncing but holds assigned work it never starts (nothing RUNNING in the
 *   Session, no report for assignedTimeoutSeconds) loses those tasks: they go back to READY on the
 *   interruption budget and its next sync tells it to cancel them (a worker hoarding tasks, or
 *   one whose agent is wedged, cannot keep them from the farm). An environment that takes long to
 *   enter is RUNNING, so it is never caught by this;
 * - a worker not seen for workerRetentionHours is removed: no longer listed or counted, its
 *   credential revoked (it enrolls again with its pool's token if it ever comes back).
 */
import type { ReadTx, Tx } from "../store/repository";
import type { LeaderFence } from "../store/leader";
import { workerLifecycleRepository } from "../store/worker-lifecycle";
import { audit, SYSTEM_ACTOR } from "./audit";
import { storeHealth } from "./store-health";
import type { Farm } from "../context/farm";

/** Interrupts every open Session of the worker (inside the caller's unit of work `tx`); returns the jobs touched. */
export async function interruptWorkerSessions(tx: Tx, farm: Farm, workerId: string, now: number): Promise<string[]> {
  const jobs = new Set<string>();
  for (const session of await farm.sessions.unendedSessions(tx, workerId)) {
    for (const action of await farm.sessions.openActions(tx, session.id)) {
      await farm.sessions.interruptAction(tx, action.id, now);
      const task = action.task_id === null ? undefined : await farm.tasks.heldBy(tx, action.task_id, session.id);
      if (task) await farm.updates.interrupt(tx, task);
    }
    await farm.sessions.end(tx, session.id, now);
    jobs.add(session.job_id);
  }
  for (const jobId of jobs) await farm.tasks.settleJob(tx, jobId, now);
  return [...jobs];
}

/**
 * Declares a worker lost (inside the caller's unit of work `tx`): its Sessions interrupted,
 * their tasks back to READY on the interruption budget, NOT_RESPONDING with a new lease epoch so
 * its late reports are refused. Returns the jobs touched.
 */
export async function loseWorker(tx: Tx, farm: Farm, workerId: string, now: number): Promise<string[]> {
  const jobs = await interruptWorkerSessions(tx, farm, workerId, now);
  await workerLifecycleRepository.lose(tx, workerId);
  return jobs;
}

/** How often the stalled-work check runs (it reads every live worker's Session). */
const STALLED_CHECK_MS = 15_000;
const lastStalledCheck = new WeakMap<Farm, number>();

/** Whether the stalled-work check is due (it then counts as made now). Decided before the unit: a unit PostgreSQL runs again makes the same check. */
function stalledCheckDue(farm: Farm, now: number): boolean {
  const last = lastStalledCheck.get(farm);
  if (last !== undefined && now - last < STALLED_CHECK_MS && now >= last) return false;
  lastStalledCheck.set(farm, now);
  return true;
}

/**
 * Sessions of live workers that hold assigned work and have done nothing since the limit: the
 * first unfinished action is ASSIGNED (so nothing runs), was assigned before the limit, and the
 * action before it (if any) ended before the limit too.
 */
async function stalledSessions(tx: ReadTx, farm: Farm, now: number): Promise<Array<{ id: string; job_id: string }>> {
  const workers = workerLifecycleRepository;
  const before = now - farm.settings.assignedTimeoutSeconds * 1000;
  const stalled: Array<{ id: string; job_id: string }> = [];
  for (const worker of await workers.live(tx)) {
    for (const session of await farm.sessions.unendedSessions(tx, worker.id)) {
      const first = await workers.firstOpenAction(tx, session.id);
      if (!first || first.status !== "ASSIGNED" || (first.assigned_at ?? now) >= before) continue;
      const previous = first.seq > 0 ? await workers.actionEndedAt(tx, session.id, first.seq - 1) : undefined;
      if (previous && (previous.ended_at ?? now) >= before) continue;
      stalled.push(session);
    }
  }
  return stalled;
}

const UNFENCED: LeaderFence = async () => undefined;

export async function sweepWorkers(farm: Farm, fence: LeaderFence = UNFENCED): Promise<{ lost: string[]; reclaimed: number; removed: string[] }> {
  const now = farm.now();
  const workers = workerLifecycleRepository;
  // A worker whose reports the store could not take is not silent: judge nobody until a whole
  // timeout has passed since the last failed write (store-health.ts).
  const judging = storeHealth(farm.store).quietFor(farm.settings.workerTimeoutSeconds * 1000);
  const checkStalled = judging && stalledCheckDue(farm, now);
  const { lost, reclaimed, removed, jobs } = await farm.store.transaction(async (tx) => {
    await fence(tx);
    const touched = new Set<string>();
    const silent = judging ? await workers.silentSince(tx, now - farm.settings.workerTimeoutSeconds * 1000) : [];
    for (const worker of silent) for (const job of await loseWorker(tx, farm, worker.id, now)) touched.add(job);
    let taken = 0;
    for (const session of checkStalled ? await stalledSessions(tx, farm, now) : []) {
      // The actions stay ASSIGNED (the worker still holds them): its next sync is told to cancel them, as for any task taken away.
      for (const action of await farm.sessions.openActions(tx, session.id)) {
        const task = action.task_id === null ? undefined : await farm.tasks.heldBy(tx, action.task_id, session.id);
        if (!task) continue;
        await farm.updates.interrupt(tx, task);
        taken++;
        touched.add(session.job_id);
      }
    }
    for (const jobId of touched) await farm.tasks.settleJob(tx, jobId, now);
    const unseen = await workers.unseenSince(tx, now - farm.settings.workerRetentionHours * 3_600_000);
    for (const worker of unseen) {
      await workers.removeUnseen(tx, worker.id, now);
      await audit(tx, farm, SYSTEM_ACTOR, { action: "worker.remove", target: { kind: "worker", id: worker.id }, detail: `${worker.name}: not seen for ${farm.settings.workerRetentionHours} h` });
    }
    return { lost: silent.map((w) => w.id), reclaimed: taken, removed: unseen.map((w) => w.id), jobs: [...touched] };
  });
  if (lost.length > 0 || removed.length > 0 || reclaimed > 0) farm.events.publish(null, "workers");
  if (jobs.length > 0) farm.events.publish(null, "jobs", jobs);
  return { lost, reclaimed, removed };
}
