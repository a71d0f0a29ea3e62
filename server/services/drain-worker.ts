/**
 * Admin controls of one worker: drain (AFTER_TASK lets the running task finish, NOW cancels it —
 * the task goes back to READY on the interruption budget), then the worker exits its
 * environments and stays idle; undrain gives it work again; disable also keeps it out of the
 * compatibility picture. All idempotent.
 */
import type { DrainMode } from "../../lib/farm/statuses";
import { refreshCompatibility } from "./compatibility";
import { AppError } from "./errors";
import type { Farm } from "./farm";

function update(farm: Farm, workerId: string, sql: string, ...params: Array<string | number | null>): void {
  const changed = farm.store.sqlite.prepare(`UPDATE workers SET ${sql} WHERE id = ?`).run(...params, workerId).changes;
  if (changed === 0) throw new AppError("NOT_FOUND", `no worker ${workerId}`);
  farm.events.emit("workers");
}

export function drainWorker(farm: Farm, workerId: string, mode: DrainMode): void {
  update(farm, workerId, "drain = ?", mode);
}

export function undrainWorker(farm: Farm, workerId: string): void {
  update(farm, workerId, "drain = NULL");
}

export function setWorkerDisabled(farm: Farm, workerId: string, disabled: boolean): void {
  update(farm, workerId, "disabled = ?", disabled ? 1 : 0);
  refreshCompatibility(farm);
}

/** Drains every worker of a pool (after their current task, or now). */
export function drainPool(farm: Farm, poolId: string, mode: DrainMode): { workers: number } {
  const exists = farm.store.sqlite.prepare("SELECT 1 FROM pools WHERE id = ?").get(poolId);
  if (!exists) throw new AppError("NOT_FOUND", `no pool ${poolId}`);
  const changed = farm.store.sqlite.prepare("UPDATE workers SET drain = ? WHERE pool_id = ?").run(mode, poolId).changes;
  farm.events.emit("workers");
  return { workers: changed };
}
