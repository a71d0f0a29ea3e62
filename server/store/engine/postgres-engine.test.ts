/**
 * What only the PostgreSQL engine does: retries (when, how often, and not when a savepoint
 * absorbed the failure), int8 parsing on the pool's own type table, StoreUnavailableError for a
 * refused or lost connection, read snapshots, and migrations guarded against a second opener.
 */
import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { freshTestDatabase } from "../../db/postgres-test-support";
import { StoreUnavailableError, type AsyncStore } from "./engine";
import { gate, postgresHarness, scratchValues, sleep, write } from "./engine-test-support";
import { MIGRATION_LOCK, openAsyncStore } from "./open-store";
import { testEngine } from "../engines-test-support";

const harness = postgresHarness();
/** A serialization failure on demand. */
const SERIALIZATION_FAILURE = "DO $$ BEGIN RAISE EXCEPTION 'planted' USING ERRCODE = '40001'; END $$";

describe.skipIf(testEngine() === "postgres")("the async store on PostgreSQL (once, in the sqlite project: it opens its own PostgreSQL database)", () => {
  let store: AsyncStore;

  beforeAll(() => harness.setUp(), 60_000);
  afterAll(() => harness.tearDown(), 60_000);
  beforeEach(async () => {
    store = await harness.open();
  });
  afterEach(() => store.close());

  it("keeps both read-modify-write units under REPEATABLE READ: the one whose read went stale is retried", async () => {
    await store.transaction((tx) => tx.run("INSERT INTO counters (id, n) VALUES (1, 0)"));
    const bothRead = { count: 0, gate: gate() };
    let attempts = 0;
    const add = (amount: number) =>
      store.transaction(
        async (tx) => {
          const attempt = ++attempts;
          const { n } = (await tx.get<{ n: number }>("SELECT n FROM counters WHERE id = 1"))!;
          if (attempt <= 2 && ++bothRead.count === 2) bothRead.gate.open();
          if (attempt <= 2) await bothRead.gate.opened;
          await tx.run("UPDATE counters SET n = ? WHERE id = 1", [n + amount]);
        },
        { isolation: "repeatable read" },
      );
    await Promise.all([add(1), add(10)]);
    expect(await store.read((tx) => tx.get("SELECT n FROM counters WHERE id = 1"))).toEqual({ n: 11 });
    expect(attempts).toBe(3);
  });

  it("retries a failed unit five times, then throws its error; a failure caught inside fn still dooms the unit", async () => {
    let runs = 0;
    await expect(
      store.transaction(async (tx) => {
        runs++;
        await write(tx, `run ${runs}`);
        await tx.run(SERIALIZATION_FAILURE).catch(() => undefined);
      }),
    ).rejects.toThrow(/aborted by an earlier error/);
    expect(runs).toBe(6);
    expect(await scratchValues(store)).toEqual([]);
  });

  it("does not retry for a failure a savepoint rolled back: the unit commits once, or fails once for its own reason", async () => {
    let runs = 0;
    const absorbing = (then: () => Promise<unknown>) =>
      store.transaction(async (tx) => {
        runs++;
        await write(tx, `run ${runs}`);
        await expect(tx.transaction((sp) => sp.run(SERIALIZATION_FAILURE))).rejects.toMatchObject({ code: "40001" });
        await then();
      });
    await absorbing(async () => undefined);
    expect(runs).toBe(1);
    await expect(absorbing(() => Promise.reject(new Error("its own")))).rejects.toThrow("its own");
    expect(runs).toBe(2);
    expect(await scratchValues(store)).toEqual(["run 1"]);
  });

  it("retries a unit that a savepoint's conflict ended (the caller let it through): the unit commits on its second run", async () => {
    let runs = 0;
    await store.transaction(async (tx) => {
      runs++;
      await write(tx, `run ${runs}`);
      if (runs === 1) await tx.transaction((sp) => sp.run(SERIALIZATION_FAILURE));
    });
    expect(runs).toBe(2);
    expect(await scratchValues(store)).toEqual(["run 2"]);
  });

  it("parses int8 on its own pool only, and refuses one past 2^53 rather than round it", async () => {
    expect(await store.read((tx) => tx.get("SELECT CAST(? AS BIGINT) AS v", [2 ** 53 - 1]))).toEqual({ v: 2 ** 53 - 1 });
    await expect(store.read((tx) => tx.get("SELECT CAST(? AS BIGINT) AS v", ["9007199254740993"]))).rejects.toThrow(RangeError);
    const plain = new pg.Client({ connectionString: harness.target() });
    await plain.connect();
    try {
      expect((await plain.query("SELECT 42::int8 AS v")).rows[0]).toEqual({ v: "42" });
    } finally {
      await plain.end();
    }
  });

  it("reads one snapshot in a consistent read, the latest commit otherwise", async () => {
    /** Counts the rows twice in one read unit, with a unit committing a row (from outside the read) in between. */
    const countTwice = async (consistent: boolean) => {
      const counted = gate();
      const written = gate();
      const reading = store.read(
        async (tx) => {
          const before = await tx.get("SELECT COUNT(*) AS n FROM scratch");
          counted.open();
          await written.opened;
          return [before, await tx.get("SELECT COUNT(*) AS n FROM scratch")];
        },
        { consistent },
      );
      await counted.opened;
      await store.transaction((tx) => write(tx, "between"));
      written.open();
      return reading;
    };
    expect(await countTwice(true)).toEqual([{ n: 0 }, { n: 0 }]);
    expect(await countTwice(false)).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it("throws StoreUnavailableError when the connection is lost mid-unit, without retrying, and the next unit connects anew", async () => {
    let runs = 0;
    const failure = await store
      .transaction(async (tx) => {
        runs++;
        const { pid } = (await tx.get<{ pid: number }>("SELECT pg_backend_pid() AS pid"))!;
        const admin = new pg.Client({ connectionString: harness.target() });
        await admin.connect();
        await admin.query("SELECT pg_terminate_backend($1)", [pid]);
        await admin.end();
        await sleep(50);
        await write(tx, "lost");
      })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StoreUnavailableError);
    expect(runs).toBe(1);
    await store.transaction((tx) => write(tx, "after"));
    expect(await scratchValues(store)).toEqual(["after"]);
  });

  it("throws StoreUnavailableError when nothing answers at the address", async () => {
    await expect(openAsyncStore("postgres://postgres@127.0.0.1:1/loom")).rejects.toThrow(StoreUnavailableError);
  });
});

describe.skipIf(testEngine() === "postgres")("opening a PostgreSQL database (once, in the sqlite project: it opens its own PostgreSQL database)", () => {
  it("migrates under an advisory lock: an opener waits while another holds it, and two at once apply each migration once", async () => {
    const database = await freshTestDatabase("loom_engine_open");
    const holder = new pg.Client({ connectionString: database.url });
    const stores: AsyncStore[] = [];
    try {
      await holder.connect();
      await holder.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
      let opened = false;
      const first = openAsyncStore(database.url).then((s) => ((opened = true), s));
      const second = openAsyncStore(database.url);
      await sleep(300);
      expect(opened).toBe(false);
      await holder.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]);
      stores.push(await first, await second);
      const { n } = (await stores[0]!.read((tx) => tx.get<{ n: number }>("SELECT COUNT(*) AS n FROM drizzle.__drizzle_migrations")))!;
      const { entries } = (await import("../../../drizzle/postgres/meta/_journal.json", { with: { type: "json" } })).default;
      expect(n).toBe(entries.length);
      expect(await stores[1]!.read((tx) => tx.get("SELECT COUNT(*) AS n FROM jobs"))).toEqual({ n: 0 });
    } finally {
      await holder.end();
      for (const s of stores) await s.close();
      await database.drop();
    }
  }, 60_000);
});
