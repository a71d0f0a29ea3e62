/**
 * Server-wide values kept across restarts and shared by replicas (the server_state table): a key
 * and its text, e.g. the hash of the first-start setup token.
 */
import { repository } from "./repository";

export const serverStateRepository = repository((sqlite) => {
  const get = sqlite.prepare<[string], { value: string }>("SELECT value FROM server_state WHERE key = ?");
  const set = sqlite.prepare<[string, string, number]>(
    "INSERT INTO server_state (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
  );
  const remove = sqlite.prepare<[string]>("DELETE FROM server_state WHERE key = ?");
  return {
    /** The value, or undefined when the key is not set. */
    get: (key: string): string | undefined => get.get(key)?.value,
    set(key: string, value: string, now: number): void {
      set.run(key, value, now);
    },
    remove(key: string): void {
      remove.run(key);
    },
  };
});
