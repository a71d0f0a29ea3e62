/**
 * A worker's heartbeat (`POST /api/worker/sync`), in one transaction: check its lease, apply its
 * reports, send again anything it never received, tell it what to cancel, and — when it has
 * nothing outstanding — give it its next piece of work. One piece at a time: the worker syncs at
 * once when an action ends, so a Session is fed task after task without entering its
 * environments again.
 */
import type Database from "better-sqlite3";
import type { ActionUpdate, SessionAssignment, SyncRequest, SyncResponse } from "../../lib/farm/protocol";
import type { WorkerStatus } from "../../lib/farm/statuses";
import type { WorkerCapabilities } from "../../lib/openjd/capabilities";
import { AppError } from "./errors";
import type { Farm } from "./farm";
import type { PoolRow } from "./pools";

interface WorkerRow {
  id: string;
  pool_id: string;
  status: WorkerStatus;
  capabilities: string;
  lease_epoch: number;
  drain: "AFTER_TASK" | "NOW" | null;
  disabled: number;
}

/**
 * Prepared once per database: every sync runs them. The heartbeat leaves `status` out when it does
 * not change, because naming an indexed column in an UPDATE rewrites its index page even when the
 * value is the same — one more page written by every sync transaction.
 */
const preparedStatements = new WeakMap<Database.Database, ReturnType<typeof prepareStatements>>();

function prepareStatements(sqlite: Database.Database) {
  return {
    worker: sqlite.prepare<[string, string], WorkerRow>("SELECT id, pool_id, status, capabilities, lease_epoch, drain, disabled FROM workers WHERE id = ? AND pool_id = ?"),
    heartbeat: sqlite.prepare<[number, string]>("UPDATE workers SET last_heartbeat_at = ? WHERE id = ?"),
    heartbeatAndStatus: sqlite.prepare<[number, WorkerStatus, string]>("UPDATE workers SET last_heartbeat_at = ?, status = ? WHERE id = ?"),
  };
}

function workerStatements(sqlite: Database.Database): ReturnType<typeof prepareStatements> {
  let statements = preparedStatements.get(sqlite);
  if (!statements) preparedStatements.set(sqlite, (statements = prepareStatements(sqlite)));
  return statements;
}

export function syncWorker(farm: Farm, pool: PoolRow, request: SyncRequest): SyncResponse {
  const sqlite = farm.store.sqlite;
  const now = farm.now();
  const touched = new Set<string>();
  const response = sqlite.transaction((): SyncResponse => {
    try {
      const reply = syncInTransaction(farm, pool, request, now, touched);
      farm.tasks.flushCounts();
      return reply;
    } catch (error) {
      farm.tasks.discardCounts();
      throw error;
    }
  })();
  if (touched.size > 0) farm.events.emit("jobs", [...touched]);
  return response;
}

function syncInTransaction(farm: Farm, pool: PoolRow, request: SyncRequest, now: number, touched: Set<string>): SyncResponse {
  const sqlite = farm.store.sqlite;
  const statements = workerStatements(sqlite);
  const worker = statements.worker.get(request.workerId, pool.id);
  if (!worker) throw new AppError("NOT_FOUND", `worker ${request.workerId} is not registered in pool ${pool.name}; register again`);
  if (worker.lease_epoch !== request.leaseEpoch || worker.status === "NOT_RESPONDING") {
    throw new AppError("LEASE_CONFLICT", `lease ${request.leaseEpoch} of worker ${worker.id} is no longer valid (now ${worker.lease_epoch}): stop everything and register again`);
  }

  // 1. Reports, in the order the worker made them (an action's start folded into its end when both came at once).
  const sessions = new Map<string, ReturnType<typeof farm.sessions.session>>();
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
  let open = farm.sessions.openSessions(worker.id, worker.lease_epoch);
  for (const session of open) {
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
  }
  open = farm.sessions.openSessions(worker.id, worker.lease_epoch);

  // 3. New work only when nothing is outstanding.
  const acceptsWork = !worker.drain && !worker.disabled && !request.draining && pool.enabled === 1;
  if (outstanding === 0) {
    const current = open[0] ?? null;
    const next = farm.dispatcher.next(
      { id: worker.id, leaseEpoch: worker.lease_epoch, capabilities: JSON.parse(worker.capabilities) as WorkerCapabilities, acceptsWork },
      current,
      now,
    );
    if (next) {
      assignments.push(next);
      touched.add(next.job.id);
    }
  }
  const busy = outstanding > 0 || assignments.length > 0;
  const status: WorkerStatus = request.draining && !busy && open.length === 0 ? "STOPPED" : request.draining || worker.drain ? (busy ? "STOPPING" : "IDLE") : busy ? "RUNNING" : "IDLE";
  if (status === worker.status) statements.heartbeat.run(now, worker.id);
  else statements.heartbeatAndStatus.run(now, status, worker.id);
  for (const jobId of touched) farm.tasks.settleJob(jobId, now);
  return { leaseEpoch: worker.lease_epoch, syncIntervalSeconds: farm.settings.syncIntervalSeconds, assignments, cancel, stop: false };
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
function shouldCancel(farm: Farm, taskId: number | null, sessionId: string, worker: WorkerRow): boolean {
  if (worker.drain === "NOW" || worker.disabled) return true;
  if (taskId === null) return false;
  const task = farm.tasks.task(taskId);
  return !task || task.session_id !== sessionId || (task.status !== "ASSIGNED" && task.status !== "RUNNING");
}
