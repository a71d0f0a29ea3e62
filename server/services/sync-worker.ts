/**
 * A worker's heartbeat (`POST /api/worker/sync`), in one unit of work: check that the report is
 * the caller's own (its credential's worker) and that its lease holds, apply its reports, send
 * again anything it never received, tell it what to cancel, and — when it has nothing
 * outstanding — give it its next piece of work. One piece at a time: the worker syncs at
 * once when an action ends, so a Session is fed task after task without entering its
 * environments again. (A Session that ends with nothing to exit ends within the answer that
 * opens the next one: Dispatcher.next.)
 */
import type { ActionUpdate, AssignedAction, SessionAssignment, SyncRequest, SyncResponse } from "../../lib/farm/protocol";
import type { WorkerStatus } from "../../lib/farm/statuses";
import type { WorkerCapabilities } from "../../lib/openjd";
import type { SessionRow } from "../scheduler/session-store";
import type { Tx } from "../store/repository";
import { workerSyncRepository, type SyncingWorker } from "../store/worker-sync";
import { AppError } from "../context/errors";
import { checkSpeaksFor, type WorkerIdentity } from "./authenticate-worker";
import type { Farm } from "../context/farm";

/**
 * `caller`: the worker the request's credential belongs to (authenticate-worker.ts). Runs inside
 * the caller's unit of work `tx` (the group commit gives each sync a savepoint of its own:
 * sync-batcher.ts); its events are delivered once that unit commits.
 */
export async function syncWorker(farm: Farm, tx: Tx, caller: WorkerIdentity, request: SyncRequest): Promise<SyncResponse> {
  checkSpeaksFor(caller, request.workerId);
  const now = farm.now();
  const worker = await workerSyncRepository.byId(tx, caller.workerId);
  if (!worker) throw new AppError("UNAUTHORIZED", `worker ${caller.workerId} is no longer registered: enroll again`);
  if (worker.lease_epoch !== request.leaseEpoch || worker.status === "NOT_RESPONDING") {
    throw new AppError("LEASE_CONFLICT", `lease ${request.leaseEpoch} of worker ${worker.id} is no longer valid (now ${worker.lease_epoch}): stop everything and register again`);
  }

  // 1. Reports, in the order the worker made them (an action's start folded into its end when both came at once).
  const touched = new Set<string>();
  const sessions = new Map<string, SessionRow | undefined>();
  for (const update of coalesce(request.updates)) {
    const action = await farm.sessions.action(tx, update.actionId);
    if (action && !sessions.has(action.session_id)) sessions.set(action.session_id, await farm.sessions.session(tx, action.session_id));
    const session = action && sessions.get(action.session_id);
    if (!action || !session || session.worker_id !== worker.id || session.lease_epoch !== worker.lease_epoch) continue;
    const job = await farm.updates.apply(tx, session, action, update, now);
    if (job) touched.add(job);
  }

  // Dependents of steps that just finished become READY before anything is dispatched.
  for (const jobId of touched) await farm.tasks.settleJob(tx, jobId, now);

  // 2. Open Sessions: settle the finished ones, collect what the worker lost and what to cancel.
  const assignments: SessionAssignment[] = [];
  const cancel: string[] = [];
  const held = new Set(request.actions);
  let outstanding = 0;
  const open: SessionRow[] = [];
  for (const session of await farm.sessions.openSessions(tx, worker.id, worker.lease_epoch)) {
    // Only the actions still open: a long Session's ended history is never read here.
    const pending = await farm.sessions.openActions(tx, session.id);
    const lost = pending.filter((a) => a.status === "ASSIGNED" && !held.has(a.id));
    if (lost.length > 0) {
      const end = Boolean(session.end_issued) && lost.at(-1)?.seq === (await farm.sessions.lastSeq(tx, session.id));
      const job = await farm.sessions.jobDefinition(tx, session.job_id);
      const actions: AssignedAction[] = [];
      for (const action of lost) actions.push(await farm.sessions.describe(tx, action));
      assignments.push({ sessionId: session.id, job, actions, end });
    }
    for (const action of pending) {
      outstanding++;
      if (action.kind !== "ENV_EXIT" && (await shouldCancel(farm, tx, action.task_id, session.id, worker))) cancel.push(action.id);
    }
    if (await farm.sessions.settle(tx, session, now)) touched.add(session.job_id);
    else open.push(session);
  }

  // 3. New work only when nothing is outstanding.
  const acceptsWork = !worker.drain && !worker.disabled && !request.draining && caller.poolEnabled;
  if (outstanding === 0) {
    const current = open[0] ?? null;
    const next = await farm.dispatcher.next(tx, { id: worker.id, leaseEpoch: worker.lease_epoch, capabilities: JSON.parse(worker.capabilities) as WorkerCapabilities, acceptsWork }, current, now);
    for (const assignment of next) {
      assignments.push(assignment);
      touched.add(assignment.job.id);
    }
  }
  const busy = outstanding > 0 || assignments.length > 0;
  const status = workerStatus({ shuttingDown: Boolean(request.draining), drained: worker.drain !== null, busy, holdsSession: open.length > 0 });
  // The status is written only when it changes (an indexed column: see worker-sync.ts).
  if (status === worker.status) await workerSyncRepository.heartbeat(tx, worker.id, now);
  else {
    await workerSyncRepository.heartbeatAndStatus(tx, worker.id, now, status);
    farm.events.publish(tx, "worker-status"); // admin views only: long polls do not listen
  }
  for (const jobId of touched) await farm.tasks.settleJob(tx, jobId, now);
  if (touched.size > 0) farm.events.publish(tx, "jobs", [...touched]);
  return { leaseEpoch: worker.lease_epoch, syncIntervalSeconds: farm.settings.syncIntervalSeconds, assignments, cancel, stop: false };
}

/** What the admin views show: a worker shutting down is STOPPED once it holds nothing. */
function workerStatus(worker: { shuttingDown: boolean; drained: boolean; busy: boolean; holdsSession: boolean }): WorkerStatus {
  if (worker.shuttingDown && !worker.busy && !worker.holdsSession) return "STOPPED";
  if (worker.shuttingDown || worker.drained) return worker.busy ? "STOPPING" : "IDLE";
  return worker.busy ? "RUNNING" : "IDLE";
}

/**
 * A RUNNING report followed in the same sync by the action's end is folded into the end (keeping
 * the start time and the latest progress and status): the outcome is the same, with half the
 * writes — short tasks' reports usually arrive that way.
 */
export function coalesce(updates: readonly ActionUpdate[]): ActionUpdate[] {
  const ended = new Map<string, number>();
  updates.forEach((u, i) => {
    if (u.status !== "RUNNING") ended.set(u.actionId, i);
  });
  if (ended.size === 0) return [...updates];
  const out: ActionUpdate[] = [];
  const folded = new Map<string, ActionUpdate>();
  updates.forEach((u, i) => {
    const end = ended.get(u.actionId);
    if (u.status === "RUNNING" && end !== undefined && end > i) {
      const previous = folded.get(u.actionId);
      folded.set(u.actionId, {
        ...previous,
        ...u,
        startedAt: previous?.startedAt ?? u.startedAt ?? null,
      });
      return;
    }
    const start = folded.get(u.actionId);
    out.push(
      start
        ? {
            ...u,
            startedAt: u.startedAt ?? start.startedAt ?? null,
            progress: u.progress ?? start.progress ?? null,
            statusMessage: u.statusMessage ?? start.statusMessage ?? null,
          }
        : u,
    );
  });
  return out;
}

/** A running task is canceled when the wrangler took it away (canceled, suspended, requeued) or the worker is drained now. */
async function shouldCancel(farm: Farm, tx: Tx, taskId: number | null, sessionId: string, worker: SyncingWorker): Promise<boolean> {
  if (worker.drain === "NOW" || worker.disabled) return true;
  return taskId !== null && !(await farm.tasks.heldBy(tx, taskId, sessionId));
}
