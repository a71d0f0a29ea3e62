/**
 * The worker sweeps: a worker holding assigned work it never starts loses it (and is told to
 * cancel it), a long environment setup is not mistaken for that, and a worker not seen for the
 * retention period is removed from the list with its credential revoked.
 */
import pg from "pg";
import { describe, expect, it, onTestFinished } from "vitest";
import { listWorkers } from "../queries/workers";
import { removeWorker } from "./drain-worker";
import { SYSTEM_ACTOR } from "./audit";
import type { SyncRequest } from "../../lib/farm/protocol";
import { openAsyncStore } from "../store/engine/open-store";
import { testDatabaseTarget, testEngine } from "../store/engines-test-support";
import { NotLeaderError, PostgresLeadership } from "../store/leader";
import { rawOf } from "../store/store-test-support";
import { LINUX_WORKER, SimulatedWorker, submit, testFarm, type TestFarm } from "./farm-test-support";
import { sweepWorkers } from "./sweep-workers";
import { syncWorker } from "./sync-worker";

const ONE_TASK = "specificationVersion: jobtemplate-2023-09\nname: J\nsteps:\n- name: S\n  script:\n    actions:\n      onRun: {command: echo}\n";
const WITH_ENV = `specificationVersion: jobtemplate-2023-09
name: J
jobEnvironments:
- name: Venv
  script:
    actions:
      onEnter: {command: setup}
steps:
- name: S
  script:
    actions:
      onRun: {command: echo}
`;

async function task(t: TestFarm, jobId: string) {
  return (await rawOf(t.farm.store).get<{ status: string; interruption_count: number }>("SELECT status, interruption_count FROM tasks WHERE job_id = ?", jobId))!;
}

describe("worker sweeps", () => {
  it("takes back assigned tasks a syncing worker never starts, and tells it to cancel them", async () => {
    const t = await testFarm({ assignedTimeoutSeconds: 60 });
    const jobId = await submit(t, ONE_TASK);
    const hoarder = await SimulatedWorker.create(t, LINUX_WORKER("hoarder"));
    const first = await hoarder.sync({ runActions: false });
    const actionId = first.assignments[0]!.actions[0]!.actionId;
    expect((await task(t, jobId)).status).toBe("ASSIGNED");
    t.clock.now += 30_000;
    await hoarder.sync({ runActions: false });
    expect((await sweepWorkers(t.farm)).reclaimed).toBe(0);
    t.clock.now += 31_000;
    await hoarder.sync({ runActions: false });
    expect((await sweepWorkers(t.farm)).reclaimed).toBe(1);
    expect(await task(t, jobId)).toEqual({ status: "READY", interruption_count: 1 });
    expect((await hoarder.sync({ runActions: false })).cancel).toContain(actionId);
    // Another worker gets the task.
    const other = await SimulatedWorker.create(t, LINUX_WORKER("other"));
    await other.runUntilIdle();
    expect((await task(t, jobId)).status).toBe("SUCCEEDED");
  });

  it("leaves alone a Session whose environment takes long to enter", async () => {
    const t = await testFarm({ assignedTimeoutSeconds: 60 });
    const jobId = await submit(t, WITH_ENV);
    const worker = await SimulatedWorker.create(t, LINUX_WORKER("slow-env"));
    const [assignment] = (await worker.sync({ runActions: false })).assignments;
    const [enter, run] = assignment!.actions;
    expect([enter!.kind, run!.kind]).toEqual(["ENV_ENTER", "TASK_RUN"]);
    // The environment starts entering and takes ten minutes; the task waits behind it.
    const base = { workerId: worker.workerId, leaseEpoch: worker.leaseEpoch, sessions: [assignment!.sessionId], actions: [enter!.actionId, run!.actionId] };
    const identity = await worker.identity;
    const sync = (request: SyncRequest) => t.farm.store.transaction((tx) => syncWorker(t.farm, tx, identity, request));
    await sync({ ...base, updates: [{ actionId: enter!.actionId, status: "RUNNING", startedAt: t.clock.now }] });
    for (let i = 0; i < 20; i++) {
      t.clock.now += 30_000;
      await sync({ ...base, updates: [] });
      expect((await sweepWorkers(t.farm)).reclaimed).toBe(0);
    }
    expect(await task(t, jobId)).toEqual({ status: "ASSIGNED", interruption_count: 0 });
  });

  it("removes a worker not seen for the retention period: not listed, credential revoked, audited", async () => {
    const t = await testFarm({ workerRetentionHours: 1 });
    const gone = await SimulatedWorker.create(t, LINUX_WORKER("gone"));
    await SimulatedWorker.create(t, LINUX_WORKER("alive"));
    t.clock.now += 80_000;
    expect((await sweepWorkers(t.farm)).lost.length).toBe(2);
    expect((await listWorkers(t.farm)).map((w) => w.name).sort()).toEqual(["alive", "gone"]);
    t.clock.now += 3_600_000;
    expect((await sweepWorkers(t.farm)).removed).toEqual(expect.arrayContaining([gone.workerId]));
    expect(await listWorkers(t.farm)).toEqual([]);
    const raw = rawOf(t.farm.store);
    const row = (await raw.get<{ removed_at: number | null; credential_hash: string | null }>("SELECT removed_at, credential_hash FROM workers WHERE id = ?", gone.workerId))!;
    expect(row).toEqual({ removed_at: t.clock.now, credential_hash: null });
    const audited = (await raw.get<{ n: number }>("SELECT COUNT(*) AS n FROM audit_log WHERE action = 'worker.remove' AND target_id = ?", gone.workerId))!;
    expect(audited.n).toBe(1);
  });

  it("an admin's removal puts the worker's running task back in the queue", async () => {
    const t = await testFarm();
    const jobId = await submit(t, ONE_TASK);
    const worker = await SimulatedWorker.create(t, LINUX_WORKER("removed"), () => "hold");
    await worker.sync();
    await worker.sync(); // reports the start
    expect((await task(t, jobId)).status).toBe("RUNNING");
    await removeWorker(t.farm, worker.workerId, SYSTEM_ACTOR);
    expect(await task(t, jobId)).toEqual({ status: "READY", interruption_count: 1 });
    expect(await listWorkers(t.farm)).toEqual([]);
  });
});

describe.skipIf(testEngine() !== "postgres")("the sweeps are leader work, fenced by the leader's epoch (PostgreSQL)", () => {
  async function until(what: string, done: () => boolean): Promise<void> {
    for (const began = Date.now(); !done(); await new Promise((resolve) => setTimeout(resolve, 20))) {
      if (Date.now() - began > 10_000) throw new Error(`timed out waiting for ${what}`);
    }
  }

  it("a replica that lost the lead without knowing it changes nothing; it lets its session go and the next leader's sweep does the work", async () => {
    const url = await testDatabaseTarget();
    const store = await openAsyncStore(url, { poolSize: 4 });
    onTestFinished(() => store.close());
    const t = await testFarm({ workerTimeoutSeconds: 60 }, { store });
    const jobId = await submit(t, ONE_TASK);
    const silent = await SimulatedWorker.create(t, LINUX_WORKER("silent"));
    await silent.sync({ runActions: false });
    expect((await task(t, jobId)).status).toBe("ASSIGNED");
    t.clock.now += 120_000;

    const replica = async () => {
      const leadership = new PostgresLeadership({ connection: url, intervalMs: 50, log: () => undefined });
      await leadership.start();
      onTestFinished(() => leadership.stop());
      return leadership;
    };
    const a = await replica();
    const b = await replica();
    expect([a.isLeader, b.isLeader]).toEqual([true, false]);

    // The farm's epoch moves on while A still believes it leads (a takeover it has not heard of).
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    onTestFinished(() => admin.end());
    const moved = await admin.query<{ value: string }>("UPDATE server_state SET value = CAST(CAST(value AS BIGINT) + 1 AS TEXT) WHERE key = 'leader_epoch' RETURNING value");
    await expect(sweepWorkers(t.farm, (tx) => a.fence(tx))).rejects.toBeInstanceOf(NotLeaderError);
    expect((await task(t, jobId)).status).toBe("ASSIGNED");
    expect(a.isLeader).toBe(false);

    // A let its session go, so its lock went too: a replica takes the lead again within a few
    // intervals (B, or A asking again), with a new epoch, and its sweep runs.
    await until("a replica to lead again", () => a.isLeader || b.isLeader);
    const leader = a.isLeader ? a : b;
    expect(leader.epoch).toBeGreaterThan(Number(moved.rows[0]!.value));
    expect((await sweepWorkers(t.farm, (tx) => leader.fence(tx))).lost).toEqual([silent.workerId]);
    expect(await task(t, jobId)).toEqual({ status: "READY", interruption_count: 1 });
  });
});
