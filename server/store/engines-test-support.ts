/**
 * The engine a test run uses: `LOOM_TEST_ENGINE=postgres` (the "postgres" project of
 * vitest.config.ts) runs the farm's suites on PostgreSQL, anything else on SQLite. A test asks for
 * a database target (`testDatabaseTarget`) or an open store (`testStore`) and never names the
 * engine itself, so the same test runs on both.
 *
 * On PostgreSQL each target is a database of its own, copied from the run's migrated template
 * (pg-template-test-support.ts made it, named in LOOM_TEST_PG_TEMPLATE): a copy costs a fraction of a
 * migration. When the test finishes its database is emptied (every table truncated, sequences
 * restarted) and kept for the next test of the same file; the file's last test drops them all.
 */
import { afterAll, inject, onTestFinished } from "vitest";
import pg from "pg";
import type { AsyncStore, Engine } from "./engine/engine";
import { openAsyncStore } from "./engine/open-store";
import { testDatabaseName, testServerUrl, withDatabase } from "../db/postgres-test-support";
import { TEMPLATE_VARIABLE } from "./pg-template-test-support";

export function testEngine(): Engine {
  return process.env.LOOM_TEST_ENGINE === "postgres" ? "postgres" : "sqlite";
}

let admin: pg.Client | null = null;
async function adminClient(): Promise<pg.Client> {
  if (admin === null) {
    const client = new pg.Client({ connectionString: testServerUrl(), connectionTimeoutMillis: 5_000 });
    await client.connect();
    client.on("error", () => {});
    admin = client;
  }
  return admin;
}

/** Databases this file made and emptied, ready for its next test. */
const idle: string[] = [];
/** Every database this file made (dropped after its last test). */
const made = new Set<string>();

// Emptied in place: the tables with rows truncated (a truncation costs a new file even for an
// empty table), every sequence back at its start (setval: no new file either). Drizzle's own
// bookkeeping lives in the drizzle schema and stays, so the migrator finds nothing to apply.
const EMPTY_DATABASE = `DO $$ DECLARE t text; s text; has_rows boolean; names text[] := '{}'; BEGIN
  FOR t IN SELECT format('%I', tablename) FROM pg_tables WHERE schemaname = 'public' LOOP
    EXECUTE 'SELECT EXISTS (SELECT FROM ' || t || ')' INTO has_rows;
    IF has_rows THEN names := names || t; END IF;
  END LOOP;
  IF cardinality(names) > 0 THEN EXECUTE 'TRUNCATE ' || array_to_string(names, ', ') || ' CASCADE'; END IF;
  FOR s IN SELECT format('%I', sequencename) FROM pg_sequences WHERE schemaname = 'public' LOOP
    PERFORM setval(s, 1, false);
  END LOOP;
END $$`;

/** Empties a test's PostgreSQL database through its open store, for a test that runs many farms one after another on it. */
export async function emptyTestDatabase(store: AsyncStore): Promise<void> {
  if (store.engine !== "postgres") throw new Error("emptyTestDatabase empties a PostgreSQL test database");
  await store.transaction((tx) => tx.run(EMPTY_DATABASE));
}

async function emptied(database: string): Promise<void> {
  const client = new pg.Client({ connectionString: withDatabase(testServerUrl(), database), connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    await client.query(EMPTY_DATABASE);
  } finally {
    await client.end();
  }
}

async function freshPostgresDatabase(): Promise<string> {
  const template = process.env[TEMPLATE_VARIABLE] || inject(TEMPLATE_VARIABLE);
  if (!template) throw new Error(`${TEMPLATE_VARIABLE} is not set: the postgres project's global setup (server/store/pg-template-test-support.ts) makes the template`);
  const name = testDatabaseName("loom_test");
  await (await adminClient()).query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
  made.add(name);
  return name;
}

// DROP DATABASE … WITH (FORCE) waits for a checkpoint: slow on a busy machine, hence the minute.
afterAll(async () => {
  if (made.size === 0) return;
  const client = await adminClient();
  for (const name of made) await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  made.clear();
  idle.length = 0;
  admin = null;
  await client.end();
}, 60_000);

/**
 * Where this test's farm keeps its data: a SQLite file under `dir` (`:memory:` without one), or
 * an empty migrated PostgreSQL database for this test alone. Opened twice (a restart), it is the
 * same data.
 */
export async function testDatabaseTarget(dir?: string): Promise<string> {
  if (testEngine() === "sqlite") return dir === undefined ? ":memory:" : `${dir}/loom.db`;
  const name = idle.pop() ?? (await freshPostgresDatabase());
  onTestFinished(async () => {
    // Stores the test left open would hold it: the copy is dropped then, not reused.
    try {
      await emptied(name);
      idle.push(name);
    } catch {
      made.delete(name);
      await (await adminClient()).query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    }
  });
  return withDatabase(testServerUrl(), name);
}

/** An open store on a fresh database of the run's engine, closed when the test finishes. */
export async function testStore(options: { dir?: string; poolSize?: number } = {}): Promise<AsyncStore> {
  const store = await openAsyncStore(await testDatabaseTarget(options.dir), { poolSize: options.poolSize ?? 4 });
  // Registered after the target's: runs first (onTestFinished hooks run in reverse order).
  onTestFinished(() => store.close());
  return store;
}
