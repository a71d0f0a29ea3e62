/**
 * Admin controls of one worker: drain (AFTER_TASK lets the running task finish, NOW cancels it —
 * the task goes back to READY on the interruption budget), then the worker exits its
 * environments and stays idle; undrain gives it work again; disable also keeps it out of the
 * compatibility picture. All idempotent.
 */
import type { DrainMode } from "../../lib/farm/statuses";
import type { AuditAction } from "../../lib/farm/audit-actions";
import { audit, type Actor } from "./audit";
import { refreshCompatibility } from "./compatibility";
import { AppError } from "./errors";
import type { Farm } from "./farm";
import { interruptWorkerSessions } from "./sweep-workers";

function update(farm: Farm, actor: Actor, workerId: string, action: AuditAction, after: unknown, sql: string, ...params: Array<string | number | null>): void {
  const sqlite = farm.store.sqlite;
  farm.store.transaction(() => {
    const worker = sqlite.prepare<[string], { name: string }>("SELECT name FROM workers WHERE id = ? AND removed_at IS NULL").get(workerId);
    if (!worker) throw new AppError("NOT_FOUND", `no worker ${workerId}`);
    sqlite.prepare(`UPDATE workers SET ${sql} WHERE id = ?`).run(...params, workerId);
    audit(farm, actor, { action, target: { kind: "worker", id: workerId }, after, detail: worker.name });
  });
  farm.events.publish("workers");
}

export function drainWorker(farm: Farm, workerId: string, mode: DrainMode, actor: Actor): void {
  update(farm, actor, workerId, "worker.drain", { mode }, "drain = ?", mode);
}

export function undrainWorker(farm: Farm, workerId: string, actor: Actor): void {
  update(farm, actor, workerId, "worker.undrain", undefined, "drain = NULL");
}

export function setWorkerDisabled(farm: Farm, workerId: string, disabled: boolean, actor: Actor): void {
  update(farm, actor, workerId, disabled ? "worker.disable" : "worker.enable", undefined, "disabled = ?", disabled ? 1 : 0);
  refreshCompatibility(farm);
}

/**
 * Removes a worker from the farm: what it runs goes back to the queue (as when it is lost), its
 * credential is revoked at once and it is no longer listed. Its agent, if still running, is
 * refused and enrolls again only if it still has its pool's token (rotate that to keep a host out).
 */
export function removeWorker(farm: Farm, workerId: string, actor: Actor): void {
  const sqlite = farm.store.sqlite;
  const now = farm.now();
  const jobs = farm.store.transaction(() => {
    const worker = sqlite.prepare<[string], { name: string }>("SELECT name FROM workers WHERE id = ? AND removed_at IS NULL").get(workerId);
    if (!worker) throw new AppError("NOT_FOUND", `no worker ${workerId}`);
    const touched = interruptWorkerSessions(farm, workerId, now);
    sqlite.prepare("UPDATE workers SET removed_at = ?, credential_hash = NULL, status = 'STOPPED', lease_epoch = lease_epoch + 1 WHERE id = ?").run(now, workerId);
    audit(farm, actor, { action: "worker.remove", target: { kind: "worker", id: workerId }, detail: worker.name });
    return touched;
  });
  refreshCompatibility(farm);
  farm.events.publish("workers");
  if (jobs.length > 0) farm.events.publish("jobs", jobs);
}

/** Drains every worker of a pool (after their current task, or now). */
export function drainPool(farm: Farm, poolId: string, mode: DrainMode, actor: Actor): { workers: number } {
  const sqlite = farm.store.sqlite;
  const changed = farm.store.transaction(() => {
    const exists = sqlite.prepare("SELECT 1 FROM pools WHERE id = ?").get(poolId);
    if (!exists) throw new AppError("NOT_FOUND", `no pool ${poolId}`);
    const n = sqlite.prepare("UPDATE workers SET drain = ? WHERE pool_id = ? AND removed_at IS NULL").run(mode, poolId).changes;
    audit(farm, actor, { action: "pool.drain", target: { kind: "pool", id: poolId }, after: { mode, workers: n } });
    return n;
  });
  farm.events.publish("workers");
  return { workers: changed };
}
