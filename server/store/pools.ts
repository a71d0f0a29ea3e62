/**
 * Pools and their enrollment tokens (server/services/pools.ts): only a token's hash is stored,
 * with the previous generation's hash kept through a rotation's grace period.
 */
import type { RunResult } from "./engine/engine";
import type { pools } from "../db/schema";
import type { ReadTx, Tx } from "./repository";
import type { RawPick } from "./rows";
import { isUniqueViolation } from "./unique-violation";

export type PoolByToken = RawPick<typeof pools, "id" | "name" | "enabled" | "token_hash" | "token_generation">;
/** Found by its previous token's hash, so that column is set. */
export type PoolByPreviousToken = RawPick<typeof pools, "id" | "name" | "enabled" | "token_generation"> & { previous_token_hash: string };

const BY_NAME = "SELECT id FROM pools WHERE name = ?";
const NAME_KEY = { columns: "pools.name", name: "pools_name_unique" };
const EXISTS = "SELECT 1 FROM pools WHERE id = ?";
const NAME_OF = "SELECT name FROM pools WHERE id = ?";
const INSERT = "INSERT INTO pools (id, name, description, token_hash, enabled, created_at) VALUES (?, ?, ?, ?, TRUE, ?)";
const ROTATE_TOKEN = `UPDATE pools SET previous_token_hash = token_hash, previous_token_expires_at = ?, token_hash = ?, token_rotated_at = ?, token_generation = token_generation + 1
   WHERE id = ?`;
const SET_ENABLED = "UPDATE pools SET enabled = ? WHERE id = ?";
const BY_TOKEN = "SELECT id, name, enabled, token_hash, token_generation FROM pools WHERE token_hash = ?";
const BY_PREVIOUS_TOKEN = "SELECT id, name, enabled, previous_token_hash, token_generation FROM pools WHERE previous_token_hash = ? AND previous_token_expires_at > ?";

export const poolsRepository = {
  byName: (tx: ReadTx, name: string) => tx.get<RawPick<typeof pools, "id">>(BY_NAME, [name]),
  exists: async (tx: ReadTx, poolId: string): Promise<boolean> => (await tx.get(EXISTS, [poolId])) !== undefined,
  nameOf: async (tx: ReadTx, poolId: string): Promise<string | undefined> => (await tx.get<RawPick<typeof pools, "name">>(NAME_OF, [poolId]))?.name,
  /** A new, enabled pool. */
  insert(tx: Tx, poolId: string, name: string, description: string, tokenHash: string, now: number): Promise<RunResult> {
    return tx.run(INSERT, [poolId, name, description, tokenHash, now]);
  },
  /** Whether `error` is insert's refusal of a name another unit took since this one looked (byName). */
  isDuplicateName: (error: unknown): boolean => isUniqueViolation(error, NAME_KEY),
  /** The current token becomes the previous one until `previousUntil`; returns whether the pool exists. */
  rotateToken: async (tx: Tx, poolId: string, tokenHash: string, previousUntil: number, now: number): Promise<boolean> =>
    (await tx.run(ROTATE_TOKEN, [previousUntil, tokenHash, now, poolId])).changes > 0,
  /** Returns whether the pool exists. */
  setEnabled: async (tx: Tx, poolId: string, enabled: boolean): Promise<boolean> => (await tx.run(SET_ENABLED, [enabled, poolId])).changes > 0,
  /** The pool whose current token has this hash. */
  byToken: (tx: ReadTx, tokenHash: string) => tx.get<PoolByToken>(BY_TOKEN, [tokenHash]),
  /** The pool whose previous token has this hash, while its grace period lasts. */
  byPreviousToken: (tx: ReadTx, tokenHash: string, now: number) => tx.get<PoolByPreviousToken>(BY_PREVIOUS_TOKEN, [tokenHash, now]),
};
