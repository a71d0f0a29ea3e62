/**
 * Worker pools and their bearer tokens. A token is shown once when the pool is created or its
 * token rotated; only its SHA-256 is stored, so a leaked database does not leak tokens.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { perDatabase } from "../db/per-database";
import { refreshCompatibility } from "./compatibility";
import { AppError } from "./errors";
import type { Farm } from "./farm";
import { POOL_NAME } from "../../lib/farm/pool-name";

export interface PoolRow {
  id: string;
  name: string;
  enabled: number;
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

function newToken(): string {
  return `loom_${randomBytes(24).toString("base64url")}`;
}


export function createPool(farm: Farm, input: { name: string; description?: string; token?: string }): { poolId: string; token: string } {
  if (!POOL_NAME.test(input.name)) throw new AppError("BAD_REQUEST", `pool name '${input.name}' must be 1–64 letters, digits, '_', '.', '-', starting with a letter or digit`);
  const token = input.token ?? newToken();
  const poolId = `pool-${randomBytes(5).toString("hex")}`;
  const exists = farm.store.sqlite.prepare("SELECT 1 FROM pools WHERE name = ?").get(input.name);
  if (exists) throw new AppError("CONFLICT", `a pool named '${input.name}' already exists`);
  farm.store.sqlite
    .prepare("INSERT INTO pools (id, name, description, token_hash, enabled, created_at) VALUES (?, ?, ?, ?, 1, ?)")
    .run(poolId, input.name, input.description ?? "", hashToken(token), farm.now());
  farm.events.emit("pools");
  return { poolId, token };
}

/** Creates the pool, or gives an existing one this token (`loom serve` starts its local workers with it). */
export function ensurePool(farm: Farm, name: string, token: string): string {
  const row = farm.store.sqlite.prepare<[string], { id: string }>("SELECT id FROM pools WHERE name = ?").get(name);
  if (!row) return createPool(farm, { name, token }).poolId;
  farm.store.sqlite.prepare("UPDATE pools SET token_hash = ? WHERE id = ?").run(hashToken(token), row.id);
  return row.id;
}

export function rotatePoolToken(farm: Farm, poolId: string): { token: string } {
  const token = newToken();
  const changed = farm.store.sqlite.prepare("UPDATE pools SET token_hash = ?, token_rotated_at = ? WHERE id = ?").run(hashToken(token), farm.now(), poolId).changes;
  if (changed === 0) throw new AppError("NOT_FOUND", `no pool ${poolId}`);
  farm.events.emit("pools");
  return { token };
}

/** A disabled pool's workers get no new work, and no longer count for NOT_COMPATIBLE. */
export function setPoolEnabled(farm: Farm, poolId: string, enabled: boolean): { enabled: boolean } {
  const changed = farm.store.sqlite.prepare("UPDATE pools SET enabled = ? WHERE id = ?").run(enabled ? 1 : 0, poolId).changes;
  if (changed === 0) throw new AppError("NOT_FOUND", `no pool ${poolId}`);
  refreshCompatibility(farm);
  // "workers", not "pools": an enabled pool's idle workers, waiting in a long poll, have work again.
  farm.events.emit("workers");
  return { enabled };
}

/** Every worker request authenticates. */
const poolByHash = perDatabase((sqlite) => sqlite.prepare<[string], PoolRow & { token_hash: string }>("SELECT id, name, enabled, token_hash FROM pools WHERE token_hash = ?"));

/** The pool a bearer token belongs to, or null. */
export function authenticatePool(farm: Farm, token: string): PoolRow | null {
  const hash = hashToken(token);
  const row = poolByHash(farm.store.sqlite).get(hash);
  if (!row || !timingSafeEqual(Buffer.from(row.token_hash), Buffer.from(hash))) return null;
  return { id: row.id, name: row.name, enabled: row.enabled };
}
