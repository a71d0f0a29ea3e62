/**
 * The unit of work and the events published in it: delivered only once the outermost unit has
 * committed, never when it (or the savepoint they were published in) rolls back; hooks before
 * the commit run once, inside it; parts that write late (Tx.local) are flushed and forgotten with
 * their unit. On SQLite (openStore), with the test reading the connection directly.
 */
import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { openStore, type SqliteStore } from "../db/connection";
import type { Tx, UnitLocal } from "./engine/engine";
import { FarmEventBus } from "./events";
import { testEngine } from "./engines-test-support";

function scratchStore(file = ":memory:"): SqliteStore {
  const store = openStore(file);
  onTestFinished(() => store.close());
  store.sqlite.exec("CREATE TABLE scratch (v TEXT NOT NULL)");
  return store;
}

const write = (tx: Tx, v: string) => tx.run("INSERT INTO scratch (v) VALUES (?)", [v]);
/** The rows as the store's connection sees them (inside a unit: with its uncommitted ones). */
const rows = (store: SqliteStore) => store.sqlite.prepare<[], string>("SELECT v FROM scratch ORDER BY rowid").pluck().all();

/** A bus on the store, and what its "jobs" listener saw: the payload, whether a unit was open, and the rows then. */
function listened(store: SqliteStore) {
  const bus = new FarmEventBus();
  const seen: Array<{ jobs: readonly string[]; inUnit: boolean; rows: string[] }> = [];
  bus.subscribe("jobs", (jobs) => seen.push({ jobs, inUnit: store.sqlite.inTransaction, rows: rows(store) }));
  return { bus, seen };
}

/** What `fn` resolves to, and the console.error calls made meanwhile (kept off the test output). */
async function consoleErrorsOf<T>(fn: () => Promise<T>): Promise<{ result: T; logged: unknown[][] }> {
  const logged: unknown[][] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => void logged.push(args);
  try {
    return { result: await fn(), logged };
  } finally {
    console.error = original;
  }
}

/** A part that writes late: values gathered in memory, written to scratch when the unit flushes it. */
class Gathered implements UnitLocal {
  readonly values: string[] = [];

  async flush(tx: Tx): Promise<void> {
    for (const v of this.values.splice(0)) await write(tx, v);
  }

  forget(): void {
    this.values.length = 0;
  }
}

describe.skipIf(testEngine() === "postgres")("store.transaction and events published in it (SQLite only: it reads the SQLite connection directly; engine.test.ts runs units on both engines)", () => {
  it("delivers an event published inside a unit only after the commit, with its change readable", async () => {
    const store = scratchStore();
    const { bus, seen } = listened(store);
    await store.transaction(async (tx) => {
      await write(tx, "a");
      bus.publish(tx, "jobs", ["job-1"]);
      expect(seen).toEqual([]);
      expect(store.sqlite.inTransaction).toBe(true);
    });
    expect(seen).toEqual([{ jobs: ["job-1"], inUnit: false, rows: ["a"] }]);
    expect(store.sqlite.inTransaction).toBe(false);
  });

  it("delivers at once what is published without a unit", () => {
    const store = scratchStore();
    const { bus, seen } = listened(store);
    bus.publish(null, "jobs", ["job-1"]);
    expect(seen.map((s) => s.jobs)).toEqual([["job-1"]]);
  });

  it("never delivers an event of a unit that rolls back", async () => {
    const store = scratchStore();
    const { bus, seen } = listened(store);
    await expect(
      store.transaction(async (tx) => {
        await write(tx, "a");
        bus.publish(tx, "jobs", ["job-1"]);
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(rows(store)).toEqual([]);
    expect(seen).toEqual([]);
    // The next unit starts clean: nothing of the rolled-back one comes with it.
    await store.transaction(async (tx) => bus.publish(tx, "jobs", ["job-2"]));
    expect(seen.map((s) => s.jobs)).toEqual([["job-2"]]);
  });

  it("drops the events of a savepoint that rolls back and delivers the enclosing unit's, in order, once", async () => {
    const store = scratchStore();
    const { bus, seen } = listened(store);
    await store.transaction(async (tx) => {
      await write(tx, "outer");
      bus.publish(tx, "jobs", ["before"]);
      await expect(
        tx.transaction(async (sp) => {
          await write(sp, "inner");
          bus.publish(sp, "jobs", ["rolled-back"]);
          throw new Error("boom");
        }),
      ).rejects.toThrow("boom");
      await tx.transaction(async (sp) => bus.publish(sp, "jobs", ["kept"]));
      bus.publish(tx, "jobs", ["after"]);
      bus.publish(tx, "jobs", ["after"]);
    });
    expect(seen.map((s) => s.jobs)).toEqual([["before"], ["kept"], ["after"], ["after"]]);
    expect(seen.every((s) => !s.inUnit && s.rows.join() === "outer")).toBe(true);
  });

  it("delivers the events of savepoints at the outermost commit, not when a savepoint is released", async () => {
    const store = scratchStore();
    const { bus, seen } = listened(store);
    await store.transaction(async (tx) => {
      await tx.transaction(async (sp) => {
        await sp.transaction(async (deep) => bus.publish(deep, "jobs", ["deep"]));
        expect(seen).toEqual([]);
      });
      expect(seen).toEqual([]);
      await write(tx, "last");
    });
    expect(seen).toEqual([{ jobs: ["deep"], inUnit: false, rows: ["last"] }]);
  });

  it("runs a beforeCommit hook once, inside the outermost unit after its work, however often and deep it was registered", async () => {
    const store = scratchStore();
    const ran: Array<{ inTransaction: boolean; rows: string[] }> = [];
    const hook = () => void ran.push({ inTransaction: store.sqlite.inTransaction, rows: rows(store) });
    await store.transaction(async (tx) => {
      tx.beforeCommit(hook);
      await tx.transaction(async (sp) => {
        sp.beforeCommit(hook);
        await sp.transaction(async (deep) => deep.beforeCommit(hook));
      });
      expect(ran).toEqual([]);
      await write(tx, "work");
    });
    expect(ran).toEqual([{ inTransaction: true, rows: ["work"] }]);
    await store.transaction((tx) => write(tx, "next"));
    expect(ran).toHaveLength(1);
  });

  it("rolls the whole unit back when a beforeCommit hook throws: no change, no event, rollback callbacks run", async () => {
    const store = scratchStore();
    const { bus, seen } = listened(store);
    const rolledBack: string[] = [];
    await expect(
      store.transaction(async (tx) => {
        await write(tx, "a");
        bus.publish(tx, "jobs", ["job-1"]);
        tx.onRollback(() => rolledBack.push("outer"));
        await tx.transaction(async (sp) => sp.onRollback(() => rolledBack.push("inner")));
        tx.beforeCommit(async () => void (await write(tx, "hooked")));
        tx.beforeCommit(() => {
          throw new Error("hook failed");
        });
      }),
    ).rejects.toThrow("hook failed");
    expect(rows(store)).toEqual([]);
    expect(seen).toEqual([]);
    expect(rolledBack).toEqual(["inner", "outer"]);
    expect(store.sqlite.inTransaction).toBe(false);
    await store.transaction((tx) => write(tx, "b"));
    expect(rows(store)).toEqual(["b"]);
  });

  it("drops the hooks and after-commit callbacks a rolled-back savepoint registered, and runs its rollback callbacks only", async () => {
    const store = scratchStore();
    const calls: string[] = [];
    await store.transaction(async (tx) => {
      tx.onRollback(() => calls.push("outer rollback"));
      await expect(
        tx.transaction(async (sp) => {
          sp.beforeCommit(() => void calls.push("inner hook"));
          sp.afterCommit(() => calls.push("inner after"));
          sp.onRollback(() => calls.push("inner rollback"));
          throw new Error("boom");
        }),
      ).rejects.toThrow("boom");
      tx.afterCommit(() => calls.push("outer after"));
    });
    expect(calls).toEqual(["inner rollback", "outer after"]);
  });

  it("runs every after-commit callback when one throws, says it, and returns normally: the unit committed", async () => {
    const store = scratchStore();
    const calls: string[] = [];
    const { result, logged } = await consoleErrorsOf(() =>
      store.transaction(async (tx) => {
        await write(tx, "a");
        tx.afterCommit(() => {
          throw new Error("late bug");
        });
        tx.afterCommit(() => calls.push("second"));
        return "done";
      }),
    );
    expect(result).toBe("done");
    expect(calls).toEqual(["second"]);
    expect(String(logged[0]![1])).toContain("late bug");
    expect(rows(store)).toEqual(["a"]);
    expect(await store.transaction(async () => 42)).toBe(42);
  });

  it("still delivers every event when a listener throws, and the publisher's unit stays committed and returns normally", async () => {
    const store = scratchStore();
    const { bus, seen } = listened(store);
    const failing = bus.subscribe("jobs", () => {
      throw new Error("a view's bug");
    });
    const { result, logged } = await consoleErrorsOf(() =>
      store.transaction(async (tx) => {
        await write(tx, "a");
        bus.publish(tx, "jobs", ["one"]);
        bus.publish(tx, "jobs", ["two"]);
        return "done";
      }),
    );
    expect(result).toBe("done");
    failing();
    expect(seen.map((s) => s.jobs)).toEqual([["one"], ["two"]]);
    expect(logged).toHaveLength(2);
    expect(rows(store)).toEqual(["a"]);
  });

  it("flushes a write-behind part when a savepoint opens and before the commit (after the hooks), and forgets only the rolled-back savepoint's", async () => {
    const store = scratchStore();
    const key = {};
    const made: Gathered[] = [];
    const make = () => {
      const part = new Gathered();
      made.push(part);
      return part;
    };
    await store.transaction(async (tx) => {
      tx.local(key, make).values.push("outer 1");
      await expect(
        tx.transaction(async (sp) => {
          expect(rows(store)).toEqual(["outer 1"]); // written before the savepoint opened
          sp.local(key, make).values.push("inner");
          throw new Error("boom");
        }),
      ).rejects.toThrow("boom");
      await tx.transaction(async (sp) => void sp.local(key, make).values.push("released"));
      tx.local(key, make).values.push("outer 2");
      tx.beforeCommit(() => void tx.local(key, make).values.push("hooked"));
    });
    expect(rows(store)).toEqual(["outer 1", "released", "outer 2", "hooked"]);
    // One part for the unit, empty once it committed.
    expect(made).toHaveLength(1);
    expect(made[0]!.values).toEqual([]);
  });

  it("gives each unit its own write-behind part, and writes nothing of a unit that rolls back", async () => {
    const store = scratchStore();
    const key = {};
    const make = () => new Gathered();
    let first: Gathered | undefined;
    await expect(
      store.transaction(async (tx) => {
        first = tx.local(key, make);
        first.values.push("rolled back");
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    await store.transaction(async (tx) => {
      const part = tx.local(key, make);
      expect(part).not.toBe(first);
      expect(part.values).toEqual([]);
      part.values.push("kept");
    });
    expect(rows(store)).toEqual(["kept"]);
  });

  it("breaks the unit when a part fails to write before a savepoint: what it took out is lost, so the unit cannot commit", async () => {
    const store = scratchStore();
    const failing: UnitLocal = {
      flush: async () => {
        throw new Error("flush failed");
      },
      forget: () => undefined,
    };
    const seen: string[] = [];
    const unit = store.transaction(async (tx) => {
      await write(tx, "a");
      tx.local({}, () => failing);
      // A caller that catches the savepoint's failure and goes on, as the sync batcher does.
      await tx.transaction((sp) => write(sp, "b")).catch((error: Error) => seen.push(error.message));
      await write(tx, "c").catch((error: Error) => seen.push(error.message));
    });
    await expect(unit).rejects.toThrow("flush failed");
    expect(seen).toEqual(["flush failed", "flush failed"]);
    expect(rows(store)).toEqual([]);
  });

  it("refuses to open a unit inside a transaction it did not open (its hooks and events would run before that commit)", async () => {
    const store = scratchStore();
    const sqlite = store.sqlite;
    sqlite.exec("BEGIN");
    try {
      await expect(store.transaction((tx) => write(tx, "a"))).rejects.toThrow("did not open");
    } finally {
      sqlite.exec("ROLLBACK");
    }
    expect(rows(store)).toEqual([]);
    // The store is still usable: its turn was handed back.
    await store.transaction((tx) => write(tx, "b"));
    expect(rows(store)).toEqual(["b"]);
  });

  it("passes the unit's result through, and takes the write lock at its start, before its first write", async () => {
    const dir = mkdtempSync(join(tmpdir(), "loom-store-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, "farm.db");
    const store = scratchStore(file);
    const other = new Database(file, { timeout: 0 });
    onTestFinished(() => void other.close());
    expect(await store.transaction(async () => 42)).toBe(42);
    const inside = await store.transaction(async () => {
      // Another connection cannot write while a unit is open, even one that has not written yet.
      expect(() => other.prepare("INSERT INTO scratch (v) VALUES ('other')").run()).toThrow(/locked|busy/i);
      return store.sqlite.inTransaction;
    });
    expect(inside).toBe(true);
    other.prepare("INSERT INTO scratch (v) VALUES ('other')").run();
    expect(rows(store)).toEqual(["other"]);
  });
});

describe.skipIf(testEngine() === "postgres")("FarmEventBus.stream (SQLite only: on a SQLite scratch store)", () => {
  it("yields every event in order, queued while nobody reads, and ends when its signal aborts", async () => {
    const store = scratchStore();
    const bus = new FarmEventBus();
    const controller = new AbortController();
    const stream = bus.stream("jobs", controller.signal);
    await store.transaction(async (tx) => {
      bus.publish(tx, "jobs", ["a"]);
      bus.publish(tx, "jobs", ["a"]);
    });
    bus.publish(null, "jobs", ["b"]);
    expect([(await stream.next()).value, (await stream.next()).value, (await stream.next()).value]).toEqual([["a"], ["a"], ["b"]]);
    const waiting = stream.next();
    bus.publish(null, "jobs", ["c"]);
    expect((await waiting).value).toEqual(["c"]);
    const last = stream.next();
    controller.abort();
    expect((await last).done).toBe(true);
    expect(bus.listenerCount("jobs")).toBe(0);
  });

  it("lets go of its listener when the loop stops", async () => {
    const bus = new FarmEventBus();
    setTimeout(() => bus.publish(null, "jobs", ["x"]), 0);
    for await (const jobs of bus.stream("jobs")) {
      expect(jobs).toEqual(["x"]);
      break;
    }
    expect(bus.listenerCount("jobs")).toBe(0);
  });
});
