/**
 * Opening the farm's async store: `postgres://…` or `postgresql://…` is PostgreSQL, anything else
 * a SQLite file (or `:memory:`). Migrations are applied on open, with drizzle's migrator of each
 * dialect (drizzle/ for SQLite, drizzle/postgres for PostgreSQL).
 *
 * Several replicas may open one PostgreSQL database at the same moment. Drizzle's migrator does
 * not guard against that (two could both create its bookkeeping schema, or both apply the same
 * migration), so it runs under a session advisory lock: the second waits, then finds nothing left
 * to apply.
 */
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import { join } from "node:path";
import { migrationsFolder, openStore } from "../../db/connection";
import type { AsyncStore } from "./engine";
import { isUnavailable, PostgresStore, unavailable } from "./postgres-engine";

export interface OpenAsyncStoreOptions {
  /** PostgreSQL: connections at most (10 by default). */
  poolSize?: number;
}

/** The advisory lock key of Loom's migrations ("Loom" in ASCII). */
export const MIGRATION_LOCK = 0x4c6f6f6d;

export function isPostgresUrl(target: string): boolean {
  return /^postgres(?:ql)?:\/\//i.test(target);
}

export async function openAsyncStore(target: string, options?: OpenAsyncStoreOptions): Promise<AsyncStore> {
  if (!isPostgresUrl(target)) {
    // openStore sets the pragmas and migrates.
    return openStore(target);
  }
  const store = new PostgresStore({ url: target, poolSize: options?.poolSize });
  try {
    await migratePostgres(store);
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}

async function migratePostgres(store: PostgresStore): Promise<void> {
  const client = await store.connectClient();
  let failure: Error | undefined;
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
    try {
      await migrate(drizzle(client), { migrationsFolder: join(migrationsFolder(), "postgres") });
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]);
    }
  } catch (error) {
    failure = error as Error;
    throw isUnavailable(error) ? unavailable(error) : error;
  } finally {
    // A client that failed may hold the lock still: closed, not pooled.
    client.release(failure ?? undefined);
  }
}
