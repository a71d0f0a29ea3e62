/**
 * What every worker sync (server/services/sync-worker.ts) reads and writes of its worker: the
 * farm's hottest statements, prepared once per connection. (Enrolling, draining and sweeping
 * workers: worker-lifecycle.ts.)
 */
import type { WorkerStatus } from "../../lib/farm/statuses";
import type { workers } from "../db/schema";
import { repository } from "./repository";
import type { RawPick } from "./rows";

/** A worker as its sync reads it. */
export type SyncingWorker = RawPick<typeof workers, "id" | "pool_id" | "status" | "capabilities" | "lease_epoch" | "drain" | "disabled">;

export const workerSyncRepository = repository((sqlite) => {
  const byId = sqlite.prepare<[string], SyncingWorker>("SELECT id, pool_id, status, capabilities, lease_epoch, drain, disabled FROM workers WHERE id = ?");
  // The heartbeat leaves `status` out when it does not change, because naming an indexed column
  // in an UPDATE rewrites its index page even when the value is the same: one more page written
  // by every sync transaction.
  const heartbeat = sqlite.prepare<[number, string]>("UPDATE workers SET last_heartbeat_at = ? WHERE id = ?");
  const heartbeatAndStatus = sqlite.prepare<[number, WorkerStatus, string]>("UPDATE workers SET last_heartbeat_at = ?, status = ? WHERE id = ?");
  return {
    byId: (workerId: string): SyncingWorker | undefined => byId.get(workerId),
    heartbeat: (workerId: string, now: number) => void heartbeat.run(now, workerId),
    heartbeatAndStatus: (workerId: string, now: number, status: WorkerStatus) => void heartbeatAndStatus.run(now, status, workerId),
  };
});
