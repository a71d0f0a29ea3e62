/** Read models of pools and workers for the admin views and the API. */
import { WORKER_STATUSES, type DrainMode, type WorkerStatus } from "../../lib/farm/statuses";
import type { WorkerCapabilities } from "../../lib/openjd";
import type { Farm } from "../context/farm";
import { workerQueriesRepository, type CurrentWorkRow, type WorkerListRow, type WorkerTallyRow } from "../store/worker-queries";
import { keptAwayByWorker, type WorkerFailureView } from "./retry-rules";

export type WorkerCounts = Record<WorkerStatus, number>;

export function emptyWorkerCounts(): WorkerCounts {
  return Object.fromEntries(WORKER_STATUSES.map((s) => [s, 0])) as WorkerCounts;
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

export async function listPools(farm: Farm): Promise<PoolView[]> {
  // One snapshot: the pools and their workers' counts.
  const [pools, counts] = await farm.store.read(async (tx) => [await workerQueriesRepository.pools(tx), await workerQueriesRepository.tallyByPool(tx)] as const, { consistent: true });
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

export function listWorkers(farm: Farm, poolId?: string): Promise<WorkerView[]> {
  // One snapshot: the workers, what each runs, and the jobs each is kept away from.
  return farm.store.read(
    async (tx) => {
      const rows = await workerQueriesRepository.list(tx, poolId);
      const keptAway = await keptAwayByWorker(tx);
      const views: WorkerView[] = [];
      for (const w of rows) views.push(workerView(w, await workerQueriesRepository.currentWork(tx, w.id), keptAway.get(w.id) ?? []));
      return views;
    },
    { consistent: true },
  );
}

function workerView(w: WorkerListRow, session: CurrentWorkRow | undefined, keptAway: readonly WorkerFailureView[]): WorkerView {
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
    keptAwayFrom: keptAway.map((f) => ({ jobId: f.jobId, jobName: f.jobName, failures: f.failures, blockedAt: f.blockedAt ?? f.lastFailureAt })),
  };
}
