/**
 * Worker pools and their enrollment tokens. A pool's token only enrolls: a worker that presents
 * it gets a credential of its own (register-worker.ts), and every later call authenticates as
 * that worker. A token is shown once when the pool is created or its token rotated; only its
 * SHA-256 is stored, so a leaked database does not leak tokens.
 *
 * Rotation has a grace period (FarmSettings.rotationGraceMinutes, 60 min by default): the
 * previous token still enrolls, and workers enrolled under it still sync, until it ends; then
 * they are refused and enroll again with the new token (the agent rereads its token file).
 */
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { hashSecret, newSecret, sameHash } from "../auth/secrets";
import { POOL_NAME } from "../../lib/farm/pool-name";
import { poolsRepository } from "../store/pools";
import { audit, type Actor } from "./audit";
import { refreshCompatibility } from "./compatibility";
import { AppError } from "../context/errors";
import type { Farm } from "../context/farm";

export interface PoolRow {
  id: string;
  name: string;
  enabled: number;
  /** The token generation the presented token belongs to (the current one, or the previous during its grace). */
  generation: number;
}

export const hashToken = hashSecret;

export async function createPool(farm: Farm, input: { name: string; description?: string; token?: string }, actor: Actor): Promise<{ poolId: string; token: string }> {
  if (!POOL_NAME.test(input.name)) throw new AppError("BAD_REQUEST", `pool name '${input.name}' must be 1–64 letters, digits, '_', '.', '-', starting with a letter or digit`);
  const token = input.token ?? newSecret("enrollment");
  const poolId = `pool-${randomBytes(5).toString("hex")}`;
  const taken = () => new AppError("CONFLICT", `a pool named '${input.name}' already exists`);
  await farm.store.transaction(async (tx) => {
    if (await poolsRepository.byName(tx, input.name)) throw taken();
    try {
      await poolsRepository.insert(tx, poolId, input.name, input.description ?? "", hashToken(token), farm.now());
    } catch (error) {
      // A concurrent unit inserted the name after this one looked (PostgreSQL): the same answer.
      throw poolsRepository.isDuplicateName(error) ? taken() : error;
    }
    await audit(tx, farm, actor, { action: "pool.create", target: { kind: "pool", id: poolId }, after: { name: input.name } });
  });
  farm.events.publish(null, "pools");
  return { poolId, token };
}

/** The pool named `name`, created with `token` when it does not exist yet; an existing pool's token is never reset. */
export async function ensurePool(farm: Farm, name: string, token: string, actor: Actor): Promise<{ poolId: string; created: boolean; tokenMatches: boolean }> {
  let row = await farm.store.read((tx) => poolsRepository.byName(tx, name));
  if (!row) {
    try {
      return { poolId: (await createPool(farm, { name, token }, actor)).poolId, created: true, tokenMatches: true };
    } catch (error) {
      // Another server on the same data created it between the read and the create: it exists.
      if (!(error instanceof AppError && error.code === "CONFLICT")) throw error;
      row = await farm.store.read((tx) => poolsRepository.byName(tx, name));
      if (!row) throw error;
    }
  }
  return { poolId: row.id, created: false, tokenMatches: (await authenticatePool(farm, token))?.id === row.id };
}

/** The file `loom serve`'s local workers read the local pool's token from (server/cli/data-folder.ts). */
export const LOCAL_POOL_TOKEN_FILE = "local-pool.token";

/**
 * A new enrollment token for the pool. For the local pool, the new token is also written to the
 * data folder's token file, so `loom serve`'s own workers keep enrolling after the grace period.
 */
export async function rotatePoolToken(farm: Farm, poolId: string, actor: Actor): Promise<{ token: string; previousValidUntil: number; savedTo: string | null }> {
  const token = newSecret("enrollment");
  const now = farm.now();
  const until = now + farm.settings.rotationGraceMinutes * 60_000;
  const name = await farm.store.transaction(async (tx) => {
    if (!(await poolsRepository.rotateToken(tx, poolId, hashToken(token), until, now))) throw new AppError("NOT_FOUND", `no pool ${poolId}`);
    await audit(tx, farm, actor, { action: "pool.rotate-token", target: { kind: "pool", id: poolId }, after: { previousValidUntil: until } });
    return (await poolsRepository.nameOf(tx, poolId))!;
  });
  const savedTo = name === farm.settings.localPoolName ? saveLocalPoolToken(farm, token) : null;
  farm.events.publish(null, "pools");
  return { token, previousValidUntil: until, savedTo };
}

function saveLocalPoolToken(farm: Farm, token: string): string | null {
  if (!farm.settings.dataDir) return null;
  const file = join(farm.settings.dataDir, LOCAL_POOL_TOKEN_FILE);
  if (!existsSync(file)) return null;
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${token}\n`, { mode: 0o600 });
  chmodSync(temp, 0o600);
  renameSync(temp, file);
  return file;
}

/** A disabled pool's workers get no new work, and no longer count for NOT_COMPATIBLE. */
export async function setPoolEnabled(farm: Farm, poolId: string, enabled: boolean, actor: Actor): Promise<{ enabled: boolean }> {
  await farm.store.transaction(async (tx) => {
    if (!(await poolsRepository.setEnabled(tx, poolId, enabled))) throw new AppError("NOT_FOUND", `no pool ${poolId}`);
    await audit(tx, farm, actor, { action: enabled ? "pool.enable" : "pool.disable", target: { kind: "pool", id: poolId } });
  });
  await refreshCompatibility(farm);
  // "workers", not "pools": an enabled pool's idle workers, waiting in a long poll, have work again.
  farm.events.publish(null, "workers");
  return { enabled };
}

/** The pool an enrollment token belongs to (its current token, or the previous one within the grace period), or null. */
export async function authenticatePool(farm: Farm, token: string): Promise<PoolRow | null> {
  const hash = hashToken(token);
  return farm.store.read(async (tx) => {
    const row = await poolsRepository.byToken(tx, hash);
    if (row && sameHash(row.token_hash, hash)) return { id: row.id, name: row.name, enabled: row.enabled, generation: row.token_generation };
    const previous = await poolsRepository.byPreviousToken(tx, hash, farm.now());
    if (previous && sameHash(previous.previous_token_hash, hash)) return { id: previous.id, name: previous.name, enabled: previous.enabled, generation: previous.token_generation - 1 };
    return null;
  });
}
