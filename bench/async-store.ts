/**
 * `npx tsx bench/async-store.ts [-- --units N --rounds R --postgres]`: what the farm's async unit
 * of work (server/store/engine) costs on SQLite over a bare synchronous better-sqlite3
 * transaction (`sqlite.transaction(fn)`, what the farm's former sync Store wrapped; its "sync"
 * figures below), measured in the same run on two temp-file databases opened the same way
 * (openStore: WAL, synchronous NORMAL): an empty unit, and a unit of 10 small statements (5 point
 * reads, 5 single-row updates, statements prepared once). Units run one after another (each
 * awaited), as a request handler would. `--postgres` adds the same async units on a fresh
 * database of the test PostgreSQL server, for scale only. The last line is one JSON object.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "../server/db/connection";
import { freshTestDatabase } from "../server/db/postgres-test-support";
import { statement, type AsyncStore } from "../server/store/engine/engine";
import { openAsyncStore } from "../server/store/engine/open-store";
import { interleavedRounds, median } from "./interleaved-rounds";
import { numberFlag } from "./number-flag";

const args = process.argv.slice(2);
const units = numberFlag(args, "--units", 20_000);
const rounds = numberFlag(args, "--rounds", 5);
const withPostgres = args.includes("--postgres");
const ROWS = 100;

const dir = mkdtempSync(join(tmpdir(), "loom-bench-async-"));
// The baseline: the raw connection of a store opened the same way, its units no more than better-sqlite3's transaction functions.
const syncStore = openStore(join(dir, "sync.db"));
const { sqlite } = syncStore;
const asyncSqlite = await openAsyncStore(join(dir, "async.db"));

sqlite.exec("CREATE TABLE scratch (id INTEGER PRIMARY KEY, v INTEGER NOT NULL)");
const syncInsert = sqlite.prepare<[number]>("INSERT INTO scratch (id, v) VALUES (?, 0)");
for (let id = 1; id <= ROWS; id++) syncInsert.run(id);
const syncGet = sqlite.prepare<[number], { v: number }>("SELECT v FROM scratch WHERE id = ?");
const syncUpdate = sqlite.prepare<[number, number]>("UPDATE scratch SET v = ? WHERE id = ?");
const syncUnit = sqlite.transaction((fn: () => void) => fn());
const nothing = () => undefined;

const get = statement<{ v: number }>("bench.scratch-get", "SELECT v FROM scratch WHERE id = ?");
const update = statement("bench.scratch-update", "UPDATE scratch SET v = ? WHERE id = ?");

async function prepare(store: AsyncStore): Promise<void> {
  await store.transaction(async (tx) => {
    await tx.run("DROP TABLE IF EXISTS scratch");
    await tx.run("CREATE TABLE scratch (id INTEGER PRIMARY KEY, v INTEGER NOT NULL)");
    for (let id = 1; id <= ROWS; id++) await tx.run("INSERT INTO scratch (id, v) VALUES (?, 0)", [id]);
  });
}

/** Microseconds per unit. */
async function timed(n: number, unit: (i: number) => unknown): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await unit(i);
  return Number(process.hrtime.bigint() - start) / 1_000 / n;
}

const syncEmpty = () => timed(units, () => syncUnit(nothing));
const syncImmediateEmpty = () => timed(units, () => syncUnit.immediate(nothing));
const syncTen = () =>
  timed(units, (i) =>
    syncUnit(() => {
      for (let k = 0; k < 5; k++) {
        const id = ((i * 5 + k) % ROWS) + 1;
        const { v } = syncGet.get(id)!;
        syncUpdate.run(v + 1, id);
      }
    }),
  );
const asyncEmpty = (store: AsyncStore, n: number) => () => timed(n, () => store.transaction(async () => undefined));
const asyncTen = (store: AsyncStore, n: number) => () =>
  timed(n, (i) =>
    store.transaction(async (tx) => {
      for (let k = 0; k < 5; k++) {
        const id = ((i * 5 + k) % ROWS) + 1;
        const { v } = (await tx.get(get, [id]))!;
        await tx.run(update, [v + 1, id]);
      }
    }),
  );

await prepare(asyncSqlite);
const empty = await interleavedRounds({ rounds, warmup: 1 }, syncEmpty, asyncEmpty(asyncSqlite, units));
const immediate = await interleavedRounds({ rounds, warmup: 1 }, syncImmediateEmpty, asyncEmpty(asyncSqlite, units));
const ten = await interleavedRounds({ rounds, warmup: 1 }, syncTen, asyncTen(asyncSqlite, units));
const result: Record<string, number> = {
  units,
  syncEmptyUs: median(empty.baseline),
  asyncEmptyUs: median(empty.measured),
  syncImmediateEmptyUs: median(immediate.baseline),
  asyncEmptyUs2: median(immediate.measured),
  syncTenUs: median(ten.baseline),
  asyncTenUs: median(ten.measured),
};
result.emptyRatio = result.asyncEmptyUs! / result.syncEmptyUs!;
result.emptyImmediateRatio = result.asyncEmptyUs2! / result.syncImmediateEmptyUs!;
result.tenRatio = result.asyncTenUs! / result.syncTenUs!;
await asyncSqlite.close();
await syncStore.close();
rmSync(dir, { recursive: true, force: true });

if (withPostgres) {
  const database = await freshTestDatabase("loom_bench_async");
  const pg = await openAsyncStore(database.url, { poolSize: 2 });
  try {
    await prepare(pg);
    const n = Math.min(units, 2_000);
    await asyncEmpty(pg, 200)();
    result.postgresEmptyUs = await asyncEmpty(pg, n)();
    result.postgresTenUs = await asyncTen(pg, n)();
  } finally {
    await pg.close();
    await database.drop();
  }
}

const us = (v: number | undefined) => (v === undefined ? "-" : `${v.toFixed(1)} µs`);
console.log(`empty unit: better-sqlite3 transaction (deferred BEGIN) ${us(result.syncEmptyUs)}, async SQLite ${us(result.asyncEmptyUs)} (×${result.emptyRatio.toFixed(2)})`);
console.log(
  `empty unit: better-sqlite3 transaction with BEGIN IMMEDIATE (as the async unit takes) ${us(result.syncImmediateEmptyUs)}, async SQLite ${us(result.asyncEmptyUs2)} (×${result.emptyImmediateRatio.toFixed(2)})`,
);
console.log(`unit of 10 statements: better-sqlite3 transaction ${us(result.syncTenUs)}, async SQLite ${us(result.asyncTenUs)} (×${result.tenRatio.toFixed(2)})`);
if (withPostgres) console.log(`PostgreSQL (async, pool of 2, sequential): empty ${us(result.postgresEmptyUs)}, 10 statements ${us(result.postgresTenUs)}`);
console.log(JSON.stringify(result));
