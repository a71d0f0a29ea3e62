/**
 * A worker's heartbeat (`POST /api/worker/sync`), in one transaction: check that the report is
 * the caller's own (its credential's worker) and that its lease holds, apply its reports, send
 * again anything it never received, tell it what to cancel, and — when it has nothing
 * outstanding — give it its next piece of work. One piece at a time: the worker syncs at
 * once when an action ends, so a Session is fed task after task without entering its
 * environments again. (A Session that ends with nothing to exit ends within the answer that
 * opens the next one: Dispatcher.next.)
 */
import type { ActionUpdate, SessionAssignment, SyncRequest, SyncResponse } from "../../lib/farm/protocol";
import type { WorkerStatus } from "../../lib/farm/statuses";
import type { WorkerCapabilities } from "../../lib/openjd";
import type { SessionRow } from "../scheduler/session-store";
import { workerSyncRepository, type SyncingWorker } from "../store/worker-sync";
import { AppError } from "../context/errors";
import { checkSpeaksFor, type WorkerIdentity } from "./authenticate-worker";
import type { Farm } from "../context/farm";

/** `caller`: the worker the request's credential belongs to (authenticate-worker.ts). */
export function syncWorker(farm: Farm, caller: WorkerIdentity, request: SyncRequest): SyncResponse {
  checkSpeaksFor(caller, request.workerId);
  const now = farm.now();
  const touched = new Set<string>();
  const response = farm.store.transaction(() => syncInTransaction(farm, caller, request, now, touched));
  if (touched.size > 0) farm.events.publish("jobs", [...touched]);
  return response;
}

function syncInTransaction(farm: Farm, caller: WorkerIdentity, request: SyncRequest, now: number, touched: Set<string>): SyncResponse {
  const workers = workerSyncRepository(farm.store);
  const worker = workers.byId(caller.workerId);
  if (!worker) throw new AppError("UNAUTHORIZED", `worker ${caller.workerId} is no longer registered: enroll again`);
  if (worker.lease_epoch !== request.leaseEpoch || worker.status === "NOT_RESPONDING") {
    throw new AppError("LEASE_CONFLICT", `lease ${request.leaseEpoch} of worker ${worker.id} is no longer valid (now ${worker.lease_epoch}): stop everything and register again`);
  }

  // 1. Reports, in the order the worker made them (an action's start folded into its end when both came at once).
  const sessions = new Map<string, SessionRow | undefined>();
  for (const update of coalesce(request.updates)) {
    const action = farm.sessions.action(update.actionId);
    if (action && !sessions.has(action.session_id)) sessions.set(action.session_id, farm.sessions.session(action.session_id));
    const session = action && sessions.get(action.session_id);
    if (!action || !session || session.worker_id !== worker.id || session.lease_epoch !== worker.lease_epoch) continue;
    const job = farm.updates.apply(session, action, update, now);
    if (job) touched.add(job);
  }

  // Dependents of steps that just finished become READY before anything is dispatched.
  for (const jobId of touched) farm.tasks.settleJob(jobId, now);

  // 2. Open Sessions: settle the finished ones, collect what the worker lost and what to cancel.
  const assignments: SessionAssignment[] = [];
  const cancel: string[] = [];
  const held = new Set(request.actions);
  let outstanding = 0;
  const open: SessionRow[] = [];
  for (const session of farm.sessions.openSessions(worker.id, worker.lease_epoch)) {
    // Only the actions still open: a long Session's ended history is never read here.
    const pending = farm.sessions.openActions(session.id);
    const lost = pending.filter((a) => a.status === "ASSIGNED" && !held.has(a.id));
    if (lost.length > 0) {
      const end = Boolean(session.end_issued) && lost.at(-1)?.seq === farm.sessions.lastSeq(session.id);
      assignments.push({ sessionId: session.id, job: farm.sessions.jobDefinition(session.job_id), actions: lost.map((a) => farm.sessions.describe(a)), end });
    }
    for (const action of pending) {
      outstanding++;
      if (action.kind !== "ENV_EXIT" && shouldCancel(farm, action.task_id, session.id, worker)) cancel.push(action.id);
    }
    if (farm.sessions.settle(session, now)) touched.add(session.job_id);
    else open.push(session);
  }

  // 3. New work only when nothing is outstanding.
  const acceptsWork = !worker.drain && !worker.disabled && !request.draining && caller.poolEnabled;
  if (outstanding === 0) {
    const current = open[0] ?? null;
    const next = farm.dispatcher.next({ id: worker.id, leaseEpoch: worker.lease_epoch, capabilities: JSON.parse(worker.capabilities) as WorkerCapabilities, acceptsWork }, current, now);
    for (const assignment of next) {
      assignments.push(assignment);
      touched.add(assignment.job.id);
    }
  }
  const busy = outstanding > 0 || assignments.length > 0;
  const status = workerStatus({ shuttingDown: Boolean(request.draining), drained: worker.drain !== null, busy, holdsSession: open.length > 0 });
  // The status is written only when it changes (an indexed column: see worker-sync.ts).
  if (status === worker.status) workers.heartbeat(worker.id, now);
  else {
    workers.heartbeatAndStatus(worker.id, now, status);
    farm.events.publish("worker-status"); // admin views only: long polls do not listen
  }
  for (const jobId of touched) farm.tasks.settleJob(jobId, now);
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
function shouldCancel(farm: Farm, taskId: number | null, sessionId: string, worker: SyncingWorker): boolean {
  if (worker.drain === "NOW" || worker.disabled) return true;
  return taskId !== null && !farm.tasks.heldBy(taskId, sessionId);
}
