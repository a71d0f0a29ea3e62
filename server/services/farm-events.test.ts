/**
 * Farm events reach live listeners only once their change is committed. The listener here reads
 * through a second connection to the same database (a SQLite file in WAL mode, or PostgreSQL),
 * which sees committed data only, as another server replica would: an event delivered before the
 * commit would show it the old state.
 */
import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { describe, expect, it, onTestFinished } from "vitest";
import { openAsyncStore } from "../store/engine/open-store";
import { postgresPlaceholders } from "../store/engine/placeholders";
import { testDatabaseTarget, testEngine } from "../store/engines-test-support";
import { SYSTEM_ACTOR } from "./audit";
import type { WorkerIdentity } from "./authenticate-worker";
import { cancelTasks } from "./cancel-tasks";
import { createFarm } from "../context/farm";
import { framesJob, LINUX_WORKER, SimulatedWorker, submit, type TestFarm } from "./farm-test-support";
import { authenticatePool, createPool } from "./pools";
import { syncBatcher } from "./sync-batcher";

/**
 * Reads on a connection of its own: SQLite's file opened read-only (a statement runs when it is
 * called, so a listener reads the state at the moment of its event), or a PostgreSQL client (a
 * statement goes out as soon as the client is free).
 */
interface Reader {
  all<R>(sql: string, ...params: string[]): Promise<R[]>;
  close(): Promise<void>;
}

async function readerOf(target: string): Promise<Reader> {
  if (testEngine() === "sqlite") {
    const file = new Database(target, { readonly: true });
    return {
      all: <R>(sql: string, ...params: string[]) => Promise.resolve(file.prepare<string[], R>(sql).all(...params)),
      close: async () => void file.close(),
    };
  }
  const client = new pg.Client({ connectionString: target });
  await client.connect();
  // One statement at a time on the client, each sent as the one before it ends.
  let queue: Promise<unknown> = Promise.resolve();
  return {
    all: <R>(sql: string, ...params: string[]) => {
      const rows = queue.then(async () => (await client.query(postgresPlaceholders(sql), params)).rows as R[]);
      queue = rows.catch(() => undefined);
      return rows;
    },
    close: () => client.end(),
  };
}

/** A farm on a database of its own (a file on SQLite), and a reader with a connection of its own to it. */
async function fileFarm(): Promise<{ t: TestFarm; reader: Reader }> {
  const dir = mkdtempSync(join(tmpdir(), "loom-events-"));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const target = await testDatabaseTarget(dir);
  const store = await openAsyncStore(target);
  const reader = await readerOf(target);
  // Runs before the hooks registered above: the connections close before the database goes.
  onTestFinished(async () => {
    await reader.close();
    await store.close();
  });
  const clock = { now: 1_700_000_000_000 };
  const farm = createFarm(store, { now: () => clock.now });
  const { token } = await createPool(farm, { name: "default" }, SYSTEM_ACTOR);
  const pool = (await authenticatePool(farm, token))!;
  return { t: { farm, clock, pool, token }, reader };
}

/** The job's task statuses as the reader sees them now (`STATUS:n`, in status order). */
async function statusesSeenBy(reader: Reader, jobId: string): Promise<string[]> {
  const rows = await reader.all<{ status: string; n: number | string }>("SELECT status, COUNT(*) AS n FROM tasks WHERE job_id = ? GROUP BY status ORDER BY status", jobId);
  return rows.map((r) => `${r.status}:${r.n}`);
}

describe("farm events after commit", () => {
  it("a wrangler's cancel: the jobs event comes once the canceled tasks are committed", async () => {
    const { t, reader } = await fileFarm();
    const jobId = await submit(t, framesJob(4));
    const seen: Array<Promise<{ jobs: readonly string[]; statuses: string[]; jobStatus: string | undefined }>> = [];
    t.farm.events.subscribe("jobs", (jobs) => {
      const statuses = statusesSeenBy(reader, jobId);
      const jobStatus = reader.all<{ status: string }>("SELECT status FROM jobs WHERE id = ?", jobId);
      seen.push(Promise.all([statuses, jobStatus]).then(([s, [job]]) => ({ jobs, statuses: s, jobStatus: job?.status })));
    });
    await cancelTasks(t.farm, { jobId }, SYSTEM_ACTOR);
    expect(await Promise.all(seen)).toEqual([{ jobs: [jobId], statuses: ["CANCELED:4"], jobStatus: "CANCELED" }]);
  });

  it("syncs committed together (group commit): each sync's jobs event comes after the shared commit, with its assignments readable", async () => {
    const { t, reader } = await fileFarm();
    const jobId = await submit(t, framesJob(4));
    const workers = [await SimulatedWorker.create(t, LINUX_WORKER("a")), await SimulatedWorker.create(t, LINUX_WORKER("b"))];
    const callers = [await workers[0]!.identity, await workers[1]!.identity];
    const seen: Array<Promise<string[]>> = [];
    t.farm.events.subscribe("jobs", (jobs) => {
      expect(jobs).toEqual([jobId]);
      seen.push(statusesSeenBy(reader, jobId));
    });
    // Both in the same turn of the event loop: one transaction, a savepoint each.
    const replies = await Promise.all(workers.map((w, i) => syncBatcher(t.farm).sync(callers[i]!, { workerId: w.workerId, leaseEpoch: w.leaseEpoch, sessions: [], actions: [], updates: [] })));
    expect(replies.every((r) => r.assignments.length > 0)).toBe(true);
    const assigned = await statusesSeenBy(reader, jobId);
    expect(assigned.some((s) => s.startsWith("ASSIGNED:"))).toBe(true);
    // Each event saw the state after both syncs: nothing was delivered between the savepoints.
    expect(await Promise.all(seen)).toEqual([assigned, assigned]);
  });

  it("a sync that fails inside the group commit publishes nothing, and the others' events still come", async () => {
    const { t, reader } = await fileFarm();
    const jobId = await submit(t, framesJob(4));
    const [good, stale] = [await SimulatedWorker.create(t, LINUX_WORKER("a")), await SimulatedWorker.create(t, LINUX_WORKER("b"))];
    const seen: Array<Promise<string[]>> = [];
    t.farm.events.subscribe("jobs", () => seen.push(statusesSeenBy(reader, jobId)));
    const [goodCaller, staleCaller] = [await good!.identity, await stale!.identity];
    const sync = (w: SimulatedWorker, caller: WorkerIdentity, leaseEpoch: number) => syncBatcher(t.farm).sync(caller, { workerId: w.workerId, leaseEpoch, sessions: [], actions: [], updates: [] });
    const [ok, refused] = await Promise.allSettled([sync(good!, goodCaller, good!.leaseEpoch), sync(stale!, staleCaller, stale!.leaseEpoch + 7)]);
    expect(ok.status).toBe("fulfilled");
    expect(refused.status).toBe("rejected");
    expect(seen).toHaveLength(1);
    expect((await seen[0]!).some((s) => s.startsWith("ASSIGNED:"))).toBe(true);
  });
});
