/**
 * Server-wide values kept across restarts and shared by replicas (the server_state table): a key
 * and its text, e.g. the hash of the first-start setup token.
 */
import type { RunResult } from "./engine/engine";
import type { ReadTx, Tx } from "./repository";

const GET = "SELECT value FROM server_state WHERE key = ?";
const SET = "INSERT INTO server_state (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at";
const REMOVE = "DELETE FROM server_state WHERE key = ?";

export const serverStateRepository = {
  /** The value, or undefined when the key is not set. */
  get: async (tx: ReadTx, key: string): Promise<string | undefined> => (await tx.get<{ value: string }>(GET, [key]))?.value,
  set(tx: Tx, key: string, value: string, now: number): Promise<RunResult> {
    return tx.run(SET, [key, value, now]);
  },
  remove(tx: Tx, key: string): Promise<RunResult> {
    return tx.run(REMOVE, [key]);
  },
};
