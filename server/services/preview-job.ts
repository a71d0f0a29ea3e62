/**
 * A submission checked without writing anything (the portal's Preview): everything submitJob
 * would refuse, or the job's name, its steps with their dependencies, task and chunk counts, and
 * for each step which pools can run it and, when one cannot, why — with the same host requirement
 * matching that holds steps NOT_COMPATIBLE on the farm (lib/openjd/capabilities). The checking
 * runs on a check thread within the farm's budget (server/checks/run-checks.ts).
 */
import type { WorkerStatus } from "../../lib/farm/statuses";
import { type HostRequirements, matchHostRequirements, type WorkerCapabilities } from "../../lib/openjd";
import type { ResolvedDependency } from "../../lib/openjd";
import { validateOffLoop } from "../checks/run-checks";
import { workerQueriesRepository } from "../store/worker-queries";
import type { Farm } from "../context/farm";
import type { SubmitError, SubmitJobInput } from "./submit-job";

export interface PoolMembers {
  id: string;
  name: string;
  enabled: boolean;
  workers: ReadonlyArray<{ status: WorkerStatus; capabilities: WorkerCapabilities }>;
}

export interface PoolFit {
  poolId: string;
  pool: string;
  canRun: boolean;
  /** Workers of the pool that are not disabled. */
  workers: number;
  /** Of those, the ones whose capabilities meet the step's host requirements. */
  matching: number;
  /** Matching workers that are connected now (not STOPPED or NOT_RESPONDING). */
  online: number;
  /** Why the pool cannot run the step; null when it can. */
  reason: string | null;
}

export interface PreviewStep {
  name: string;
  dependencies: string[];
  /** Each dependency's kind (whole step, any task, per task), label and edge count (TASK_DEPENDENCIES). */
  taskDependencies: ResolvedDependency[];
  /** Tasks the step creates; a chunk of frames is one task. */
  taskCount: number;
  chunked: boolean;
  chunk: { parameter: string; items: number; itemsPerChunk: number } | null;
  hostRequirements: HostRequirements | null;
  pools: PoolFit[];
}

/** `edgeCount`: the task-to-task edges the job would hold (contract §2.3 caps them). */
export type PreviewResult = { ok: true; name: string; taskCount: number; edgeCount: number; steps: PreviewStep[] } | { ok: false; errors: SubmitError[] };

const OFFLINE: ReadonlySet<WorkerStatus> = new Set<WorkerStatus>(["STOPPED", "NOT_RESPONDING"]);

export async function previewJob(farm: Farm, input: SubmitJobInput): Promise<PreviewResult> {
  const valid = await validateOffLoop(farm, input.owner?.userId ?? "anonymous", input);
  if (!valid.ok) return valid;
  const pools = await readPools(farm);
  const { plan } = valid;
  return {
    ok: true,
    name: plan.name,
    taskCount: plan.taskCount,
    edgeCount: plan.edgeCount,
    steps: plan.runOrder
      .map((index) => plan.steps[index]!)
      .map((step) => ({
        name: step.name,
        dependencies: step.dependencies,
        taskDependencies: step.taskDependencies,
        taskCount: step.taskCount,
        chunked: step.chunked,
        chunk: step.chunk,
        hostRequirements: step.hostRequirements,
        pools: poolFits(step.hostRequirements, pools),
      })),
  };
}

/** Whether each pool has a worker that can run a step with these host requirements, and if not, why. */
export function poolFits(requirements: HostRequirements | null, pools: readonly PoolMembers[]): PoolFit[] {
  return pools.map((pool) => {
    const base = { poolId: pool.id, pool: pool.name, workers: pool.workers.length };
    const reasons = new Map<string, number>();
    let matching = 0;
    let online = 0;
    for (const worker of pool.workers) {
      const match = matchHostRequirements(requirements, worker.capabilities);
      if (match.ok) {
        matching++;
        if (!OFFLINE.has(worker.status)) online++;
      } else for (const reason of match.reasons) reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    }
    let reason: string | null = null;
    if (!pool.enabled) reason = "the pool is disabled";
    else if (pool.workers.length === 0) reason = "the pool has no workers";
    else if (matching === 0) {
      const common = [...reasons].sort((a, b) => b[1] - a[1]).map(([r]) => r);
      reason = `none of its ${pool.workers.length} worker${pool.workers.length === 1 ? "" : "s"} meets the host requirements: ${common.slice(0, 3).join("; ")}`;
    }
    return { ...base, canRun: reason === null, matching, online, reason };
  });
}

async function readPools(farm: Farm): Promise<PoolMembers[]> {
  const { pools, workers } = await farm.store.read(async (tx) => ({
    pools: await workerQueriesRepository.previewPools(tx),
    workers: await workerQueriesRepository.previewWorkers(tx),
  }));
  return pools.map((pool) => ({
    id: pool.id,
    name: pool.name,
    enabled: pool.enabled === 1,
    workers: workers.filter((w) => w.pool_id === pool.id).map((w) => ({ status: w.status, capabilities: JSON.parse(w.capabilities) as WorkerCapabilities })),
  }));
}
