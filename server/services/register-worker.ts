/**
 * A worker agent enrolling with its pool's token. It gets a credential of its own (shown once,
 * only its hash kept), which its syncs and log uploads send from then on; registering again
 * replaces it, so the previous one stops working. A worker that registers again under a name its
 * pool already knows (it restarted, was fenced, or its credential was refused) keeps its id with
 * a new lease epoch: whatever it ran under the old lease is interrupted and requeued, and reports
 * about it are refused from now on. While the name's worker is still connected, only the same
 * agent process may do that: another one is refused until the first stops or times out.
 */
import { randomBytes } from "node:crypto";
import type { RegisterRequest, RegisterResponse } from "../../lib/farm/protocol";
import { hashSecret, newSecret } from "../auth/secrets";
import { workerLifecycleRepository, type Enrollment } from "../store/worker-lifecycle";
import { audit, type Actor } from "./audit";
import { refreshCompatibility } from "./compatibility";
import { AppError } from "../context/errors";
import type { Farm } from "../context/farm";
import type { PoolRow } from "./pools";
import { interruptWorkerSessions } from "./sweep-workers";

export async function registerWorker(farm: Farm, pool: PoolRow, request: RegisterRequest, address: string | null = null): Promise<RegisterResponse> {
  const now = farm.now();
  const workers = workerLifecycleRepository;
  const credential = newSecret("worker");
  const enrollment: Enrollment = {
    instanceId: request.instanceId ?? null,
    capabilities: JSON.stringify(request.capabilities),
    now,
    credentialHash: hashSecret(credential),
    tokenGeneration: pool.generation,
  };
  const result = await farm.store.transaction(async (tx) => {
    const existing = await workers.byPoolAndName(tx, pool.id, request.name);
    let registered: { workerId: string; leaseEpoch: number; jobs: string[] };
    if (existing) {
      const connected =
        existing.removed_at === null && existing.status !== "NOT_RESPONDING" && existing.status !== "STOPPED" && existing.last_heartbeat_at >= now - farm.settings.workerTimeoutSeconds * 1000;
      const sameProcess = request.instanceId !== undefined && existing.instance_id === request.instanceId;
      if (connected && !sameProcess) {
        const ago = Math.round((now - existing.last_heartbeat_at) / 1000);
        throw new AppError("CONFLICT", `a worker named '${request.name}' is connected to pool ${pool.name} (last heard from ${ago} s ago): give this one another --name, or stop the other one`);
      }
      const jobs = await interruptWorkerSessions(tx, farm, existing.id, now);
      const epoch = existing.lease_epoch + 1;
      await workers.reenroll(tx, existing.id, epoch, enrollment);
      registered = { workerId: existing.id, leaseEpoch: epoch, jobs };
    } else {
      const workerId = `worker-${randomBytes(5).toString("hex")}`;
      await workers.insert(tx, workerId, pool.id, request.name, enrollment);
      registered = { workerId, leaseEpoch: 1, jobs: [] };
    }
    const actor: Actor = { kind: "worker", id: registered.workerId, name: request.name, via: "pool-token", address, userAgent: null };
    await audit(tx, farm, actor, { action: "worker.enroll", target: { kind: "worker", id: registered.workerId }, after: { pool: pool.name, leaseEpoch: registered.leaseEpoch } });
    return registered;
  });
  await refreshCompatibility(farm);
  farm.events.publish(null, "workers");
  if (result.jobs.length > 0) farm.events.publish(null, "jobs", result.jobs);
  return {
    workerId: result.workerId,
    leaseEpoch: result.leaseEpoch,
    syncIntervalSeconds: farm.settings.syncIntervalSeconds,
    credential,
    logLimits: { actionChars: farm.settings.logCapActionChars, sessionChars: farm.settings.logCapSessionChars },
  };
}
