/**
 * Worker rows: enrolling and enrolling again (register-worker.ts), the admin's drain, disable and
 * remove (drain-worker.ts), the periodic sweeps that lose silent workers, find stalled Sessions
 * and remove long-unseen workers (sweep-workers.ts), and `loom serve`'s own agents left over
 * from a previous run (local-workers.ts).
 */
import type { RunResult } from "./engine/engine";
import type { DrainMode } from "../../lib/farm/statuses";
import type { sessionActions, workers } from "../db/schema";
import type { ReadTx, Tx } from "./repository";
import type { RawPick } from "./rows";

export type EnrolledWorker = RawPick<typeof workers, "id" | "lease_epoch" | "instance_id" | "status" | "last_heartbeat_at" | "removed_at">;

/** What an enrollment writes (a new row, or the same name's row taken over with a new lease). */
export interface Enrollment {
  instanceId: string | null;
  /** As JSON text. */
  capabilities: string;
  now: number;
  credentialHash: string;
  tokenGeneration: number;
}

type WorkerId = RawPick<typeof workers, "id">;

const BY_POOL_AND_NAME = "SELECT id, lease_epoch, instance_id, status, last_heartbeat_at, removed_at FROM workers WHERE pool_id = ? AND name = ?";
const REENROLL = `UPDATE workers SET status = 'STARTED', instance_id = ?, capabilities = ?, lease_epoch = ?, last_heartbeat_at = ?, registered_at = ?,
     credential_hash = ?, token_generation = ?, removed_at = NULL WHERE id = ?`;
const INSERT = `INSERT INTO workers (id, pool_id, name, instance_id, status, capabilities, lease_epoch, last_heartbeat_at, registered_at, credential_hash, token_generation)
   VALUES (?, ?, ?, ?, 'STARTED', ?, 1, ?, ?, ?, ?)`;
const NAME_OF_LISTED = "SELECT name FROM workers WHERE id = ? AND removed_at IS NULL";
const SET_DRAIN = "UPDATE workers SET drain = ? WHERE id = ?";
const CLEAR_DRAIN = "UPDATE workers SET drain = NULL WHERE id = ?";
const SET_DISABLED = "UPDATE workers SET disabled = ? WHERE id = ?";
const REMOVE_NOW = "UPDATE workers SET removed_at = ?, credential_hash = NULL, status = 'STOPPED', lease_epoch = lease_epoch + 1 WHERE id = ?";
const DRAIN_POOL = "UPDATE workers SET drain = ? WHERE pool_id = ? AND removed_at IS NULL";
const SILENT = "SELECT id FROM workers WHERE last_heartbeat_at < ? AND status NOT IN ('NOT_RESPONDING', 'STOPPED') AND removed_at IS NULL";
const LOSE = "UPDATE workers SET status = 'NOT_RESPONDING', lease_epoch = lease_epoch + 1 WHERE id = ?";
const LIVE = "SELECT id FROM workers WHERE status NOT IN ('NOT_RESPONDING', 'STOPPED') AND removed_at IS NULL";
const FIRST_OPEN_ACTION = "SELECT seq, status, assigned_at FROM session_actions WHERE session_id = ? AND status IN ('ASSIGNED', 'RUNNING') ORDER BY seq LIMIT 1";
const ACTION_ENDED_AT = "SELECT ended_at FROM session_actions WHERE session_id = ? AND seq = ?";
const UNSEEN = "SELECT id, name FROM workers WHERE last_heartbeat_at < ? AND removed_at IS NULL AND status IN ('NOT_RESPONDING', 'STOPPED')";
const REMOVE_UNSEEN = "UPDATE workers SET removed_at = ?, credential_hash = NULL WHERE id = ?";
const LIVE_LOCAL = "SELECT id FROM workers WHERE pool_id = ? AND name = ? AND instance_id = ? AND removed_at IS NULL AND status NOT IN ('NOT_RESPONDING', 'STOPPED')";

export const workerLifecycleRepository = {
  /** The pool's worker of that name, removed or not. */
  byPoolAndName: (tx: ReadTx, poolId: string, name: string) => tx.get<EnrolledWorker>(BY_POOL_AND_NAME, [poolId, name]),
  /** The same name enrolling again: a new lease epoch and credential, no longer removed. */
  reenroll(tx: Tx, workerId: string, leaseEpoch: number, e: Enrollment): Promise<RunResult> {
    return tx.run(REENROLL, [e.instanceId, e.capabilities, leaseEpoch, e.now, e.now, e.credentialHash, e.tokenGeneration, workerId]);
  },
  /** A new worker, STARTED at lease epoch 1. */
  insert(tx: Tx, workerId: string, poolId: string, name: string, e: Enrollment): Promise<RunResult> {
    return tx.run(INSERT, [workerId, poolId, name, e.instanceId, e.capabilities, e.now, e.now, e.credentialHash, e.tokenGeneration]);
  },
  /** A worker's name, unless it is removed (then undefined, as for an unknown id). */
  listedName: async (tx: ReadTx, workerId: string): Promise<string | undefined> => (await tx.get<RawPick<typeof workers, "name">>(NAME_OF_LISTED, [workerId]))?.name,
  setDrain: (tx: Tx, workerId: string, mode: DrainMode): Promise<RunResult> => tx.run(SET_DRAIN, [mode, workerId]),
  clearDrain: (tx: Tx, workerId: string): Promise<RunResult> => tx.run(CLEAR_DRAIN, [workerId]),
  setDisabled: (tx: Tx, workerId: string, disabled: boolean): Promise<RunResult> => tx.run(SET_DISABLED, [disabled, workerId]),
  /** An admin's removal: credential revoked, STOPPED, and a new lease epoch so its late reports are refused. */
  remove: (tx: Tx, workerId: string, now: number): Promise<RunResult> => tx.run(REMOVE_NOW, [now, workerId]),
  /** Drains the pool's listed workers; returns how many. */
  drainPool: async (tx: Tx, poolId: string, mode: DrainMode): Promise<number> => (await tx.run(DRAIN_POOL, [mode, poolId])).changes,
  /** Listed workers still counted as connected whose last sync is older than `before`. */
  silentSince: (tx: ReadTx, before: number) => tx.all<WorkerId>(SILENT, [before]),
  /** NOT_RESPONDING with a new lease epoch. */
  lose: (tx: Tx, workerId: string): Promise<RunResult> => tx.run(LOSE, [workerId]),
  /** Listed workers counted as connected. */
  live: (tx: ReadTx) => tx.all<WorkerId>(LIVE),
  /** The first unfinished action of a Session (actions run in order: if it is ASSIGNED, nothing runs). */
  firstOpenAction: (tx: ReadTx, sessionId: string) => tx.get<RawPick<typeof sessionActions, "seq" | "status" | "assigned_at">>(FIRST_OPEN_ACTION, [sessionId]),
  actionEndedAt: (tx: ReadTx, sessionId: string, seq: number) => tx.get<RawPick<typeof sessionActions, "ended_at">>(ACTION_ENDED_AT, [sessionId, seq]),
  /** Listed workers not connected and not seen since `before`. */
  unseenSince: (tx: ReadTx, before: number) => tx.all<RawPick<typeof workers, "id" | "name">>(UNSEEN, [before]),
  /** The retention's removal: no longer listed, credential revoked. */
  removeUnseen: (tx: Tx, workerId: string, now: number): Promise<RunResult> => tx.run(REMOVE_UNSEEN, [now, workerId]),
  /** The pool's listed, connected worker of that name still held by that agent process. */
  liveInstance: (tx: ReadTx, poolId: string, name: string, instanceId: string) => tx.get<WorkerId>(LIVE_LOCAL, [poolId, name, instanceId]),
};
