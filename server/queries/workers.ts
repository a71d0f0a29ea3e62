/** Read models of pools and workers for the admin views and the API. */
import type { DrainMode, WorkerStatus } from "../../lib/farm/statuses";
import type { WorkerCapabilities } from "../../lib/openjd/capabilities";
import type { Farm } from "../services/farm";

export interface PoolView {
  id: string;
  name: string;
  description: string;
  enabled: boolean;
  workerCount: number;
  createdAt: number;
}

export function listPools(farm: Farm): PoolView[] {
  return farm.store.sqlite
    .prepare<[], { id: string; name: string; description: string; enabled: number; created_at: number; n: number }>(
      "SELECT p.id, p.name, p.description, p.enabled, p.created_at, COUNT(w.id) AS n FROM pools p LEFT JOIN workers w ON w.pool_id = p.id GROUP BY p.id ORDER BY p.name",
    )
    .all()
    .map((p) => ({ id: p.id, name: p.name, description: p.description, enabled: p.enabled === 1, workerCount: p.n, createdAt: p.created_at }));
}

export interface WorkerView {
  id: string;
  poolId: string;
  name: string;
  status: WorkerStatus;
  capabilities: WorkerCapabilities;
  drain: DrainMode | null;
  disabled: boolean;
  lastHeartbeatAt: number;
  registeredAt: number;
  sessionId: string | null;
  jobId: string | null;
  taskId: number | null;
}

export function listWorkers(farm: Farm, poolId?: string): WorkerView[] {
  const sqlite = farm.store.sqlite;
  const rows = sqlite
    .prepare<unknown[], { id: string; pool_id: string; name: string; status: WorkerStatus; capabilities: string; drain: DrainMode | null; disabled: number; last_heartbeat_at: number; registered_at: number }>(
      `SELECT id, pool_id, name, status, capabilities, drain, disabled, last_heartbeat_at, registered_at FROM workers ${poolId ? "WHERE pool_id = ?" : ""} ORDER BY name`,
    )
    .all(...(poolId ? [poolId] : []));
  const current = sqlite.prepare<[string], { session_id: string; job_id: string; task_id: number | null }>(
    `SELECT s.id AS session_id, s.job_id, (SELECT t.id FROM tasks t WHERE t.session_id = s.id AND t.status IN ('ASSIGNED', 'RUNNING') LIMIT 1) AS task_id
     FROM sessions s WHERE s.worker_id = ? AND s.state != 'ENDED' ORDER BY s.started_at DESC LIMIT 1`,
  );
  return rows.map((w) => {
    const session = current.get(w.id);
    return {
      id: w.id,
      poolId: w.pool_id,
      name: w.name,
      status: w.status,
      capabilities: JSON.parse(w.capabilities) as WorkerCapabilities,
      drain: w.drain,
      disabled: w.disabled === 1,
      lastHeartbeatAt: w.last_heartbeat_at,
      registeredAt: w.registered_at,
      sessionId: session?.session_id ?? null,
      jobId: session?.job_id ?? null,
      taskId: session?.task_id ?? null,
    };
  });
}
