/**
 * Worker rows: enrolling and enrolling again (register-worker.ts), the admin's drain, disable and
 * remove (drain-worker.ts), the periodic sweeps that lose silent workers, find stalled Sessions
 * and remove long-unseen workers (sweep-workers.ts), and `loom serve`'s own agents left over
 * from a previous run (local-workers.ts).
 */
import type { DrainMode } from "../../lib/farm/statuses";
import type { sessionActions, workers } from "../db/schema";
import { repository } from "./repository";
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

export const workerLifecycleRepository = repository((sqlite) => {
  const byPoolAndName = sqlite.prepare<[string, string], EnrolledWorker>("SELECT id, lease_epoch, instance_id, status, last_heartbeat_at, removed_at FROM workers WHERE pool_id = ? AND name = ?");
  const reenroll = sqlite.prepare<[string | null, string, number, number, number, string, number, string]>(
    `UPDATE workers SET status = 'STARTED', instance_id = ?, capabilities = ?, lease_epoch = ?, last_heartbeat_at = ?, registered_at = ?,
       credential_hash = ?, token_generation = ?, removed_at = NULL WHERE id = ?`,
  );
  const insert = sqlite.prepare<[string, string, string, string | null, string, number, number, string, number]>(
    `INSERT INTO workers (id, pool_id, name, instance_id, status, capabilities, lease_epoch, last_heartbeat_at, registered_at, credential_hash, token_generation)
     VALUES (?, ?, ?, ?, 'STARTED', ?, 1, ?, ?, ?, ?)`,
  );
  const nameOfListed = sqlite.prepare<[string], RawPick<typeof workers, "name">>("SELECT name FROM workers WHERE id = ? AND removed_at IS NULL");
  const setDrain = sqlite.prepare<[DrainMode, string]>("UPDATE workers SET drain = ? WHERE id = ?");
  const clearDrain = sqlite.prepare<[string]>("UPDATE workers SET drain = NULL WHERE id = ?");
  const setDisabled = sqlite.prepare<[number, string]>("UPDATE workers SET disabled = ? WHERE id = ?");
  const removeNow = sqlite.prepare<[number, string]>("UPDATE workers SET removed_at = ?, credential_hash = NULL, status = 'STOPPED', lease_epoch = lease_epoch + 1 WHERE id = ?");
  const drainPool = sqlite.prepare<[DrainMode, string]>("UPDATE workers SET drain = ? WHERE pool_id = ? AND removed_at IS NULL");
  const silent = sqlite.prepare<[number], RawPick<typeof workers, "id">>("SELECT id FROM workers WHERE last_heartbeat_at < ? AND status NOT IN ('NOT_RESPONDING', 'STOPPED') AND removed_at IS NULL");
  const lose = sqlite.prepare<[string]>("UPDATE workers SET status = 'NOT_RESPONDING', lease_epoch = lease_epoch + 1 WHERE id = ?");
  const live = sqlite.prepare<[], RawPick<typeof workers, "id">>("SELECT id FROM workers WHERE status NOT IN ('NOT_RESPONDING', 'STOPPED') AND removed_at IS NULL");
  const firstOpenAction = sqlite.prepare<[string], RawPick<typeof sessionActions, "seq" | "status" | "assigned_at">>(
    "SELECT seq, status, assigned_at FROM session_actions WHERE session_id = ? AND status IN ('ASSIGNED', 'RUNNING') ORDER BY seq LIMIT 1",
  );
  const actionEndedAt = sqlite.prepare<[string, number], RawPick<typeof sessionActions, "ended_at">>("SELECT ended_at FROM session_actions WHERE session_id = ? AND seq = ?");
  const unseen = sqlite.prepare<[number], RawPick<typeof workers, "id" | "name">>(
    "SELECT id, name FROM workers WHERE last_heartbeat_at < ? AND removed_at IS NULL AND status IN ('NOT_RESPONDING', 'STOPPED')",
  );
  const removeUnseen = sqlite.prepare<[number, string]>("UPDATE workers SET removed_at = ?, credential_hash = NULL WHERE id = ?");
  const liveLocal = sqlite.prepare<[string, string, string], RawPick<typeof workers, "id">>(
    "SELECT id FROM workers WHERE pool_id = ? AND name = ? AND instance_id = ? AND removed_at IS NULL AND status NOT IN ('NOT_RESPONDING', 'STOPPED')",
  );
  return {
    /** The pool's worker of that name, removed or not. */
    byPoolAndName: (poolId: string, name: string) => byPoolAndName.get(poolId, name),
    /** The same name enrolling again: a new lease epoch and credential, no longer removed. */
    reenroll(workerId: string, leaseEpoch: number, e: Enrollment): void {
      reenroll.run(e.instanceId, e.capabilities, leaseEpoch, e.now, e.now, e.credentialHash, e.tokenGeneration, workerId);
    },
    /** A new worker, STARTED at lease epoch 1. */
    insert(workerId: string, poolId: string, name: string, e: Enrollment): void {
      insert.run(workerId, poolId, name, e.instanceId, e.capabilities, e.now, e.now, e.credentialHash, e.tokenGeneration);
    },
    /** A worker's name, unless it is removed (then undefined, as for an unknown id). */
    listedName: (workerId: string): string | undefined => nameOfListed.get(workerId)?.name,
    setDrain: (workerId: string, mode: DrainMode) => void setDrain.run(mode, workerId),
    clearDrain: (workerId: string) => void clearDrain.run(workerId),
    setDisabled: (workerId: string, disabled: boolean) => void setDisabled.run(disabled ? 1 : 0, workerId),
    /** An admin's removal: credential revoked, STOPPED, and a new lease epoch so its late reports are refused. */
    remove: (workerId: string, now: number) => void removeNow.run(now, workerId),
    /** Drains the pool's listed workers; returns how many. */
    drainPool: (poolId: string, mode: DrainMode): number => drainPool.run(mode, poolId).changes,
    /** Listed workers still counted as connected whose last sync is older than `before`. */
    silentSince: (before: number) => silent.all(before),
    /** NOT_RESPONDING with a new lease epoch. */
    lose: (workerId: string) => void lose.run(workerId),
    /** Listed workers counted as connected. */
    live: () => live.all(),
    /** The first unfinished action of a Session (actions run in order: if it is ASSIGNED, nothing runs). */
    firstOpenAction: (sessionId: string) => firstOpenAction.get(sessionId),
    actionEndedAt: (sessionId: string, seq: number) => actionEndedAt.get(sessionId, seq),
    /** Listed workers not connected and not seen since `before`. */
    unseenSince: (before: number) => unseen.all(before),
    /** The retention's removal: no longer listed, credential revoked. */
    removeUnseen: (workerId: string, now: number) => void removeUnseen.run(now, workerId),
    /** The pool's listed, connected worker of that name still held by that agent process. */
    liveInstance: (poolId: string, name: string, instanceId: string) => liveLocal.get(poolId, name, instanceId),
  };
});
