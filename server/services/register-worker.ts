/**
 * A worker agent announcing itself. A worker that registers again under a name its pool already
 * knows (it restarted, or it was fenced) keeps its id with a new lease epoch: whatever it ran
 * under the old lease is interrupted and requeued, and reports about it are refused from now on.
 * While the name's worker is still connected, only the same agent process may do that: another
 * one is refused until the first stops or times out.
 */
import { randomBytes } from "node:crypto";
import type { RegisterRequest, RegisterResponse } from "../../lib/farm/protocol";
import { refreshCompatibility } from "./compatibility";
import { AppError } from "./errors";
import type { Farm } from "./farm";
import type { PoolRow } from "./pools";
import { interruptWorkerSessions } from "./sweep-workers";

export function registerWorker(farm: Farm, pool: PoolRow, request: RegisterRequest): RegisterResponse {
  const now = farm.now();
  const sqlite = farm.store.sqlite;
  const result = farm.tasks.transaction(() => {
    const existing = sqlite
      .prepare<[string, string], { id: string; lease_epoch: number; instance_id: string | null; status: string; last_heartbeat_at: number }>(
        "SELECT id, lease_epoch, instance_id, status, last_heartbeat_at FROM workers WHERE pool_id = ? AND name = ?",
      )
      .get(pool.id, request.name);
    if (existing) {
      const connected = existing.status !== "NOT_RESPONDING" && existing.status !== "STOPPED" && existing.last_heartbeat_at >= now - farm.settings.workerTimeoutSeconds * 1000;
      const sameProcess = request.instanceId !== undefined && existing.instance_id === request.instanceId;
      if (connected && !sameProcess) {
        const ago = Math.round((now - existing.last_heartbeat_at) / 1000);
        throw new AppError("CONFLICT", `a worker named '${request.name}' is connected to pool ${pool.name} (last heard from ${ago} s ago): give this one another --name, or stop the other one`);
      }
      const jobs = interruptWorkerSessions(farm, existing.id, now);
      const epoch = existing.lease_epoch + 1;
      sqlite
        .prepare("UPDATE workers SET status = 'STARTED', instance_id = ?, capabilities = ?, lease_epoch = ?, last_heartbeat_at = ?, registered_at = ? WHERE id = ?")
        .run(request.instanceId ?? null, JSON.stringify(request.capabilities), epoch, now, now, existing.id);
      return { workerId: existing.id, leaseEpoch: epoch, jobs };
    }
    const workerId = `worker-${randomBytes(5).toString("hex")}`;
    sqlite
      .prepare("INSERT INTO workers (id, pool_id, name, instance_id, status, capabilities, lease_epoch, last_heartbeat_at, registered_at) VALUES (?, ?, ?, ?, 'STARTED', ?, 1, ?, ?)")
      .run(workerId, pool.id, request.name, request.instanceId ?? null, JSON.stringify(request.capabilities), now, now);
    return { workerId, leaseEpoch: 1, jobs: [] as string[] };
  });
  refreshCompatibility(farm);
  farm.events.emit("workers");
  if (result.jobs.length > 0) farm.events.emit("jobs", result.jobs);
  return { workerId: result.workerId, leaseEpoch: result.leaseEpoch, syncIntervalSeconds: farm.settings.syncIntervalSeconds };
}
