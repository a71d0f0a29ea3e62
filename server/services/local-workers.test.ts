/**
 * Releasing `loom serve`'s own workers after a hard stop: the rows still holding the instance
 * ids the previous start recorded are declared lost at once (tasks back to the queue, reports
 * under the old lease refused, the name free for the new agent); anything else is left alone.
 */
import { describe, expect, it } from "vitest";
import { registerWorker } from "./register-worker";
import { releaseLocalWorkers } from "./local-workers";
import { rawOf } from "../store/store-test-support";
import { LINUX_WORKER, SimulatedWorker, submit, testFarm, type TestFarm } from "./farm-test-support";

const LONG = "specificationVersion: jobtemplate-2023-09\nname: J\nsteps:\n- name: S\n  script:\n    actions:\n      onRun: {command: sleep, args: ['100']}\n";
const OLD = "3b1f0c9e-0d4e-4f7e-9a51-6f0a2f7d9c11";
const NEW = "8a77a6d2-5b7c-4c1e-8a57-0f3f3c1f2b90";

async function workerRow(t: TestFarm, name: string) {
  return rawOf(t.farm.store).get<{ status: string; lease_epoch: number }>("SELECT status, lease_epoch FROM workers WHERE name = ?", name);
}
async function taskStatus(t: TestFarm, jobId: string) {
  return rawOf(t.farm.store).get<{ status: string; interruption_count: number }>("SELECT status, interruption_count FROM tasks WHERE job_id = ?", jobId);
}

describe("releaseLocalWorkers", () => {
  it("declares lost a worker still holding the recorded instance id: its task is back in the queue and its name is free at once", async () => {
    const t = await testFarm();
    const jobId = await submit(t, LONG);
    const old = await SimulatedWorker.create(t, { ...LINUX_WORKER("local-1"), instanceId: OLD }, () => "hold");
    await old.sync();
    await old.sync();
    expect((await taskStatus(t, jobId))?.status).toBe("RUNNING");
    // Without the release a new agent is refused for the worker timeout.
    await expect(registerWorker(t.farm, t.pool, { ...LINUX_WORKER("local-1"), instanceId: NEW })).rejects.toThrow(/a worker named 'local-1' is connected/);

    expect(await releaseLocalWorkers(t.farm, t.pool.id, [{ name: "local-1", instanceId: OLD }])).toEqual(["local-1"]);
    expect(await workerRow(t, "local-1")).toEqual({ status: "NOT_RESPONDING", lease_epoch: 2 });
    expect(await taskStatus(t, jobId)).toEqual({ status: "READY", interruption_count: 1 });
    const audit = await rawOf(t.farm.store).all("SELECT action, detail FROM audit_log WHERE action = 'worker.release'");
    expect(audit).toEqual([{ action: "worker.release", detail: "local-1: its agent ended with the previous loom serve" }]);

    const fresh = await SimulatedWorker.create(t, { ...LINUX_WORKER("local-1"), instanceId: NEW });
    expect(fresh.workerId).toBe(old.workerId);
    await fresh.sync();
    expect((await taskStatus(t, jobId))?.status).toMatch(/ASSIGNED|RUNNING|SUCCEEDED/);
  });

  it("leaves alone a worker another agent enrolled since, one elsewhere with the same name, and one that stopped cleanly", async () => {
    const t = await testFarm();
    await SimulatedWorker.create(t, { ...LINUX_WORKER("local-1"), instanceId: NEW });
    await SimulatedWorker.create(t, { ...LINUX_WORKER("local-2") });
    const stopped = await SimulatedWorker.create(t, { ...LINUX_WORKER("local-3"), instanceId: OLD });
    await rawOf(t.farm.store).run("UPDATE workers SET status = 'STOPPED' WHERE id = ?", stopped.workerId);
    const released = await releaseLocalWorkers(t.farm, t.pool.id, [
      { name: "local-1", instanceId: OLD },
      { name: "local-2", instanceId: OLD },
      { name: "local-3", instanceId: OLD },
    ]);
    expect(released).toEqual([]);
    expect(await Promise.all(["local-1", "local-2", "local-3"].map(async (name) => (await workerRow(t, name))?.status))).toEqual(["STARTED", "STARTED", "STOPPED"]);
  });
});
