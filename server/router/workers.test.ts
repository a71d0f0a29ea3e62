/**
 * Pools and workers through createCaller against a real migrated SQLite: the lists an admin sees
 * (per-status counts, the current Session and task), and the live subscriptions following
 * registrations, drains, status changes a sync makes, and pools created.
 */
import { describe, expect, it } from "vitest";
import { LINUX_WORKER, SimulatedWorker, submit, testFarm } from "../services/farm-test-support";
import type { PoolView, WorkerView } from "../queries/workers";
import { appRouter } from "./index";
import { createCallerFactory } from "./trpc";
import { contextAs } from "../auth/test-principals";

const JOB = "specificationVersion: jobtemplate-2023-09\nname: Shot\nsteps:\n- name: Render\n  script:\n    actions:\n      onRun: {command: echo}\n";

async function caller() {
  const t = await testFarm();
  const factory = createCallerFactory(appRouter);
  const controller = new AbortController();
  const admin = await contextAs(t.farm, "admin");
  return { t, api: factory(admin), live: factory(admin, { signal: controller.signal }), stop: () => controller.abort() };
}

/** tracked() items arrive through createCaller as [id, data, symbol] tuples (STACK.md G10). */
async function nextData<T>(iterator: AsyncIterator<unknown>): Promise<T> {
  return ((await iterator.next()).value as unknown as [string, T])[1];
}

describe("workers", () => {
  it("lists each worker with its pool, status and the Session and task it runs", async () => {
    const { t, api } = await caller();
    const jobId = await submit(t, JOB);
    const busy = await SimulatedWorker.create(t, LINUX_WORKER("b-busy"), () => "hold");
    await busy.sync();
    await busy.sync(); // reports RUNNING
    await (await SimulatedWorker.create(t, LINUX_WORKER("a-idle"))).sync();
    const workers = await api.workers.list();
    expect(workers.map((w) => [w.name, w.poolName, w.status])).toEqual([
      ["a-idle", "default", "IDLE"],
      ["b-busy", "default", "RUNNING"],
    ]);
    expect(workers[0]).toMatchObject({ sessionId: null, jobId: null, taskId: null });
    expect(workers[1]).toMatchObject({ jobId, jobName: "Shot", stepName: "Render", taskIndex: 0, sessionId: expect.stringMatching(/./), taskId: expect.any(Number) });
    expect(workers[1]?.capabilities.amounts["amount.worker.vcpu"]).toBe(4);
  });

  it("counts a pool's workers per status, drained and disabled", async () => {
    const { t, api } = await caller();
    const a = await SimulatedWorker.create(t, LINUX_WORKER("a"));
    await a.sync();
    const b = await SimulatedWorker.create(t, LINUX_WORKER("b"));
    await api.workers.drain({ workerId: a.workerId, mode: "AFTER_TASK" });
    await api.workers.setDisabled({ workerId: b.workerId, disabled: true });
    await api.pools.create({ name: "gpu" });
    const pools = await api.pools.list();
    expect(pools.map((p) => [p.name, p.workerCount, p.workers.IDLE, p.workers.STARTED, p.drained, p.disabled])).toEqual([
      ["default", 2, 1, 1, 1, 1],
      ["gpu", 0, 0, 0, 0, 0],
    ]);
  });

  it("workers.onChange pushes the list on drain and when a sync changes a worker's status", async () => {
    const { t, live, stop } = await caller();
    await submit(t, JOB);
    const worker = await SimulatedWorker.create(t, LINUX_WORKER("w"), () => "hold");
    await worker.sync();
    const iterator = (await live.workers.onChange())[Symbol.asyncIterator]();
    const first = await nextData<WorkerView[]>(iterator);
    expect(first.map((w) => [w.status, w.drain])).toEqual([["RUNNING", null]]);

    let pending = nextData<WorkerView[]>(iterator);
    await live.workers.drain({ workerId: worker.workerId, mode: "AFTER_TASK" });
    expect((await pending).map((w) => [w.status, w.drain])).toEqual([["RUNNING", "AFTER_TASK"]]);

    const statusEvents: unknown[] = [];
    t.farm.events.subscribe("worker-status", () => statusEvents.push(1));
    pending = nextData<WorkerView[]>(iterator);
    worker.finish(worker.heldActions[0]!, { status: "SUCCEEDED", exitCode: 0 });
    await worker.runUntilIdle();
    const after = await pending;
    expect(statusEvents.length).toBeGreaterThan(0);
    expect(after.map((w) => [w.status, w.drain, w.taskId])).toEqual([["IDLE", "AFTER_TASK", null]]);
    stop();
    expect((await iterator.next()).done).toBe(true);
  });

  it("a sync that leaves the status as it was emits no worker-status event", async () => {
    const { t } = await caller();
    const worker = await SimulatedWorker.create(t, LINUX_WORKER("w"));
    await worker.sync(); // STARTED → IDLE
    let events = 0;
    t.farm.events.subscribe("worker-status", () => events++);
    await worker.sync();
    await worker.sync();
    expect(events).toBe(0);
  });

  it("pools.onChange pushes the list when a pool is created", async () => {
    const { live, stop } = await caller();
    const iterator = (await live.pools.onChange())[Symbol.asyncIterator]();
    expect((await nextData<PoolView[]>(iterator)).map((p) => p.name)).toEqual(["default"]);
    const pending = nextData<PoolView[]>(iterator);
    const created = await live.pools.create({ name: "gpu", description: "RTX nodes" });
    expect(created.token).toMatch(/^loom_/);
    const pools = await pending;
    expect(pools.map((p) => [p.name, p.description, p.enabled])).toEqual([
      ["default", "", true],
      ["gpu", "RTX nodes", true],
    ]);
    expect(JSON.stringify(pools)).not.toContain(created.token);
    stop();
  });
});
