/** Read models of pools and workers for the admin views and the API. */
import { WORKER_STATUSES, type DrainMode, type WorkerStatus } from "../../lib/farm/statuses";
import type { WorkerCapabilities } from "../../lib/openjd";
import type { Farm } from "../services/farm";
import { keptAwayByWorker } from "./retry-rules";

export type WorkerCounts = Record<WorkerStatus, number>;

export function emptyWorkerCounts(): WorkerCounts {
  return Object.fromEntries(WORKER_STATUSES.map((s) => [s, 0])) as WorkerCounts;
}

/** Columns of a worker tally; GROUP BY status (and whatever else is grouped). */
export const WORKER_TALLY_COLUMNS = "status, COUNT(*) AS n, SUM(drain IS NOT NULL) AS drained, SUM(disabled) AS disabled";

export interface WorkerTallyRow {
  status: WorkerStatus;
  n: number;
  drained: number;
  disabled: number;
}

/** Workers per status, and how many an admin drained (after task or now) or disabled, whatever their status. */
export function tallyWorkers(rows: Iterable<WorkerTallyRow>): { workers: WorkerCounts; drained: number; disabled: number } {
  const workers = emptyWorkerCounts();
  let drained = 0;
  let disabled = 0;
  for (const row of rows) {
    if (Object.hasOwn(workers, row.status)) workers[row.status] += row.n;
    drained += row.drained;
    disabled += row.disabled;
  }
  return { workers, drained, disabled };
}

export interface PoolView {
  id: string;
  name: string;
  description: string;
  enabled: boolean;
  workerCount: number;
  /** Its workers per status. */
  workers: WorkerCounts;
  /** Its workers an admin drained or disabled. */
  drained: number;
  disabled: number;
  createdAt: number;
  /** When its token was last rotated; null while it is the first one. */
  tokenRotatedAt: number | null;
}

export function listPools(farm: Farm): PoolView[] {
  const sqlite = farm.store.sqlite;
  const pools = sqlite
    .prepare<[], { id: string; name: string; description: string; enabled: number; created_at: number; token_rotated_at: number | null }>(
      "SELECT id, name, description, enabled, created_at, token_rotated_at FROM pools ORDER BY name",
    )
    .all();
  const counts = sqlite.prepare<[], WorkerTallyRow & { pool_id: string }>(`SELECT pool_id, ${WORKER_TALLY_COLUMNS} FROM workers WHERE removed_at IS NULL GROUP BY pool_id, status`).all();
  return pools.map((p) => {
    const { workers, drained, disabled } = tallyWorkers(counts.filter((c) => c.pool_id === p.id));
    const workerCount = WORKER_STATUSES.reduce((sum, s) => sum + workers[s], 0);
    return { id: p.id, name: p.name, description: p.description, enabled: p.enabled === 1, workerCount, workers, drained, disabled, createdAt: p.created_at, tokenRotatedAt: p.token_rotated_at };
  });
}

export interface WorkerView {
  id: string;
  poolId: string;
  poolName: string;
  name: string;
  status: WorkerStatus;
  capabilities: WorkerCapabilities;
  drain: DrainMode | null;
  disabled: boolean;
  lastHeartbeatAt: number;
  registeredAt: number;
  /** The Session it holds (not ended), its job, and the task it runs in it, if any. */
  sessionId: string | null;
  jobId: string | null;
  jobName: string | null;
  taskId: number | null;
  stepName: string | null;
  taskIndex: number | null;
  /** Jobs whose tasks failed on it too often (the job's maxWorkerFailures): it gets none of their tasks until a wrangler clears it. */
  keptAwayFrom: Array<{ jobId: string; jobName: string; failures: number; blockedAt: number }>;
}

interface WorkerRow {
  id: string;
  pool_id: string;
  pool_name: string;
  name: string;
  status: WorkerStatus;
  capabilities: string;
  drain: DrainMode | null;
  disabled: number;
  last_heartbeat_at: number;
  registered_at: number;
}

interface CurrentRow {
  session_id: string;
  job_id: string;
  job_name: string;
  task_id: number | null;
  step_name: string | null;
  task_index: number | null;
}

export function listWorkers(farm: Farm, poolId?: string): WorkerView[] {
  const sqlite = farm.store.sqlite;
  const rows = sqlite
    .prepare<unknown[], WorkerRow>(
      `SELECT w.id, w.pool_id, p.name AS pool_name, w.name, w.status, w.capabilities, w.drain, w.disabled, w.last_heartbeat_at, w.registered_at
       FROM workers w JOIN pools p ON p.id = w.pool_id WHERE w.removed_at IS NULL ${poolId ? "AND w.pool_id = ?" : ""} ORDER BY w.name, p.name`,
    )
    .all(...(poolId ? [poolId] : []));
  // Through the Session's open actions (a partial index), not a scan of every task.
  const current = sqlite.prepare<[string], CurrentRow>(
    `SELECT s.id AS session_id, s.job_id, j.name AS job_name, t.id AS task_id, st.name AS step_name, t.task_index
     FROM sessions s JOIN jobs j ON j.id = s.job_id
     LEFT JOIN tasks t ON t.id = (
       SELECT a.task_id FROM session_actions a
       WHERE a.session_id = s.id AND a.status IN ('ASSIGNED', 'RUNNING') AND a.kind = 'TASK_RUN' ORDER BY a.seq LIMIT 1)
     LEFT JOIN steps st ON st.id = t.step_id
     WHERE s.worker_id = ? AND s.state != 'ENDED' ORDER BY s.started_at DESC LIMIT 1`,
  );
  const keptAway = keptAwayByWorker(farm);
  return rows.map((w) => {
    const session = current.get(w.id);
    return {
      id: w.id,
      poolId: w.pool_id,
      poolName: w.pool_name,
      name: w.name,
      status: w.status,
      capabilities: JSON.parse(w.capabilities) as WorkerCapabilities,
      drain: w.drain,
      disabled: w.disabled === 1,
      lastHeartbeatAt: w.last_heartbeat_at,
      registeredAt: w.registered_at,
      sessionId: session?.session_id ?? null,
      jobId: session?.job_id ?? null,
      jobName: session?.job_name ?? null,
      taskId: session?.task_id ?? null,
      stepName: session?.step_name ?? null,
      taskIndex: session?.task_index ?? null,
      keptAwayFrom: (keptAway.get(w.id) ?? []).map((f) => ({ jobId: f.jobId, jobName: f.jobName, failures: f.failures, blockedAt: f.blockedAt ?? f.lastFailureAt })),
    };
  });
}
