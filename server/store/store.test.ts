/**
 * The unit of work and the events published in it: delivered only once the outermost unit has
 * committed, never when it (or the savepoint they were published in) rolls back; hooks before
 * the commit run once, inside it; parts that write late are flushed and forgotten with their unit.
 */
import { describe, expect, it, onTestFinished } from "vitest";
import { openStore } from "../db/connection";
import { FarmEventBus } from "./events";
import type { Store } from "./store";

function scratchStore(): Store {
  const store = openStore(":memory:");
  onTestFinished(() => store.close());
  store.sqlite.exec("CREATE TABLE scratch (v TEXT NOT NULL)");
  return store;
}

const write = (store: Store, v: string) => store.sqlite.prepare("INSERT INTO scratch (v) VALUES (?)").run(v);
const rows = (store: Store) => store.sqlite.prepare<[], string>("SELECT v FROM scratch ORDER BY rowid").pluck().all();

/** A bus on the store, and what its "jobs" listener saw: the payload, whether a unit was open, and the rows then. */
function listened(store: Store) {
  const bus = new FarmEventBus(store);
  const seen: Array<{ jobs: readonly string[]; inUnit: boolean; rows: string[] }> = [];
  bus.subscribe("jobs", (jobs) => seen.push({ jobs, inUnit: store.inUnit || store.sqlite.inTransaction, rows: rows(store) }));
  return { bus, seen };
}

describe("store.transaction and events published in it", () => {
  it("delivers an event published inside a unit only after the commit, with its change readable", () => {
    const store = scratchStore();
    const { bus, seen } = listened(store);
    store.transaction(() => {
      write(store, "a");
      bus.publish("jobs", ["job-1"]);
      expect(seen).toEqual([]);
      expect(store.inUnit).toBe(true);
    });
    expect(seen).toEqual([{ jobs: ["job-1"], inUnit: false, rows: ["a"] }]);
    expect(store.inUnit).toBe(false);
  });

  it("delivers at once outside a unit", () => {
    const store = scratchStore();
    const { bus, seen } = listened(store);
    bus.publish("jobs", ["job-1"]);
    expect(seen.map((s) => s.jobs)).toEqual([["job-1"]]);
  });

  it("never delivers an event of a unit that rolls back", () => {
    const store = scratchStore();
    const { bus, seen } = listened(store);
    expect(() =>
      store.transaction(() => {
        write(store, "a");
        bus.publish("jobs", ["job-1"]);
        throw new Error("boom");
      }),
    ).toThrow("boom");
    expect(rows(store)).toEqual([]);
    expect(seen).toEqual([]);
    // The next unit starts clean: nothing of the rolled-back one comes with it.
    store.transaction(() => bus.publish("jobs", ["job-2"]));
    expect(seen.map((s) => s.jobs)).toEqual([["job-2"]]);
  });

  it("drops the events of a savepoint that rolls back and delivers the enclosing unit's, in order, once", () => {
    const store = scratchStore();
    const { bus, seen } = listened(store);
    store.transaction(() => {
      write(store, "outer");
      bus.publish("jobs", ["before"]);
      expect(() =>
        store.transaction(() => {
          write(store, "inner");
          bus.publish("jobs", ["rolled-back"]);
          throw new Error("boom");
        }),
      ).toThrow("boom");
      store.transaction(() => bus.publish("jobs", ["kept"]));
      bus.publish("jobs", ["after"]);
      bus.publish("jobs", ["after"]);
    });
    expect(seen.map((s) => s.jobs)).toEqual([["before"], ["kept"], ["after"], ["after"]]);
    expect(seen.every((s) => !s.inUnit && s.rows.join() === "outer")).toBe(true);
  });

  it("delivers the events of nested units at the outermost commit, not when a savepoint is released", () => {
    const store = scratchStore();
    const { bus, seen } = listened(store);
    store.transaction(() => {
      store.transaction(() => {
        store.transaction(() => bus.publish("jobs", ["deep"]));
        expect(seen).toEqual([]);
      });
      expect(seen).toEqual([]);
      write(store, "last");
    });
    expect(seen).toEqual([{ jobs: ["deep"], inUnit: false, rows: ["last"] }]);
  });

  it("runs a beforeCommit hook once, inside the outermost unit after its work, however often and deep it was registered", () => {
    const store = scratchStore();
    const ran: Array<{ inTransaction: boolean; rows: string[] }> = [];
    const hook = () => ran.push({ inTransaction: store.sqlite.inTransaction, rows: rows(store) });
    store.transaction(() => {
      store.beforeCommit(hook);
      store.transaction(() => {
        store.beforeCommit(hook);
        store.transaction(() => store.beforeCommit(hook));
      });
      expect(ran).toEqual([]);
      write(store, "work");
    });
    expect(ran).toEqual([{ inTransaction: true, rows: ["work"] }]);
    store.transaction(() => write(store, "next"));
    expect(ran).toHaveLength(1);
  });

  it("rolls the whole unit back when a beforeCommit hook throws: no change, no event, rollback callbacks run", () => {
    const store = scratchStore();
    const { bus, seen } = listened(store);
    const rolledBack: string[] = [];
    expect(() =>
      store.transaction(() => {
        write(store, "a");
        bus.publish("jobs", ["job-1"]);
        store.onRollback(() => rolledBack.push("outer"));
        store.transaction(() => store.onRollback(() => rolledBack.push("inner")));
        store.beforeCommit(() => write(store, "hooked"));
        store.beforeCommit(() => {
          throw new Error("hook failed");
        });
      }),
    ).toThrow("hook failed");
    expect(rows(store)).toEqual([]);
    expect(seen).toEqual([]);
    expect(rolledBack).toEqual(["inner", "outer"]);
    expect(store.inUnit).toBe(false);
    store.transaction(() => write(store, "b"));
    expect(rows(store)).toEqual(["b"]);
  });

  it("drops the hooks and after-commit callbacks a rolled-back savepoint registered, and runs its rollback callbacks only", () => {
    const store = scratchStore();
    const calls: string[] = [];
    store.transaction(() => {
      store.onRollback(() => calls.push("outer rollback"));
      expect(() =>
        store.transaction(() => {
          store.beforeCommit(() => calls.push("inner hook"));
          store.afterCommit(() => calls.push("inner after"));
          store.onRollback(() => calls.push("inner rollback"));
          throw new Error("boom");
        }),
      ).toThrow("boom");
      store.afterCommit(() => calls.push("outer after"));
    });
    expect(calls).toEqual(["inner rollback", "outer after"]);
  });

  it("a throwing after-commit callback is logged, the others still run, and the committed unit returns normally", () => {
    const store = scratchStore();
    const calls: string[] = [];
    const logged: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void logged.push(args);
    try {
      const result = store.transaction(() => {
        write(store, "a");
        store.afterCommit(() => {
          throw new Error("late bug");
        });
        store.afterCommit(() => calls.push("second"));
        return "done";
      });
      expect(result).toBe("done");
    } finally {
      console.error = original;
    }
    expect(calls).toEqual(["second"]);
    expect(rows(store)).toEqual(["a"]);
    expect(String(logged[0])).toContain("after a commit failed");
  });

  it("still delivers every event when a listener throws, and the publisher's unit stays committed", () => {
    const store = scratchStore();
    const { bus, seen } = listened(store);
    const failing = bus.subscribe("jobs", () => {
      throw new Error("a view's bug");
    });
    const logged: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void logged.push(args);
    try {
      store.transaction(() => {
        write(store, "a");
        bus.publish("jobs", ["one"]);
        bus.publish("jobs", ["two"]);
      });
    } finally {
      console.error = original;
    }
    failing();
    expect(seen.map((s) => s.jobs)).toEqual([["one"], ["two"]]);
    expect(logged).toHaveLength(2);
    expect(rows(store)).toEqual(["a"]);
  });

  it("flushes a write-behind part when a savepoint opens and before the commit, and forgets only the rolled-back savepoint's", () => {
    const store = scratchStore();
    const gathered: string[] = [];
    store.writeBehind({
      flush: () => {
        for (const v of gathered.splice(0)) write(store, v);
      },
      forget: () => void (gathered.length = 0),
    });
    store.transaction(() => {
      gathered.push("outer 1");
      expect(() =>
        store.transaction(() => {
          expect(rows(store)).toEqual(["outer 1"]); // written before the savepoint took its snapshot
          gathered.push("inner");
          throw new Error("boom");
        }),
      ).toThrow("boom");
      store.transaction(() => gathered.push("released"));
      gathered.push("outer 2");
    });
    expect(rows(store)).toEqual(["outer 1", "released", "outer 2"]);
    expect(gathered).toEqual([]);
  });

  it("refuses to open a unit inside a transaction it did not open (its hooks and events would run before that commit)", () => {
    const store = scratchStore();
    expect(() => store.sqlite.transaction(() => store.transaction(() => write(store, "a")))()).toThrow("did not open");
    expect(rows(store)).toEqual([]);
  });

  it("passes the unit's result through, and takes the write lock at once when asked", () => {
    const store = scratchStore();
    expect(store.transaction(() => 42)).toBe(42);
    expect(store.transaction(() => store.sqlite.inTransaction, { immediate: true })).toBe(true);
  });
});

describe("FarmEventBus.stream", () => {
  it("yields every event in order, queued while nobody reads, and ends when its signal aborts", async () => {
    const store = scratchStore();
    const bus = new FarmEventBus(store);
    const controller = new AbortController();
    const stream = bus.stream("jobs", controller.signal);
    store.transaction(() => {
      bus.publish("jobs", ["a"]);
      bus.publish("jobs", ["a"]);
    });
    bus.publish("jobs", ["b"]);
    expect([(await stream.next()).value, (await stream.next()).value, (await stream.next()).value]).toEqual([["a"], ["a"], ["b"]]);
    const waiting = stream.next();
    bus.publish("jobs", ["c"]);
    expect((await waiting).value).toEqual(["c"]);
    const last = stream.next();
    controller.abort();
    expect((await last).done).toBe(true);
    expect(bus.listenerCount("jobs")).toBe(0);
  });

  it("lets go of its listener when the loop stops", async () => {
    const bus = new FarmEventBus(null);
    setTimeout(() => bus.publish("jobs", ["x"]), 0);
    for await (const jobs of bus.stream("jobs")) {
      expect(jobs).toEqual(["x"]);
      break;
    }
    expect(bus.listenerCount("jobs")).toBe(0);
  });
});
