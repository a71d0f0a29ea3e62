/**
 * "Why isn't this task running?" against a real migrated SQLite farm and in-process workers:
 * each reason appears when its situation holds, and not otherwise.
 */
import { describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "../services/audit";
import { refreshCompatibility } from "../services/compatibility";
import { drainWorker, setWorkerDisabled } from "../services/drain-worker";
import { framesJob, LINUX_WORKER, SimulatedWorker, submit, testFarm, type TestFarm } from "../services/farm-test-support";
import { whyWaiting } from "./why-waiting";

function taskOf(t: TestFarm, jobId: string, step: string, index: number): number {
  return t.farm.store.sqlite
    .prepare<[string, string, number], { id: number }>("SELECT t.id FROM tasks t JOIN steps s ON s.id = t.step_id WHERE t.job_id = ? AND s.name = ? AND t.task_index = ?")
    .get(jobId, step, index)!.id;
}

const kinds = (t: TestFarm, taskId: number) => whyWaiting(t.farm, { taskId }).reasons.map((r) => r.kind);
const texts = (t: TestFarm, taskId: number) => whyWaiting(t.farm, { taskId }).reasons.map((r) => r.text);

const WINDOWS_ONLY = `specificationVersion: jobtemplate-2023-09
name: windows-only
steps:
- name: Comp
  hostRequirements:
    attributes:
    - {name: attr.worker.os.family, anyOf: [windows]}
  script:
    actions:
      onRun: {command: echo, args: [comp]}
`;

describe("whyWaiting", () => {
  it("names the dependency a pending task waits on, how far along it is, and that it will not run once it failed", () => {
    const t = testFarm();
    const jobId = submit(t, framesJob(3, { encode: true }), { settings: { maxRetriesPerTask: 0 } });
    const encode = taskOf(t, jobId, "Encode", 0);
    expect(whyWaiting(t.farm, { taskId: encode }).status).toBe("PENDING");
    expect(texts(t, encode)).toContain("Waiting on step Render: 0 of 3 succeeded.");
    expect(kinds(t, taskOf(t, jobId, "Render", 0))).not.toContain("dependencies");

    const worker = new SimulatedWorker(t, LINUX_WORKER("w1"), (action) => (action.parameters?.F?.value === "2" ? { status: "FAILED", exitCode: 3 } : { status: "SUCCEEDED", exitCode: 0 }));
    worker.runUntilIdle();
    const reasons = texts(t, encode);
    expect(reasons.filter((r) => r.startsWith("Will not run: step Render failed (1 task)"))).toHaveLength(1);
    expect(reasons.some((r) => r.startsWith("Waiting on"))).toBe(false);
    expect(texts(t, taskOf(t, jobId, "Render", 1))[0]).toMatch(/^It failed \(1 failed attempt\)/);
  });

  it("says a suspended job is suspended, and says nothing of suspension for a ready one", () => {
    const t = testFarm();
    new SimulatedWorker(t, LINUX_WORKER("w1"));
    const held = submit(t, framesJob(2), { settings: { initialState: "SUSPENDED" } });
    const ready = submit(t, framesJob(2));
    expect(texts(t, taskOf(t, held, "Render", 0))).toEqual(["The job is suspended: Resume the job to run it."]);
    expect(kinds(t, taskOf(t, ready, "Render", 0))).not.toContain("suspended");
  });

  it("names the host requirement no enabled pool's worker meets, and is silent for a step the worker can run", () => {
    const t = testFarm();
    new SimulatedWorker(t, LINUX_WORKER("w1"));
    const windows = submit(t, WINDOWS_ONLY);
    const linux = submit(t, framesJob(1));
    refreshCompatibility(t.farm);
    const answer = whyWaiting(t.farm, { taskId: taskOf(t, windows, "Comp", 0) });
    expect(answer.status).toBe("NOT_COMPATIBLE");
    expect(answer.reasons.map((r) => r.kind)).toEqual(["notCompatible"]);
    expect(answer.reasons[0]!.text).toContain("attr.worker.os.family");
    expect(answer.reasons[0]!.text).toContain("windows");
    expect(kinds(t, taskOf(t, linux, "Render", 0))).not.toContain("notCompatible");
  });

  it("counts the ready tasks ahead of it that the same workers can run: higher priority, earlier jobs, earlier tasks", () => {
    const t = testFarm();
    new SimulatedWorker(t, LINUX_WORKER("w1"));
    submit(t, framesJob(4), { settings: { priority: 80 } });
    submit(t, WINDOWS_ONLY, { settings: { priority: 90 } }); // ahead, but no worker that could run ours can run it
    refreshCompatibility(t.farm);
    const mine = submit(t, framesJob(3), { settings: { priority: 50 } });
    const later = submit(t, framesJob(2), { settings: { priority: 50 } });
    expect(texts(t, taskOf(t, mine, "Render", 2)).find((r) => r.includes("ahead"))).toMatch(/^6 ready tasks are ahead/);
    expect(texts(t, taskOf(t, later, "Render", 0)).find((r) => r.includes("ahead"))).toMatch(/^7 ready tasks are ahead/);
  });

  it("says nothing is ahead for the first task of the best job", () => {
    const t = testFarm();
    new SimulatedWorker(t, LINUX_WORKER("w1"));
    const first = submit(t, framesJob(2), { settings: { priority: 90 } });
    submit(t, framesJob(2), { settings: { priority: 10 } });
    expect(kinds(t, taskOf(t, first, "Render", 0))).toEqual(["startsSoon"]);
  });

  it("says when no worker is registered, when every compatible worker is busy, draining or disabled, and when one is free", () => {
    const t = testFarm();
    const jobId = submit(t, framesJob(3));
    const last = taskOf(t, jobId, "Render", 2);
    expect(kinds(t, last)).toEqual(["noWorkers"]);

    const busy = new SimulatedWorker(t, LINUX_WORKER("busy"), () => "hold");
    busy.sync();
    expect(texts(t, last)).toContain("No free worker: of 1 compatible worker, 1 busy.");

    const drained = new SimulatedWorker(t, LINUX_WORKER("drained"));
    drainWorker(t.farm, drained.workerId, "AFTER_TASK", SYSTEM_ACTOR);
    const off = new SimulatedWorker(t, LINUX_WORKER("off"));
    setWorkerDisabled(t.farm, off.workerId, true, SYSTEM_ACTOR);
    expect(texts(t, last)).toContain("No free worker: of 3 compatible workers, 1 busy, 1 draining, 1 disabled (or in a disabled pool).");

    new SimulatedWorker(t, LINUX_WORKER("free"));
    expect(kinds(t, last)).toContain("startsSoon");
    expect(kinds(t, last)).not.toContain("noFreeWorker");
  });

  it("says where an assigned task is, and refuses a task that does not exist", () => {
    const t = testFarm();
    const jobId = submit(t, framesJob(1));
    new SimulatedWorker(t, LINUX_WORKER("holder"), () => "hold").sync();
    expect(texts(t, taskOf(t, jobId, "Render", 0))[0]).toMatch(/^It is assigned to holder: /);
    expect(() => whyWaiting(t.farm, { taskId: 999_999 })).toThrow(/no task 999999/);
    expect(() => whyWaiting(t.farm, { taskId: -1 })).toThrow();
  });
});
