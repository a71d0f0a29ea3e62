/**
 * Admin controls of one worker: drain (AFTER_TASK lets the running task finish, NOW cancels it —
 * the task goes back to READY on the interruption budget), then the worker exits its
 * environments and stays idle; undrain gives it work again; disable also keeps it out of the
 * compatibility picture. All idempotent.
 */
import type { DrainMode } from "../../lib/farm/statuses";
import type { AuditAction } from "../../lib/farm/audit-actions";
import { poolsRepository } from "../store/pools";
import { workerLifecycleRepository } from "../store/worker-lifecycle";
import { audit, type Actor } from "./audit";
import { refreshCompatibility } from "./compatibility";
import { AppError } from "../context/errors";
import type { Farm } from "../context/farm";
import { interruptWorkerSessions } from "./sweep-workers";

type Workers = ReturnType<typeof workerLifecycleRepository>;

/** Applies `change` to a listed worker, audited, in one unit of work. */
function update(farm: Farm, actor: Actor, workerId: string, action: AuditAction, after: unknown, change: (workers: Workers) => void): void {
  const workers = workerLifecycleRepository(farm.store);
  farm.store.transaction(() => {
    const name = workers.listedName(workerId);
    if (name === undefined) throw new AppError("NOT_FOUND", `no worker ${workerId}`);
    change(workers);
    audit(farm, actor, { action, target: { kind: "worker", id: workerId }, after, detail: name });
  });
  farm.events.publish("workers");
}

export function drainWorker(farm: Farm, workerId: string, mode: DrainMode, actor: Actor): void {
  update(farm, actor, workerId, "worker.drain", { mode }, (workers) => workers.setDrain(workerId, mode));
}

export function undrainWorker(farm: Farm, workerId: string, actor: Actor): void {
  update(farm, actor, workerId, "worker.undrain", undefined, (workers) => workers.clearDrain(workerId));
}

export function setWorkerDisabled(farm: Farm, workerId: string, disabled: boolean, actor: Actor): void {
  update(farm, actor, workerId, disabled ? "worker.disable" : "worker.enable", undefined, (workers) => workers.setDisabled(workerId, disabled));
  refreshCompatibility(farm);
}

/**
 * Removes a worker from the farm: what it runs goes back to the queue (as when it is lost), its
 * credential is revoked at once and it is no longer listed. Its agent, if still running, is
 * refused and enrolls again only if it still has its pool's token (rotate that to keep a host out).
 */
export function removeWorker(farm: Farm, workerId: string, actor: Actor): void {
  const workers = workerLifecycleRepository(farm.store);
  const now = farm.now();
  const jobs = farm.store.transaction(() => {
    const name = workers.listedName(workerId);
    if (name === undefined) throw new AppError("NOT_FOUND", `no worker ${workerId}`);
    const touched = interruptWorkerSessions(farm, workerId, now);
    workers.remove(workerId, now);
    audit(farm, actor, { action: "worker.remove", target: { kind: "worker", id: workerId }, detail: name });
    return touched;
  });
  refreshCompatibility(farm);
  farm.events.publish("workers");
  if (jobs.length > 0) farm.events.publish("jobs", jobs);
}

/** Drains every worker of a pool (after their current task, or now). */
export function drainPool(farm: Farm, poolId: string, mode: DrainMode, actor: Actor): { workers: number } {
  const changed = farm.store.transaction(() => {
    if (!poolsRepository(farm.store).exists(poolId)) throw new AppError("NOT_FOUND", `no pool ${poolId}`);
    const n = workerLifecycleRepository(farm.store).drainPool(poolId, mode);
    audit(farm, actor, { action: "pool.drain", target: { kind: "pool", id: poolId }, after: { mode, workers: n } });
    return n;
  });
  farm.events.publish("workers");
  return { workers: changed };
}
