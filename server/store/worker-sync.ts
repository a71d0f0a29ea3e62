/**
 * What every worker sync (server/services/sync-worker.ts) reads and writes of its worker: the
 * farm's hottest statements, named and prepared once per connection. (Enrolling, draining and
 * sweeping workers: worker-lifecycle.ts.)
 */
import type { RunResult } from "./engine/engine";
import type { WorkerStatus } from "../../lib/farm/statuses";
import type { workers } from "../db/schema";
import { statement, type ReadTx, type Tx } from "./repository";
import type { RawPick } from "./rows";

/** A worker as its sync reads it. */
export type SyncingWorker = RawPick<typeof workers, "id" | "pool_id" | "status" | "capabilities" | "lease_epoch" | "drain" | "disabled">;

const BY_ID = statement<SyncingWorker>("worker-sync.byId", "SELECT id, pool_id, status, capabilities, lease_epoch, drain, disabled FROM workers WHERE id = ?");
// The heartbeat leaves `status` out when it does not change, because naming an indexed column
// in an UPDATE rewrites its index page even when the value is the same: one more page written
// by every sync transaction.
const HEARTBEAT = statement("worker-sync.heartbeat", "UPDATE workers SET last_heartbeat_at = ? WHERE id = ?");
const HEARTBEAT_AND_STATUS = statement("worker-sync.heartbeatAndStatus", "UPDATE workers SET last_heartbeat_at = ?, status = ? WHERE id = ?");

export const workerSyncRepository = {
  byId: (tx: ReadTx, workerId: string): Promise<SyncingWorker | undefined> => tx.get(BY_ID, [workerId]),
  heartbeat: (tx: Tx, workerId: string, now: number): Promise<RunResult> => tx.run(HEARTBEAT, [now, workerId]),
  heartbeatAndStatus: (tx: Tx, workerId: string, now: number, status: WorkerStatus): Promise<RunResult> => tx.run(HEARTBEAT_AND_STATUS, [now, status, workerId]),
};
