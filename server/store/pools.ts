/**
 * Pools and their enrollment tokens (server/services/pools.ts): only a token's hash is stored,
 * with the previous generation's hash kept through a rotation's grace period.
 */
import type { pools } from "../db/schema";
import { repository } from "./repository";
import type { RawPick } from "./rows";

export type PoolByToken = RawPick<typeof pools, "id" | "name" | "enabled" | "token_hash" | "token_generation">;
/** Found by its previous token's hash, so that column is set. */
export type PoolByPreviousToken = RawPick<typeof pools, "id" | "name" | "enabled" | "token_generation"> & { previous_token_hash: string };

export const poolsRepository = repository((sqlite) => {
  const byName = sqlite.prepare<[string], RawPick<typeof pools, "id">>("SELECT id FROM pools WHERE name = ?");
  const exists = sqlite.prepare<[string]>("SELECT 1 FROM pools WHERE id = ?");
  const nameOf = sqlite.prepare<[string], RawPick<typeof pools, "name">>("SELECT name FROM pools WHERE id = ?");
  const insert = sqlite.prepare<[string, string, string, string, number]>("INSERT INTO pools (id, name, description, token_hash, enabled, created_at) VALUES (?, ?, ?, ?, 1, ?)");
  const rotateToken = sqlite.prepare<[number, string, number, string]>(
    `UPDATE pools SET previous_token_hash = token_hash, previous_token_expires_at = ?, token_hash = ?, token_rotated_at = ?, token_generation = token_generation + 1
     WHERE id = ?`,
  );
  const setEnabled = sqlite.prepare<[number, string]>("UPDATE pools SET enabled = ? WHERE id = ?");
  const byToken = sqlite.prepare<[string], PoolByToken>("SELECT id, name, enabled, token_hash, token_generation FROM pools WHERE token_hash = ?");
  const byPreviousToken = sqlite.prepare<[string, number], PoolByPreviousToken>(
    "SELECT id, name, enabled, previous_token_hash, token_generation FROM pools WHERE previous_token_hash = ? AND previous_token_expires_at > ?",
  );
  return {
    byName: (name: string) => byName.get(name),
    exists: (poolId: string): boolean => exists.get(poolId) !== undefined,
    nameOf: (poolId: string): string | undefined => nameOf.get(poolId)?.name,
    /** A new, enabled pool. */
    insert(poolId: string, name: string, description: string, tokenHash: string, now: number): void {
      insert.run(poolId, name, description, tokenHash, now);
    },
    /** The current token becomes the previous one until `previousUntil`; returns whether the pool exists. */
    rotateToken: (poolId: string, tokenHash: string, previousUntil: number, now: number): boolean => rotateToken.run(previousUntil, tokenHash, now, poolId).changes > 0,
    /** Returns whether the pool exists. */
    setEnabled: (poolId: string, enabled: boolean): boolean => setEnabled.run(enabled ? 1 : 0, poolId).changes > 0,
    /** The pool whose current token has this hash. */
    byToken: (tokenHash: string) => byToken.get(tokenHash),
    /** The pool whose previous token has this hash, while its grace period lasts. */
    byPreviousToken: (tokenHash: string, now: number) => byPreviousToken.get(tokenHash, now),
  };
});
