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

function update(farm: Farm, actor: Actor, workerId: string, action: AuditAction, after: unknown, sql: string, ...params: Array<string | number | null>): void {
  const sqlite = farm.store.sqlite;
  sqlite.transaction(() => {
    const worker = sqlite.prepare<[string], { name: string }>("SELECT name FROM workers WHERE id = ? AND removed_at IS NULL").get(workerId);
    if (!worker) throw new AppError("NOT_FOUND", `no worker ${workerId}`);
    sqlite.prepare(`UPDATE workers SET ${sql} WHERE id = ?`).run(...params, workerId);
    audit(farm, actor, { action, target: { kind: "worker", id: workerId }, after, detail: worker.name });
  })();
  farm.events.emit("workers");
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

/** Drains every worker of a pool (after their current task, or now). */
export function drainPool(farm: Farm, poolId: string, mode: DrainMode, actor: Actor): { workers: number } {
  const sqlite = farm.store.sqlite;
  const changed = sqlite.transaction(() => {
    const exists = sqlite.prepare("SELECT 1 FROM pools WHERE id = ?").get(poolId);
    if (!exists) throw new AppError("NOT_FOUND", `no pool ${poolId}`);
    const n = sqlite.prepare("UPDATE workers SET drain = ? WHERE pool_id = ? AND removed_at IS NULL").run(mode, poolId).changes;
    audit(farm, actor, { action: "pool.drain", target: { kind: "pool", id: poolId }, after: { mode, workers: n } });
    return n;
  })();
  farm.events.emit("workers");
  return { workers: changed };
}
