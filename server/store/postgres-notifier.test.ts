/**
 * Farm events across replicas on a real PostgreSQL (a fresh database): two "replicas" in this
 * process, each with its own bus, origin and LISTEN connection. Events sent in A's transactions
 * reach B's bus once, after the commit only, in order, never A's; B's listener survives a killed
 * or frozen connection and announces a resync; junk on the channel is dropped.
 */
import net from "node:net";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { farmChanges } from "../router/farm-changes";
import { wakeups } from "../router/wakeups";
import { freshTestDatabase, type TestDatabase } from "../db/postgres-test-support";
import type { Tx } from "./engine/engine";
import { PostgresStore } from "./engine/postgres-engine";
import { FarmEventBus } from "./events";
import {
  encodeEvent,
  EVENTS_CHANNEL,
  FARM_EVENT_NAMES,
  type FarmEvent,
  MAX_NOTIFY_BYTES,
  newEventOrigin,
  notifyAllInTransaction,
  notifyInTransaction,
  PostgresEventListener,
  PostgresEventRelay,
  type EventListenerOptions,
} from "./postgres-notifier";
import { testEngine } from "./engines-test-support";

interface Replica {
  origin: string;
  bus: FarmEventBus;
  listener: PostgresEventListener;
  /** Every event its bus delivered, fences left out. */
  seen: FarmEvent[];
  fences: string[];
  logs: string[];
}

const FENCE_JOB = "fence";

let database: TestDatabase | undefined;
let pool: pg.Pool;
/** The store the sending replica's units run on (the farm's engine, as in production). */
let store: PostgresStore;
const replicas: Replica[] = [];
const cleanups: Array<() => Promise<void> | void> = [];

beforeAll(async () => {
  database = await freshTestDatabase("loom_events");
  pool = new pg.Pool({ connectionString: database.url, max: 4 });
  store = new PostgresStore({ url: database.url, poolSize: 2 });
}, 60_000);

afterEach(async () => {
  for (const r of replicas.splice(0)) await r.listener.stop();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

afterAll(async () => {
  await pool?.end();
  await store?.close();
  await database?.drop();
}, 60_000);

async function replica(options: Partial<EventListenerOptions> = {}): Promise<Replica> {
  const bus = new FarmEventBus();
  const r: Replica = { origin: newEventOrigin(), bus, listener: null!, seen: [], fences: [], logs: [] };
  for (const name of FARM_EVENT_NAMES) {
    bus.subscribe(name, (payload) => {
      const event = { name, payload } as FarmEvent;
      if (event.name === "logs" && event.payload.jobId === FENCE_JOB) r.fences.push(event.payload.sessionId);
      else r.seen.push(event);
    });
  }
  r.listener = new PostgresEventListener({ connection: database!.url, bus, origin: r.origin, log: (m) => r.logs.push(m), ...options });
  await r.listener.start();
  replicas.push(r);
  return r;
}

async function until(what: string, done: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

let fenceCount = 0;
/**
 * Commits an event from a third origin and waits until every replica has it. Notifications are
 * delivered in commit order, so whatever was committed before it has arrived by then too, and
 * whatever has not arrived was not sent.
 */
async function fence(...rs: Replica[]): Promise<void> {
  const id = `fence-${++fenceCount}`;
  await pool.query("SELECT pg_notify($1, $2)", [EVENTS_CHANNEL, JSON.stringify({ o: "fence", n: "logs", p: { sessionId: id, jobId: FENCE_JOB } })]);
  await until(`fence ${id}`, () => rs.every((r) => r.fences.includes(id)));
}

/** Runs `fn` as a unit of work of A's store (what the farm's services do): committed when it resolves. */
function inTransaction(fn: (tx: Tx) => Promise<void>): Promise<void> {
  return store.transaction(fn);
}

/** Runs `fn` as a unit that rolls back. */
async function rolledBack(fn: (tx: Tx) => Promise<void>): Promise<void> {
  await expect(
    store.transaction(async (tx) => {
      await fn(tx);
      throw new Error("rolled back");
    }),
  ).rejects.toThrow("rolled back");
}

describe.skipIf(testEngine() === "postgres")("farm events across replicas on PostgreSQL (once, in the sqlite project: it opens its own PostgreSQL database)", () => {
  it("deliver A's committed event to B once, not while the transaction is open, never on rollback, and never back to A", async () => {
    const a = await replica();
    const b = await replica();
    await inTransaction(async (tx) => {
      await notifyInTransaction(tx, a.origin, "jobs", ["job-1"]);
      await fence(a, b);
      expect(b.seen).toEqual([]);
    });
    await until("B to hear job-1", () => b.seen.length > 0);

    await rolledBack((tx) => notifyInTransaction(tx, a.origin, "jobs", ["rolled-back"]));
    // A savepoint that rolls back sends nothing either; its outer unit commits.
    await inTransaction(async (tx) => {
      await expect(
        tx.transaction(async (inner) => {
          await notifyInTransaction(inner, a.origin, "jobs", ["savepoint-rolled-back"]);
          throw new Error("savepoint rolled back");
        }),
      ).rejects.toThrow("savepoint rolled back");
      await notifyInTransaction(tx, a.origin, "workers");
    });
    await fence(a, b);
    expect(b.seen).toEqual([
      { name: "jobs", payload: ["job-1"] },
      { name: "workers", payload: undefined },
    ]);
    expect(a.seen).toEqual([]);
    expect([...a.logs, ...b.logs]).toEqual([]);
  });

  it("relay what a unit publishes on A's bus to B when the unit commits, not what its rolled-back savepoint published; an event outside every unit at once", async () => {
    const a = await replica();
    const b = await replica();
    a.bus.relayTo(new PostgresEventRelay(store, a.origin));
    await inTransaction(async (tx) => {
      a.bus.publish(tx, "jobs", ["job-1"]);
      await expect(
        tx.transaction(async (inner) => {
          a.bus.publish(inner, "jobs", ["savepoint-rolled-back"]);
          throw new Error("savepoint rolled back");
        }),
      ).rejects.toThrow("savepoint rolled back");
      a.bus.publish(tx, "workers");
      await fence(a, b);
      expect(b.seen).toEqual([]);
    });
    await rolledBack(async (tx) => a.bus.publish(tx, "jobs", ["rolled-back"]));
    a.bus.publish(null, "pools");
    await until("B to hear the event published outside every unit", () => b.seen.some((e) => e.name === "pools"));
    await fence(a, b);
    expect(b.seen).toEqual([
      { name: "jobs", payload: ["job-1"] },
      { name: "workers", payload: undefined },
      { name: "pools", payload: undefined },
    ]);
    // A's own listeners heard its committed events from the bus itself, not back from PostgreSQL.
    expect(a.seen).toEqual([
      { name: "jobs", payload: ["job-1"] },
      { name: "workers", payload: undefined },
      { name: "pools", payload: undefined },
    ]);
  });

  it("keep the order of several events in one transaction (identical ones folded, as PostgreSQL does)", async () => {
    const a = await replica();
    const b = await replica();
    await inTransaction(async (tx) => {
      await notifyInTransaction(tx, a.origin, "jobs", ["job-1"]);
      await notifyInTransaction(tx, a.origin, "workers");
      await notifyInTransaction(tx, a.origin, "logs", { sessionId: "session-1", jobId: "job-1" });
      await notifyAllInTransaction(tx, a.origin, [
        { name: "jobs", payload: ["job-2", "job-3"] },
        { name: "pools", payload: undefined },
        { name: "workers", payload: undefined },
        { name: "access", payload: undefined },
        { name: "worker-status", payload: undefined },
      ]);
    });
    await fence(a, b);
    expect(b.seen).toEqual([
      { name: "jobs", payload: ["job-1"] },
      { name: "workers", payload: undefined },
      { name: "logs", payload: { sessionId: "session-1", jobId: "job-1" } },
      { name: "jobs", payload: ["job-2", "job-3"] },
      { name: "pools", payload: undefined },
      { name: "access", payload: undefined },
      { name: "worker-status", payload: undefined },
    ]);
    expect(a.seen).toEqual([]);
  });

  it("send a jobs event too large for one notification as parts under the limit that carry every id, in order", async () => {
    const a = await replica();
    const b = await replica();
    // Ids of varied lengths, some with two-byte characters, so parts end at every distance from the limit.
    const ids = Array.from({ length: 5_000 }, (_, i) => `job-${i}-${"x".repeat(i % 37)}${i % 13 === 0 ? "é" : ""}`);
    const parts = encodeEvent(a.origin, { name: "jobs", payload: ids });
    expect(parts.length).toBeGreaterThan(15); // about 150 kB
    for (const part of parts) expect(Buffer.byteLength(part)).toBeLessThanOrEqual(MAX_NOTIFY_BYTES);
    for (const part of parts.slice(0, -1)) expect(Buffer.byteLength(part)).toBeGreaterThan(MAX_NOTIFY_BYTES - 60); // full parts

    // What goes over the wire, read by a plain LISTEN of our own.
    const raw = new pg.Client({ connectionString: database!.url });
    const wire: string[] = [];
    await raw.connect();
    cleanups.push(() => raw.end());
    raw.on("notification", (m) => wire.push(m.payload ?? ""));
    await raw.query(`LISTEN ${EVENTS_CHANNEL}`);

    await inTransaction((tx) => notifyInTransaction(tx, a.origin, "jobs", ids));
    await fence(a, b);
    expect(b.seen.length).toBe(parts.length);
    expect(b.seen.every((e) => e.name === "jobs")).toBe(true);
    expect(b.seen.flatMap((e) => (e.name === "jobs" ? e.payload : []))).toEqual(ids);
    // The fence is B's; our own plain listener is another connection and may hear them later.
    await until("the plain listener to hear every part", () => wire.length >= parts.length);
    expect(wire.slice(0, parts.length)).toEqual(parts);

    // Nothing else can be split: a payload that does not fit arrives as a resync.
    const huge = { sessionId: "s".repeat(MAX_NOTIFY_BYTES), jobId: "job-1" };
    await inTransaction((tx) => notifyInTransaction(tx, a.origin, "logs", huge));
    await fence(a, b);
    expect(b.seen.at(-1)).toEqual({ name: "resync", payload: undefined });
    expect(a.seen).toEqual([]);
  });

  it("use PostgreSQL's real limit: a payload of MAX_NOTIFY_BYTES goes, one byte more is refused", async () => {
    await pool.query("SELECT pg_notify('loom_probe', repeat('x', $1))", [MAX_NOTIFY_BYTES]);
    await expect(pool.query("SELECT pg_notify('loom_probe', repeat('x', $1))", [MAX_NOTIFY_BYTES + 1])).rejects.toThrow(/payload string too long/);

    // A jobs event of exactly the limit goes whole (and is accepted); one byte more is split.
    const event = (extraBytes: number) => ({ name: "jobs", payload: ["job-1", `job-2-${"é".repeat(extraBytes >> 1)}${"x".repeat(extraBytes & 1)}`] }) satisfies FarmEvent;
    const room = MAX_NOTIFY_BYTES - Buffer.byteLength(encodeEvent("origin", event(0))[0]!);
    expect(encodeEvent("origin", event(room)).map((p) => Buffer.byteLength(p))).toEqual([MAX_NOTIFY_BYTES]);
    await inTransaction((tx) => notifyAllInTransaction(tx, "origin", [event(room)]));
    const over = event(room + 1);
    expect(encodeEvent("origin", over).map((p) => JSON.parse(p).p)).toEqual([["job-1"], [over.payload[1]]]);
  });

  it("reconnect B when its connection is killed, announce a resync, then hear A again", async () => {
    const a = await replica();
    const b = await replica({ retryMs: 20 });
    const pid = b.listener.backendPid;
    expect(pid).toBeTypeOf("number");
    await pool.query("SELECT pg_terminate_backend($1)", [pid]);
    await until("B to listen again", () => b.listener.reconnects === 1);
    expect(b.listener.backendPid).not.toBe(pid);
    expect(b.seen).toEqual([{ name: "resync", payload: undefined }]);
    expect(b.logs.some((l) => l.includes("was lost"))).toBe(true);

    await inTransaction((tx) => notifyInTransaction(tx, a.origin, "jobs", ["after"]));
    await until("B to hear A again", () => b.seen.length === 2);
    expect(b.seen[1]).toEqual({ name: "jobs", payload: ["after"] });
    expect(a.seen).toEqual([]); // A's own connection was not touched
    expect(a.listener.reconnects).toBe(0);
  });

  it("notice a connection that stopped answering (a frozen network), retry with backoff while the server is unreachable, then resync", async () => {
    const proxy = await tcpProxy(new URL(database!.url));
    cleanups.push(() => proxy.close());
    const url = new URL(database!.url);
    url.port = String(proxy.port);
    const a = await replica();
    const b = await replica({ connection: url.toString(), pingMs: 50, pingTimeoutMs: 200, retryMs: 20, maxRetryMs: 80 });
    await inTransaction((tx) => notifyInTransaction(tx, a.origin, "pools"));
    await until("B to hear A through the proxy", () => b.seen.length === 1);

    proxy.freeze();
    proxy.refuse(true);
    await until("B to give up on the frozen connection", () => !b.listener.listening);
    await until("B to fail again a few times", () => b.logs.filter((l) => l.includes("failed")).length >= 3);
    expect(b.seen.length).toBe(1);
    proxy.refuse(false);
    await until("B to listen again", () => b.listener.reconnects === 1);
    expect(b.seen.at(-1)).toEqual({ name: "resync", payload: undefined });

    await inTransaction((tx) => notifyInTransaction(tx, a.origin, "jobs", ["after"]));
    await until("B to hear A again", () => b.seen.length === 3);
    expect(b.seen[2]).toEqual({ name: "jobs", payload: ["after"] });
  });

  it("drop malformed notifications with one log line each and go on listening", async () => {
    const b = await replica();
    const pid = b.listener.backendPid;
    const junk = [
      "not json",
      "[]",
      JSON.stringify({ o: "x", n: "nope" }),
      JSON.stringify({ o: "x", n: "jobs", p: "job-1" }),
      JSON.stringify({ o: "x", n: "logs", p: { sessionId: 1, jobId: "j" } }),
      JSON.stringify({ n: "jobs", p: ["job-1"] }),
      JSON.stringify({ o: "x", n: "toString" }),
    ];
    for (const text of junk) await pool.query("SELECT pg_notify($1, $2)", [EVENTS_CHANNEL, text]);
    await pool.query("SELECT pg_notify($1, $2)", [EVENTS_CHANNEL, JSON.stringify({ o: "x", n: "jobs", p: ["job-ok"] })]);
    await fence(b);
    expect(b.seen).toEqual([{ name: "jobs", payload: ["job-ok"] }]);
    expect(b.logs.length).toBe(junk.length);
    expect(b.logs.every((l) => l.startsWith("dropped a malformed notification"))).toBe(true);
    expect(b.listener.backendPid).toBe(pid);
  });

  it("deliver A's commits to B's bus quickly (median of 50 printed)", async () => {
    const a = await replica();
    const b = await replica();
    const latencies: number[] = [];
    for (let i = 0; i < 50; i++) {
      const id = `job-${i}`;
      const heard = new Promise<number>((resolve) => {
        const unsubscribe = b.bus.subscribe("jobs", (ids) => {
          if (ids[0] !== id) return;
          unsubscribe();
          resolve(performance.now());
        });
      });
      let committing = 0;
      await inTransaction(async (tx) => {
        await notifyInTransaction(tx, a.origin, "jobs", [id]);
        // The last thing before the unit's COMMIT.
        tx.beforeCommit(() => void (committing = performance.now()));
      });
      latencies.push((await heard) - committing);
    }
    latencies.sort((x, y) => x - y);
    const median = (latencies[24]! + latencies[25]!) / 2;
    console.log(`farm events, A's COMMIT sent -> B's bus: median ${median.toFixed(2)} ms, p90 ${latencies[44]!.toFixed(2)} ms, max ${latencies[49]!.toFixed(2)} ms (50 events)`);
    expect(median).toBeLessThan(100);
  });
});

describe.skipIf(testEngine() === "postgres")("a resync on the bus (once, in the sqlite project: the bus alone, no store)", () => {
  it("wakes every live view and long poll, whatever events they follow or accept", async () => {
    const bus = new FarmEventBus();
    const longPoll = wakeups(bus, ["jobs", "workers"], undefined);
    const logFollow = wakeups(bus, ["logs"], undefined, () => false);
    const controller = new AbortController();
    const list = farmChanges(bus, ["workers"], { signal: controller.signal, settleMs: 1, refreshMs: 60_000 });
    await list.next(); // the first read
    const listWoke = list.next();
    const polls = [longPoll.next(60_000), logFollow.next(60_000)];
    bus.publish(null, "resync");
    expect(await Promise.all(polls)).toEqual([true, true]);
    expect((await listWoke).done).toBe(false);
    controller.abort();
    await list.return(undefined);
    longPoll.close();
    logFollow.close();
    expect(bus.listenerCount("resync")).toBe(0);
  });
});

/** A TCP proxy to the test server that can stop forwarding (a frozen network) and refuse new connections (a server gone). */
async function tcpProxy(target: URL) {
  const pairs = new Set<[net.Socket, net.Socket]>();
  const frozen: net.Socket[] = [];
  let refusing = false;
  const server = net.createServer((inbound) => {
    if (refusing) return void inbound.destroy();
    const outbound = net.connect(Number(target.port || 5432), target.hostname);
    const pair: [net.Socket, net.Socket] = [inbound, outbound];
    pairs.add(pair);
    inbound.pipe(outbound).on("error", () => undefined);
    outbound.pipe(inbound).on("error", () => undefined);
    const close = () => {
      inbound.destroy();
      outbound.destroy();
      pairs.delete(pair);
    };
    inbound.on("close", close).on("error", close);
    outbound.on("close", close).on("error", close);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    /** Open connections stay open but carry nothing more, either way. */
    freeze() {
      for (const [inbound, outbound] of pairs) {
        inbound.unpipe();
        outbound.unpipe();
        inbound.pause();
        outbound.pause();
        frozen.push(inbound, outbound);
      }
      pairs.clear();
    },
    refuse(on: boolean) {
      refusing = on;
    },
    async close() {
      for (const socket of [...frozen, ...[...pairs].flat()]) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
