/**
 * Leadership on a real PostgreSQL (a fresh database): one leader among replicas, a takeover when
 * the leader's session ends or falls silent, an epoch per leader, and leader work fenced by it.
 */
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { freshTestDatabase, type TestDatabase } from "../db/postgres-test-support";
import type { AsyncStore } from "./engine/engine";
import { openAsyncStore } from "./engine/open-store";
import { PostgresLeadership, SoloLeadership } from "./leader";
import { testEngine } from "./engines-test-support";

let database: TestDatabase | undefined;
let store: AsyncStore;
let admin: pg.Pool;
const started: PostgresLeadership[] = [];

beforeAll(async () => {
  database = await freshTestDatabase("loom_leader");
  store = await openAsyncStore(database.url, { poolSize: 4 });
  admin = new pg.Pool({ connectionString: database.url, max: 2 });
}, 60_000);

afterEach(async () => {
  for (const leadership of started.splice(0)) await leadership.stop();
});

afterAll(async () => {
  await admin?.end();
  await store?.close();
  await database?.drop();
}, 60_000);

async function replica(name: string, options: { silenceMs?: number } = {}) {
  const changes: Array<{ leading: boolean; epoch: number | null }> = [];
  const logs: string[] = [];
  const leadership = new PostgresLeadership({
    connection: database!.url,
    intervalMs: 100,
    silenceMs: options.silenceMs,
    onChange: (leading, epoch) => changes.push({ leading, epoch }),
    log: (m) => logs.push(`${name}: ${m}`),
  });
  await leadership.start();
  started.push(leadership);
  return { leadership, changes, logs };
}

async function until(what: string, done: () => boolean, timeoutMs = 10_000): Promise<number> {
  const start = Date.now();
  while (!done()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return Date.now() - start;
}

/** Stops a replica's asking and speaking, as a dead or frozen process would (its session stays until ended). */
function freeze(leadership: PostgresLeadership): void {
  clearInterval((leadership as unknown as { timer: NodeJS.Timeout }).timer);
}

function thaw(leadership: PostgresLeadership): void {
  const inside = leadership as unknown as { timer: NodeJS.Timeout; tick(): Promise<void> };
  inside.timer = setInterval(() => void inside.tick(), 100);
}

const epochInDatabase = async () => Number((await admin.query<{ value: string }>("SELECT value FROM server_state WHERE key = 'leader_epoch'")).rows[0]?.value);

describe.skipIf(testEngine() === "postgres")("leadership on PostgreSQL (once, in the sqlite project: it opens its own PostgreSQL database)", () => {
  it("lets one replica lead, fences the other's leader work, and hands over within a second when the leader's session ends", async () => {
    const a = await replica("A");
    const b = await replica("B");
    expect(a.leadership.isLeader).toBe(true);
    expect(b.leadership.isLeader).toBe(false);
    const first = a.leadership.epoch!;
    expect(await epochInDatabase()).toBe(first);

    expect(await a.leadership.runAsLeader(store, async () => "A did it")).toBe("A did it");
    expect(await b.leadership.runAsLeader(store, async () => "B did it")).toBeUndefined();

    // The leader's replica dies (kill -9): it asks no more, and its session ends. B takes over.
    freeze(a.leadership);
    await admin.query("SELECT pg_terminate_backend($1)", [a.leadership.backendPid]);
    const took = await until("B to lead", () => b.leadership.isLeader);
    expect(took).toBeLessThan(2_000);
    expect(a.leadership.isLeader).toBe(false);
    expect(b.leadership.epoch).toBe(first + 1);
    expect(await epochInDatabase()).toBe(first + 1);
    expect(a.changes).toEqual([
      { leading: true, epoch: first },
      { leading: false, epoch: null },
    ]);
    expect(await b.leadership.runAsLeader(store, async () => "B did it")).toBe("B did it");

    // A comes back (a restart): it asks again on a new connection and stays a follower while B lives.
    thaw(a.leadership);
    await until("A to connect again", () => a.leadership.backendPid !== null);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(a.leadership.isLeader).toBe(false);
    expect(a.leadership.backendPid).not.toBeNull();
    expect(await a.leadership.runAsLeader(store, async () => "A did it")).toBeUndefined();
  });

  it("takes the lock from a leader that falls silent (a frozen process), and fences the silent one when it wakes", async () => {
    const a = await replica("A", { silenceMs: 500 });
    const b = await replica("B");
    expect(a.leadership.isLeader).toBe(true);
    const first = a.leadership.epoch!;

    // Freeze A: it stops speaking, but still believes it leads.
    freeze(a.leadership);
    await until("B to lead after A's silence", () => b.leadership.isLeader, 5_000);
    expect(b.leadership.epoch).toBe(first + 1);

    // A wakes: its leader work finds another epoch, does nothing, and A knows it no longer leads.
    let ran = false;
    const answer = await a.leadership.runAsLeader(store, async () => {
      ran = true;
      return "A did it";
    });
    expect(answer).toBeUndefined();
    expect(ran).toBe(false);
    expect(a.leadership.isLeader).toBe(false);
  });

  it("hands over at once when the leader stops politely", async () => {
    const a = await replica("A");
    const b = await replica("B");
    expect(a.leadership.isLeader).toBe(true);
    await a.leadership.stop();
    const took = await until("B to lead", () => b.leadership.isLeader);
    expect(took).toBeLessThan(1_000);
  });

  it("refuses to start against a database that does not answer", async () => {
    const nowhere = new PostgresLeadership({ connection: { host: "127.0.0.1", port: 1, user: "x", database: "x", connectionTimeoutMillis: 1_000 }, log: () => undefined });
    await expect(nowhere.start()).rejects.toThrow();
    await nowhere.stop();
  });
});

describe.skipIf(testEngine() === "postgres")("leadership on SQLite (once, in the sqlite project: it opens a SQLite store of its own)", () => {
  it("always leads: leader work runs in a unit of the store", async () => {
    const { openStore } = await import("../db/connection");
    const sqlite = openStore(":memory:");
    const solo = new SoloLeadership();
    expect(solo.isLeader).toBe(true);
    expect(await solo.runAsLeader(sqlite, async (tx) => (await tx.get<{ n: number }>("SELECT 41 + 1 AS n"))?.n)).toBe(42);
    await sqlite.close();
  });
});
