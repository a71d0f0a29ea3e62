/**
 * A worker agent announcing itself. A worker that registers again under a name its pool already
 * knows (it restarted, or it was fenced) keeps its id with a new lease epoch: whatever it ran
 * under the old lease is interrupted and requeued, and reports about it are refused from now on.
 */
import { randomBytes } from "node:crypto";
import type { RegisterRequest, RegisterResponse } from "../../lib/farm/protocol";
import { refreshCompatibility } from "./compatibility";
import type { Farm } from "./farm";
import type { PoolRow } from "./pools";
import { interruptWorkerSessions } from "./sweep-workers";

export function registerWorker(farm: Farm, pool: PoolRow, request: RegisterRequest): RegisterResponse {
  const now = farm.now();
  const sqlite = farm.store.sqlite;
  const result = sqlite.transaction(() => {
    const existing = sqlite.prepare<[string, string], { id: string; lease_epoch: number }>("SELECT id, lease_epoch FROM workers WHERE pool_id = ? AND name = ?").get(pool.id, request.name);
    if (existing) {
      const jobs = interruptWorkerSessions(farm, existing.id, now);
      const epoch = existing.lease_epoch + 1;
      sqlite
        .prepare("UPDATE workers SET status = 'STARTED', capabilities = ?, lease_epoch = ?, last_heartbeat_at = ?, registered_at = ? WHERE id = ?")
        .run(JSON.stringify(request.capabilities), epoch, now, now, existing.id);
      return { workerId: existing.id, leaseEpoch: epoch, jobs };
    }
    const workerId = `worker-${randomBytes(5).toString("hex")}`;
    sqlite
      .prepare("INSERT INTO workers (id, pool_id, name, status, capabilities, lease_epoch, last_heartbeat_at, registered_at) VALUES (?, ?, ?, 'STARTED', ?, 1, ?, ?)")
      .run(workerId, pool.id, request.name, JSON.stringify(request.capabilities), now, now);
    return { workerId, leaseEpoch: 1, jobs: [] as string[] };
  })();
  refreshCompatibility(farm);
  farm.events.emit("workers");
  if (result.jobs.length > 0) farm.events.emit("jobs", result.jobs);
  return { workerId: result.workerId, leaseEpoch: result.leaseEpoch, syncIntervalSeconds: farm.settings.syncIntervalSeconds };
}
