/**
 * The async store on both engines for tests: a SQLite temp file per store, and for PostgreSQL one
 * fresh database per test file (postgres-test-support.ts), created in `setUp` and dropped in
 * `tearDown`, with the scratch tables the engine tests write dropped and made again per store.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freshTestDatabase, type TestDatabase } from "../../db/postgres-test-support";
import type { AsyncStore, Engine, Tx } from "./engine";
import { openAsyncStore } from "./open-store";

export interface EngineHarness {
  engine: Engine;
  setUp(): Promise<void>;
  tearDown(): Promise<void>;
  /** A store with empty scratch tables: scratch (id, v text), counters (id, n), big (v bigint). */
  open(): Promise<AsyncStore>;
  /** Where `open` connects: the SQLite file or the PostgreSQL URL of this file's database. */
  target(): string;
}

const SCRATCH: Record<Engine, string[]> = {
  sqlite: ["CREATE TABLE scratch (id INTEGER PRIMARY KEY, v TEXT NOT NULL)", "CREATE TABLE counters (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)", "CREATE TABLE big (v BIGINT NOT NULL)"],
  postgres: [
    "CREATE TABLE scratch (id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, v TEXT NOT NULL)",
    "CREATE TABLE counters (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)",
    "CREATE TABLE big (v BIGINT NOT NULL)",
  ],
};

async function withScratch(store: AsyncStore): Promise<AsyncStore> {
  await store.transaction(async (tx) => {
    for (const table of ["scratch", "counters", "big"]) await tx.run(`DROP TABLE IF EXISTS ${table}`);
    for (const ddl of SCRATCH[store.engine]) await tx.run(ddl);
  });
  return store;
}

export function sqliteHarness(): EngineHarness {
  let dir: string | undefined;
  let n = 0;
  return {
    engine: "sqlite",
    async setUp() {
      dir = mkdtempSync(join(tmpdir(), "loom-engine-"));
    },
    async tearDown() {
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
    target: () => join(dir!, `farm-${n}.db`),
    async open() {
      n++;
      return withScratch(await openAsyncStore(join(dir!, `farm-${n}.db`)));
    },
  };
}

export function postgresHarness(): EngineHarness {
  let database: TestDatabase | undefined;
  return {
    engine: "postgres",
    async setUp() {
      database = await freshTestDatabase("loom_engine");
    },
    async tearDown() {
      await database?.drop();
    },
    target: () => database!.url,
    async open() {
      return withScratch(await openAsyncStore(database!.url, { poolSize: 4 }));
    },
  };
}

export const write = (tx: Tx, v: string) => tx.run("INSERT INTO scratch (v) VALUES (?)", [v]);

export async function scratchValues(store: AsyncStore): Promise<string[]> {
  const rows = await store.read((tx) => tx.all<{ v: string }>("SELECT v FROM scratch ORDER BY id"));
  return rows.map((r) => r.v);
}

/** A promise and its resolve, to hold a unit at a point until the test lets it go. */
export function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
