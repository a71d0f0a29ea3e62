/**
 * The data folder's record of the local workers `loom serve` started: its own pid and each
 * agent's name and instance id (local-workers.json, 0600, beside the token files; the agents
 * hide the whole data folder from their tasks). Read at the next start to release the rows of
 * agents that ended with it (server/services/local-workers.ts).
 */
import { randomUUID } from "node:crypto";
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import type { LocalWorker } from "../services/local-workers";

export const LOCAL_WORKERS_FILE = "local-workers.json";

const record = z.object({
  servePid: z.number().int().positive(),
  workers: z.array(z.object({ name: z.string().min(1).max(128), instanceId: z.string().min(8).max(100) })).max(1_000),
});
export type LocalWorkersRecord = z.infer<typeof record>;

/** Names and fresh instance ids for `count` local workers (local-1, local-2, …). */
export function newLocalWorkers(count: number): LocalWorker[] {
  return Array.from({ length: count }, (_, i) => ({ name: `local-${i + 1}`, instanceId: randomUUID() }));
}

/** The record, or null when there is none or it cannot be read (the workers then wait for the timeout, as before). */
export function readLocalWorkers(dataDir: string): LocalWorkersRecord | null {
  try {
    const parsed = record.safeParse(JSON.parse(readFileSync(join(dataDir, LOCAL_WORKERS_FILE), "utf8")));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Writes the record whole (a new file renamed over the old one), readable by its owner only. */
export function writeLocalWorkers(dataDir: string, value: LocalWorkersRecord): void {
  const file = join(dataDir, LOCAL_WORKERS_FILE);
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, `${JSON.stringify(value)}\n`, { mode: 0o600 });
  renameSync(partial, file);
}
