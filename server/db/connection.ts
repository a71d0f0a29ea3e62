/**
 * Opening the farm database: better-sqlite3 in WAL mode with foreign keys and a busy timeout,
 * migrations applied on open (so a fresh data folder, a test's temp file and `:memory:` all work
 * the same way). Only the server opens it (DESIGN.md "Processes").
 */
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { existsSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { SqliteStore } from "../store/engine/sqlite-engine";
import * as schema from "./schema";

/** The farm's store: the async unit of work on either engine (server/store/engine/engine.ts). */
export type { AsyncStore as Store } from "../store/engine/engine";
export { SqliteStore } from "../store/engine/sqlite-engine";

/**
 * The migrations folder: next to the sources when run from them (CLI, tests), in the working
 * directory when bundled (Next.js moves this module into .next/; `next start` runs in the repo).
 */
export function migrationsFolder(): string {
  const candidates = [resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "drizzle"), resolve("drizzle")];
  const found = candidates.find((dir) => existsSync(join(dir, "meta", "_journal.json")));
  if (!found) throw new Error(`database migrations not found (looked in ${candidates.join(", ")})`);
  return found;
}

/** Opens (creating if needed) the database at `file`, or an in-memory one for ":memory:". */
export function openStore(file: string): SqliteStore {
  if (file !== ":memory:") mkdirSync(dirname(resolve(file)), { recursive: true });
  const sqlite = new Database(file);
  // How long a writer waits for another's lock before SQLITE_BUSY.
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("journal_mode = WAL");
  // NORMAL in WAL mode is durable across process crashes (only an OS crash may lose the last
  // transactions); FULL would cost an fsync per commit (anchors-scheduling §5.2).
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("foreign_keys = ON");
  const db = drizzle(sqlite, { schema });
  migrate(db, { migrationsFolder: migrationsFolder() });
  return new SqliteStore(sqlite);
}

/** The database file inside a data folder. */
export function databaseFile(dataDir: string): string {
  return join(dataDir, "loom.db");
}
