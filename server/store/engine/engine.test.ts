/**
 * The async unit of work, the same suite on both engines: commit and rollback, savepoints, hooks
 * and events only after the outermost commit, concurrent units (taking turns on SQLite, row locks
 * and deadlock retries on PostgreSQL), placeholders, numbers, the nesting mistake caught, close.
 */
import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FarmEventBus } from "../events";
import { NestedUnitError, StoreClosedError, statement, type AsyncStore, type Tx } from "./engine";
import { gate, postgresHarness, scratchValues, sleep, sqliteHarness, write, type EngineHarness } from "./engine-test-support";
import { openAsyncStore } from "./open-store";
import { testEngine } from "../engines-test-support";

// This suite opens both engines itself: the postgres project would only run it again.
const harnesses = [sqliteHarness(), postgresHarness()];
describe.skipIf(testEngine() === "postgres").each(harnesses)("the async store on $engine (once, in the sqlite project: it opens both engines)", (harness: EngineHarness) => {
  const { engine } = harness;
  let store: AsyncStore;

  beforeAll(() => harness.setUp(), 60_000);
  afterAll(() => harness.tearDown(), 60_000);
  beforeEach(async () => {
    store = await harness.open();
  });
  afterEach(() => store.close());

  it("commits a unit: its writes are kept and its value returned", async () => {
    const result = await store.transaction(async (tx) => {
      await write(tx, "a");
      const { changes } = await write(tx, "b");
      return { changes, seen: await tx.all<{ v: string }>("SELECT v FROM scratch ORDER BY id") };
    });
    expect(result).toEqual({ changes: 1, seen: [{ v: "a" }, { v: "b" }] });
    expect(await scratchValues(store)).toEqual(["a", "b"]);
  });

  it("rolls a unit back when fn throws: nothing kept, its onRollback run, the next unit clean", async () => {
    const calls: string[] = [];
    await expect(
      store.transaction(async (tx) => {
        await write(tx, "a");
        tx.onRollback(() => calls.push("rollback"));
        tx.afterCommit(() => calls.push("after"));
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(calls).toEqual(["rollback"]);
    expect(await scratchValues(store)).toEqual([]);
    await store.transaction((tx) => write(tx, "b"));
    expect(await scratchValues(store)).toEqual(["b"]);
    expect(calls).toEqual(["rollback"]);
  });

  it("rolls back a savepoint alone inside a unit that commits, with what it registered", async () => {
    const calls: string[] = [];
    await store.transaction(async (tx) => {
      await write(tx, "outer");
      await expect(
        tx.transaction(async (sp) => {
          await write(sp, "inner");
          sp.afterCommit(() => calls.push("inner after"));
          sp.beforeCommit(() => void calls.push("inner hook"));
          sp.onRollback(() => calls.push("inner rollback"));
          throw new Error("boom");
        }),
      ).rejects.toThrow("boom");
      expect(await tx.all("SELECT v FROM scratch")).toEqual([{ v: "outer" }]);
      await tx.transaction(async (sp) => {
        await write(sp, "kept");
        sp.afterCommit(() => calls.push("kept after"));
      });
      await write(tx, "last");
    });
    expect(calls).toEqual(["inner rollback", "kept after"]);
    expect(await scratchValues(store)).toEqual(["outer", "kept", "last"]);
  });

  it("runs hooks once just before the outermost commit and delivers events only after it, to a listener that can read the change", async () => {
    const bus = new FarmEventBus();
    const hooked: string[][] = [];
    // Whether the unit's hooks had run (just before its COMMIT) when the event arrived.
    const seen: Array<{ jobs: readonly string[]; afterHooks: boolean; rows: Promise<string[]> }> = [];
    bus.subscribe("jobs", (jobs) => seen.push({ jobs, afterHooks: hooked.length === 1, rows: scratchValues(store) }));
    await store.transaction(async (tx) => {
      const hook = async () => {
        hooked.push((await tx.all<{ v: string }>("SELECT v FROM scratch ORDER BY id")).map((r) => r.v));
        await write(tx, "hooked");
      };
      tx.beforeCommit(hook);
      bus.publish(tx, "jobs", ["outer"]);
      await tx.transaction(async (sp) => {
        sp.beforeCommit(hook);
        await sp.transaction(async (deep) => {
          deep.beforeCommit(hook);
          bus.publish(deep, "jobs", ["deep"]);
        });
        expect(seen).toEqual([]);
      });
      await write(tx, "work");
      expect(hooked).toEqual([]);
      expect(seen).toEqual([]);
    });
    expect(hooked).toEqual([["work"]]);
    expect(seen.map((s) => [s.jobs, s.afterHooks])).toEqual([
      [["outer"], true],
      [["deep"], true],
    ]);
    // Started from inside the after-commit delivery: the unit had let go of its connection by then.
    expect(await seen[0]!.rows).toEqual(["work", "hooked"]);
  });

  it("delivers at once what code outside every unit publishes while a unit is open, and never a rolled-back unit's", async () => {
    const bus = new FarmEventBus();
    const seen: string[] = [];
    bus.subscribe("jobs", (jobs) => seen.push(...jobs));
    const held = gate();
    const entered = gate();
    const unit = store.transaction(async (tx) => {
      await write(tx, "a");
      bus.publish(tx, "jobs", ["inside"]);
      entered.open();
      await held.opened;
      throw new Error("boom");
    });
    await entered.opened;
    bus.publish(null, "jobs", ["outside"]);
    expect(seen).toEqual(["outside"]);
    held.open();
    await expect(unit).rejects.toThrow("boom");
    expect(seen).toEqual(["outside"]);
  });

  it("rolls the whole unit back when a beforeCommit hook throws: no change, no afterCommit, rollback callbacks run", async () => {
    const calls: string[] = [];
    await expect(
      store.transaction(async (tx) => {
        await write(tx, "a");
        tx.onRollback(() => calls.push("outer rollback"));
        await tx.transaction(async (sp) => sp.onRollback(() => calls.push("inner rollback")));
        tx.afterCommit(() => calls.push("after"));
        tx.beforeCommit(() => write(tx, "hooked").then(() => undefined));
        tx.beforeCommit(async () => {
          throw new Error("hook failed");
        });
      }),
    ).rejects.toThrow("hook failed");
    expect(calls).toEqual(["inner rollback", "outer rollback"]);
    expect(await scratchValues(store)).toEqual([]);
  });

  it("keeps every change of 20 concurrent units incrementing one row", async () => {
    await store.transaction((tx) => tx.run("INSERT INTO counters (id, n) VALUES (1, 0)"));
    await Promise.all(
      Array.from({ length: 20 }, () =>
        store.transaction(async (tx) => {
          await tx.run("UPDATE counters SET n = n + 1 WHERE id = ?", [1]);
          await sleep(1);
        }),
      ),
    );
    expect(await store.read((tx) => tx.get("SELECT n FROM counters WHERE id = 1"))).toEqual({ n: 20 });
  });

  it.runIf(engine === "sqlite")("serializes units in the order they were started, each whole, across its awaits", async () => {
    const order = Array.from({ length: 6 }, (_, i) => i);
    await Promise.all(
      order.map((i) =>
        store.transaction(async (tx) => {
          await write(tx, `start ${i}`);
          await sleep((6 - i) * 3);
          await write(tx, `end ${i}`);
        }),
      ),
    );
    expect(await scratchValues(store)).toEqual(order.flatMap((i) => [`start ${i}`, `end ${i}`]));
  });

  it.runIf(engine === "sqlite")("keeps the cause when a full disk ends the whole transaction inside a savepoint: later statements and the commit fail with it, nothing is kept", async () => {
    const sqlite = (store as unknown as { sqlite: import("better-sqlite3").Database }).sqlite;
    const pages = sqlite.pragma("page_count", { simple: true }) as number;
    sqlite.pragma(`max_page_count = ${pages + 2}`);
    const seen: string[] = [];
    const unit = store.transaction(async (tx) => {
      await write(tx, "a");
      // A caller that catches the savepoint's failure and goes on, as the sync batcher does.
      await tx.transaction((inner) => write(inner, "x".repeat(200_000))).catch((error: Error) => seen.push(error.message));
      await write(tx, "b").catch((error: Error) => seen.push(error.message));
    });
    await expect(unit).rejects.toThrow("database or disk is full");
    expect(seen).toEqual(["database or disk is full", "database or disk is full"]);
    sqlite.pragma("max_page_count = 1073741823");
    expect(await scratchValues(store)).toEqual([]);
    await store.transaction((tx) => write(tx, "c"));
    expect(await scratchValues(store)).toEqual(["c"]);
  });

  it.runIf(engine === "postgres")("runs two units at once: the second waits on the first's row lock, and both updates are kept", async () => {
    await store.transaction((tx) => tx.run("INSERT INTO counters (id, n) VALUES (1, 0)"));
    const held = gate();
    const first = store.transaction(async (tx) => {
      await tx.run("UPDATE counters SET n = n + 1 WHERE id = 1");
      await held.opened;
    });
    await sleep(50);
    const second = store.transaction((tx) => tx.run("UPDATE counters SET n = n + 10 WHERE id = 1"));
    // The second is blocked on the first's lock, seen from a third connection.
    const waiting = "SELECT COUNT(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'";
    const observer = new pg.Client({ connectionString: harness.target() });
    await observer.connect();
    try {
      await expect.poll(async () => (await observer.query(waiting)).rows[0].n, { timeout: 5_000 }).toBe(1);
    } finally {
      await observer.end();
    }
    held.open();
    await Promise.all([first, second]);
    expect(await store.read((tx) => tx.get("SELECT n FROM counters WHERE id = 1"))).toEqual({ n: 11 });
  });

  it.runIf(engine === "postgres")("retries the loser of a deadlock: both units commit, one ran twice, the failed attempt's callbacks dropped", async () => {
    await store.transaction((tx) => tx.run("INSERT INTO counters (id, n) VALUES (1, 0), (2, 0)"));
    const bothLocked = { count: 0, gate: gate() };
    const attempts: string[] = [];
    const calls: string[] = [];
    const unit = (name: string, first: number, second: number) =>
      store.transaction(async (tx) => {
        const attempt = attempts.filter((a) => a === name).length + 1;
        attempts.push(name);
        tx.afterCommit(() => calls.push(`${name} after ${attempt}`));
        tx.onRollback(() => calls.push(`${name} rollback ${attempt}`));
        await tx.run("UPDATE counters SET n = n + 1 WHERE id = ?", [first]);
        if (attempt === 1 && ++bothLocked.count === 2) bothLocked.gate.open();
        if (attempt === 1) await bothLocked.gate.opened;
        await tx.run("UPDATE counters SET n = n + 1 WHERE id = ?", [second]);
      });
    await Promise.all([unit("a", 1, 2), unit("b", 2, 1)]);
    expect(await store.read((tx) => tx.all("SELECT id, n FROM counters ORDER BY id"))).toEqual([
      { id: 1, n: 2 },
      { id: 2, n: 2 },
    ]);
    expect(attempts).toHaveLength(3);
    const loser = attempts[2]!;
    expect(calls.sort()).toEqual([`${loser} after 2`, `${loser} rollback 1`, `${loser === "a" ? "b" : "a"} after 1`].sort());
  });

  it("translates ? placeholders and leaves a '?' literal alone", async () => {
    await store.transaction(async (tx) => {
      await write(tx, "a?");
      await write(tx, "b");
    });
    const rows = await store.read((tx) => tx.all("SELECT v, '?' AS q FROM scratch WHERE v <> ? AND v <> '?' ORDER BY id", ["b"]));
    expect(rows).toEqual([{ v: "a?", q: "?" }]);
  });

  it("returns int8 values, counts and sums as numbers", async () => {
    const epochMs = 1_700_000_000_123;
    await store.transaction((tx) => tx.run("INSERT INTO big (v) VALUES (?), (?)", [epochMs, 2 ** 40]));
    const row = await store.read((tx) => tx.get("SELECT MAX(v) AS max, COUNT(*) AS n, SUM(v) AS total FROM big"));
    expect(row).toEqual({ max: epochMs, n: 2, total: epochMs + 2 ** 40 });
    expect(Object.values(row!).map((v) => typeof v)).toEqual(["number", "number", "number"]);
  });

  it("reads flags as 1 and 0 (booleans on PostgreSQL, integers on SQLite), and binds booleans to either", async () => {
    const row = await store.read((tx) => tx.get("SELECT (1 = 1) AS yes, (1 = 2) AS no, CAST(? AS BOOLEAN) AS t, CAST(? AS BOOLEAN) AS f", [true, false]));
    expect(row).toEqual({ yes: 1, no: 0, t: 1, f: 0 });
  });

  it("runs named statements, prepared once per connection, and refuses a name given other SQL", async () => {
    const insert = statement("engine-test.insert-scratch", "INSERT INTO scratch (v) VALUES (?)");
    const byValue = statement<{ id: number; v: string }>("engine-test.scratch-by-value", "SELECT id, v FROM scratch WHERE v = ?");
    await store.transaction(async (tx) => {
      for (const v of ["x", "y", "z"]) await tx.run(insert, [v]);
      expect((await tx.get(byValue, ["y"]))?.v).toBe("y");
      if (engine === "postgres") expect(await tx.all("SELECT name FROM pg_prepared_statements WHERE name LIKE 'engine-test.%' ORDER BY name")).toHaveLength(2);
    });
    expect(await scratchValues(store)).toEqual(["x", "y", "z"]);
    expect(() => statement("engine-test.insert-scratch", "INSERT INTO scratch (v) VALUES ('other')")).toThrow(/already defined/);
  });

  it("throws NestedUnitError for a unit or read started inside a unit without its tx, instead of waiting forever", async () => {
    const outcome = await store.transaction(async (tx) => {
      await write(tx, "outer");
      const nested = await store.transaction((inner) => write(inner, "nested")).catch((error: unknown) => error);
      const read = await store.read((inner) => inner.all("SELECT v FROM scratch")).catch((error: unknown) => error);
      return [nested, read];
    });
    expect(outcome.map((e) => e instanceof NestedUnitError)).toEqual([true, true]);
    expect(String(outcome[0])).toMatch(/tx\.transaction/);
    // An afterCommit callback is outside the unit: it may start one of its own.
    let after: Promise<unknown> | undefined;
    await store.transaction(async (tx) => tx.afterCommit(() => void (after = store.transaction((next) => write(next, "after")))));
    await after;
    expect(await scratchValues(store)).toEqual(["outer", "after"]);
  }, 10_000);

  it("refuses a tx used after its unit ended, and writes in a read unit", async () => {
    let leaked: Tx | undefined;
    await store.transaction(async (tx) => void (leaked = tx));
    await expect(write(leaked!, "late")).rejects.toThrow(/has ended/);
    await expect(store.read((tx) => (tx as Tx).run("INSERT INTO scratch (v) VALUES ('r')"))).rejects.toThrow(/read unit does not write/);
    expect(await scratchValues(store)).toEqual([]);
  });

  it("closes once, after the unit already running, and refuses units afterwards", async () => {
    const held = gate();
    const running = store.transaction(async (tx) => {
      await held.opened;
      await write(tx, "finished");
    });
    await sleep(10);
    const closed = store.close();
    expect(store.close()).toBe(closed);
    await expect(store.transaction((tx) => write(tx, "late"))).rejects.toThrow(StoreClosedError);
    await expect(store.read((tx) => tx.all("SELECT 1"))).rejects.toThrow(/the store is closed/);
    held.open();
    await running;
    await closed;
    await store.close();
    const reopened = await openAsyncStore(harness.target());
    try {
      expect(await scratchValues(reopened)).toEqual(["finished"]);
    } finally {
      await reopened.close();
    }
  });
});
