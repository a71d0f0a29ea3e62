/**
 * Admin controls of one worker: drain (AFTER_TASK lets the running task finish, NOW cancels it —
 * the task goes back to READY on the interruption budget), then the worker exits its
 * environments and stays idle; undrain gives it work again; disable also keeps it out of the
 * compatibility picture. All idempotent.
 */
import type { DrainMode } from "../../lib/farm/statuses";
import type { AuditAction } from "../../lib/farm/audit-actions";
import { poolsRepository } from "../store/pools";
import type { Tx } from "../store/repository";
import { workerLifecycleRepository } from "../store/worker-lifecycle";
import { audit, type Actor } from "./audit";
import { refreshCompatibility } from "./compatibility";
import { AppError } from "../context/errors";
import type { Farm } from "../context/farm";
import { interruptWorkerSessions } from "./sweep-workers";

/** Applies `change` to a listed worker, audited, in one unit of work. */
async function update(farm: Farm, actor: Actor, workerId: string, action: AuditAction, after: unknown, change: (tx: Tx) => Promise<unknown>): Promise<void> {
  await farm.store.transaction(async (tx) => {
    const name = await workerLifecycleRepository.listedName(tx, workerId);
    if (name === undefined) throw new AppError("NOT_FOUND", `no worker ${workerId}`);
    await change(tx);
    await audit(tx, farm, actor, { action, target: { kind: "worker", id: workerId }, after, detail: name });
  });
  farm.events.publish(null, "workers");
}

export function drainWorker(farm: Farm, workerId: string, mode: DrainMode, actor: Actor): Promise<void> {
  return update(farm, actor, workerId, "worker.drain", { mode }, (tx) => workerLifecycleRepository.setDrain(tx, workerId, mode));
}

export function undrainWorker(farm: Farm, workerId: string, actor: Actor): Promise<void> {
  return update(farm, actor, workerId, "worker.undrain", undefined, (tx) => workerLifecycleRepository.clearDrain(tx, workerId));
}

export async function setWorkerDisabled(farm: Farm, workerId: string, disabled: boolean, actor: Actor): Promise<void> {
  await update(farm, actor, workerId, disabled ? "worker.disable" : "worker.enable", undefined, (tx) => workerLifecycleRepository.setDisabled(tx, workerId, disabled));
  await refreshCompatibility(farm);
}

/**
 * Removes a worker from the farm: what it runs goes back to the queue (as when it is lost), its
 * credential is revoked at once and it is no longer listed. Its agent, if still running, is
 * refused and enrolls again only if it still has its pool's token (rotate that to keep a host out).
 */
export async function removeWorker(farm: Farm, workerId: string, actor: Actor): Promise<void> {
  const now = farm.now();
  const jobs = await farm.store.transaction(async (tx) => {
    const name = await workerLifecycleRepository.listedName(tx, workerId);
    if (name === undefined) throw new AppError("NOT_FOUND", `no worker ${workerId}`);
    const touched = await interruptWorkerSessions(tx, farm, workerId, now);
    await workerLifecycleRepository.remove(tx, workerId, now);
    await audit(tx, farm, actor, { action: "worker.remove", target: { kind: "worker", id: workerId }, detail: name });
    return touched;
  });
  await refreshCompatibility(farm);
  farm.events.publish(null, "workers");
  if (jobs.length > 0) farm.events.publish(null, "jobs", jobs);
}

/** Drains every worker of a pool (after their current task, or now). */
export async function drainPool(farm: Farm, poolId: string, mode: DrainMode, actor: Actor): Promise<{ workers: number }> {
  const changed = await farm.store.transaction(async (tx) => {
    if (!(await poolsRepository.exists(tx, poolId))) throw new AppError("NOT_FOUND", `no pool ${poolId}`);
    const n = await workerLifecycleRepository.drainPool(tx, poolId, mode);
    await audit(tx, farm, actor, { action: "pool.drain", target: { kind: "pool", id: poolId }, after: { mode, workers: n } });
    return n;
  });
  farm.events.publish(null, "workers");
  return { workers: changed };
}
