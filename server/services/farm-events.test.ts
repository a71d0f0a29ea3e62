/**
 * Farm events reach live listeners only once their change is committed. The listener here reads
 * through a second connection to the same file, which (WAL) sees committed data only, as another
 * server replica would: an event delivered before the commit would show it the old state.
 */
import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { openStore } from "../db/connection";
import { SYSTEM_ACTOR } from "./audit";
import type { WorkerIdentity } from "./authenticate-worker";
import { cancelTasks } from "./cancel-tasks";
import { createFarm } from "../context/farm";
import { framesJob, LINUX_WORKER, SimulatedWorker, submit, type TestFarm } from "./farm-test-support";
import { authenticatePool, createPool } from "./pools";
import { syncBatcher } from "./sync-batcher";

/** A farm on a database file, and a read-only connection of its own to that file. */
async function fileFarm(): Promise<{ t: TestFarm; reader: Database.Database }> {
  const dir = mkdtempSync(join(tmpdir(), "loom-events-"));
  const file = join(dir, "loom.db");
  const store = openStore(file);
  const reader = new Database(file, { readonly: true });
  onTestFinished(async () => {
    reader.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const clock = { now: 1_700_000_000_000 };
  const farm = createFarm(store, { now: () => clock.now });
  const { token } = await createPool(farm, { name: "default" }, SYSTEM_ACTOR);
  const pool = (await authenticatePool(farm, token))!;
  return { t: { farm, clock, pool, token }, reader };
}

function statusesSeenBy(reader: Database.Database, jobId: string): string[] {
  return reader
    .prepare<[string], { status: string; n: number }>("SELECT status, COUNT(*) AS n FROM tasks WHERE job_id = ? GROUP BY status ORDER BY status")
    .all(jobId)
    .map((r) => `${r.status}:${r.n}`);
}

describe("farm events after commit", () => {
  it("a wrangler's cancel: the jobs event comes once the canceled tasks are committed", async () => {
    const { t, reader } = await fileFarm();
    const jobId = await submit(t, framesJob(4));
    const seen: Array<{ jobs: readonly string[]; statuses: string[]; jobStatus: string | undefined }> = [];
    t.farm.events.subscribe("jobs", (jobs) =>
      seen.push({ jobs, statuses: statusesSeenBy(reader, jobId), jobStatus: reader.prepare<[string], string>("SELECT status FROM jobs WHERE id = ?").pluck().get(jobId) }),
    );
    await cancelTasks(t.farm, { jobId }, SYSTEM_ACTOR);
    expect(seen).toEqual([{ jobs: [jobId], statuses: ["CANCELED:4"], jobStatus: "CANCELED" }]);
  });

  it("syncs committed together (group commit): each sync's jobs event comes after the shared commit, with its assignments readable", async () => {
    const { t, reader } = await fileFarm();
    const jobId = await submit(t, framesJob(4));
    const workers = [await SimulatedWorker.create(t, LINUX_WORKER("a")), await SimulatedWorker.create(t, LINUX_WORKER("b"))];
    const callers = [await workers[0]!.identity, await workers[1]!.identity];
    const seen: string[][] = [];
    t.farm.events.subscribe("jobs", (jobs) => {
      expect(jobs).toEqual([jobId]);
      seen.push(statusesSeenBy(reader, jobId));
    });
    // Both in the same turn of the event loop: one transaction, a savepoint each.
    const replies = await Promise.all(workers.map((w, i) => syncBatcher(t.farm).sync(callers[i]!, { workerId: w.workerId, leaseEpoch: w.leaseEpoch, sessions: [], actions: [], updates: [] })));
    expect(replies.every((r) => r.assignments.length > 0)).toBe(true);
    const assigned = statusesSeenBy(reader, jobId);
    expect(assigned.some((s) => s.startsWith("ASSIGNED:"))).toBe(true);
    // Each event saw the state after both syncs: nothing was delivered between the savepoints.
    expect(seen).toEqual([assigned, assigned]);
  });

  it("a sync that fails inside the group commit publishes nothing, and the others' events still come", async () => {
    const { t, reader } = await fileFarm();
    const jobId = await submit(t, framesJob(4));
    const [good, stale] = [await SimulatedWorker.create(t, LINUX_WORKER("a")), await SimulatedWorker.create(t, LINUX_WORKER("b"))];
    const seen: string[][] = [];
    t.farm.events.subscribe("jobs", () => seen.push(statusesSeenBy(reader, jobId)));
    const [goodCaller, staleCaller] = [await good!.identity, await stale!.identity];
    const sync = (w: SimulatedWorker, caller: WorkerIdentity, leaseEpoch: number) => syncBatcher(t.farm).sync(caller, { workerId: w.workerId, leaseEpoch, sessions: [], actions: [], updates: [] });
    const [ok, refused] = await Promise.allSettled([sync(good!, goodCaller, good!.leaseEpoch), sync(stale!, staleCaller, stale!.leaseEpoch + 7)]);
    expect(ok.status).toBe("fulfilled");
    expect(refused.status).toBe("rejected");
    expect(seen).toHaveLength(1);
    expect(seen[0]!.some((s) => s.startsWith("ASSIGNED:"))).toBe(true);
  });
});
