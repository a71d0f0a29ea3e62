/**
 * Releasing `loom serve`'s own workers after a hard stop: the rows still holding the instance
 * ids the previous start recorded are declared lost at once (tasks back to the queue, reports
 * under the old lease refused, the name free for the new agent); anything else is left alone.
 */
import { describe, expect, it } from "vitest";
import { registerWorker } from "./register-worker";
import { releaseLocalWorkers } from "./local-workers";
import { LINUX_WORKER, SimulatedWorker, submit, testFarm } from "./farm-test-support";

const LONG = "specificationVersion: jobtemplate-2023-09\nname: J\nsteps:\n- name: S\n  script:\n    actions:\n      onRun: {command: sleep, args: ['100']}\n";
const OLD = "3b1f0c9e-0d4e-4f7e-9a51-6f0a2f7d9c11";
const NEW = "8a77a6d2-5b7c-4c1e-8a57-0f3f3c1f2b90";

function workerRow(t: ReturnType<typeof testFarm>, name: string) {
  return t.farm.store.sqlite.prepare<[string], { status: string; lease_epoch: number }>("SELECT status, lease_epoch FROM workers WHERE name = ?").get(name);
}
function taskStatus(t: ReturnType<typeof testFarm>, jobId: string) {
  return t.farm.store.sqlite.prepare<[string], { status: string; interruption_count: number }>("SELECT status, interruption_count FROM tasks WHERE job_id = ?").get(jobId);
}

describe("releaseLocalWorkers", () => {
  it("declares lost a worker still holding the recorded instance id: its task is back in the queue and its name is free at once", () => {
    const t = testFarm();
    const jobId = submit(t, LONG);
    const old = new SimulatedWorker(t, { ...LINUX_WORKER("local-1"), instanceId: OLD }, () => "hold");
    old.sync();
    old.sync();
    expect(taskStatus(t, jobId)?.status).toBe("RUNNING");
    // Without the release a new agent is refused for the worker timeout.
    expect(() => registerWorker(t.farm, t.pool, { ...LINUX_WORKER("local-1"), instanceId: NEW })).toThrow(/a worker named 'local-1' is connected/);

    expect(releaseLocalWorkers(t.farm, t.pool.id, [{ name: "local-1", instanceId: OLD }])).toEqual(["local-1"]);
    expect(workerRow(t, "local-1")).toEqual({ status: "NOT_RESPONDING", lease_epoch: 2 });
    expect(taskStatus(t, jobId)).toEqual({ status: "READY", interruption_count: 1 });
    const audit = t.farm.store.sqlite.prepare("SELECT action, detail FROM audit_log WHERE action = 'worker.release'").all();
    expect(audit).toEqual([{ action: "worker.release", detail: "local-1: its agent ended with the previous loom serve" }]);

    const fresh = new SimulatedWorker(t, { ...LINUX_WORKER("local-1"), instanceId: NEW });
    expect(fresh.workerId).toBe(old.workerId);
    fresh.sync();
    expect(taskStatus(t, jobId)?.status).toMatch(/ASSIGNED|RUNNING|SUCCEEDED/);
  });

  it("leaves alone a worker another agent enrolled since, one elsewhere with the same name, and one that stopped cleanly", () => {
    const t = testFarm();
    new SimulatedWorker(t, { ...LINUX_WORKER("local-1"), instanceId: NEW });
    new SimulatedWorker(t, { ...LINUX_WORKER("local-2") });
    const stopped = new SimulatedWorker(t, { ...LINUX_WORKER("local-3"), instanceId: OLD });
    t.farm.store.sqlite.prepare("UPDATE workers SET status = 'STOPPED' WHERE id = ?").run(stopped.workerId);
    const released = releaseLocalWorkers(t.farm, t.pool.id, [
      { name: "local-1", instanceId: OLD },
      { name: "local-2", instanceId: OLD },
      { name: "local-3", instanceId: OLD },
    ]);
    expect(released).toEqual([]);
    expect(["local-1", "local-2", "local-3"].map((name) => workerRow(t, name)?.status)).toEqual(["STARTED", "STARTED", "STOPPED"]);
  });
});
