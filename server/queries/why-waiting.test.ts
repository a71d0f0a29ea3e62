/**
 * "Why isn't this task running?" against a real migrated farm of the run's engine and in-process workers:
 * each reason appears when its situation holds, and not otherwise.
 */
import { describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "../services/audit";
import { refreshCompatibility } from "../services/compatibility";
import { drainWorker, setWorkerDisabled } from "../services/drain-worker";
import { framesJob, LINUX_WORKER, SimulatedWorker, submit, testFarm, type TestFarm } from "../services/farm-test-support";
import { rawOf } from "../store/store-test-support";
import { whyWaiting } from "./why-waiting";

async function taskOf(t: TestFarm, jobId: string, step: string, index: number): Promise<number> {
  return (await rawOf(t.farm.store).get<{ id: number }>("SELECT t.id FROM tasks t JOIN steps s ON s.id = t.step_id WHERE t.job_id = ? AND s.name = ? AND t.task_index = ?", jobId, step, index))!.id;
}

const kinds = async (t: TestFarm, taskId: number) => (await whyWaiting(t.farm, { taskId })).reasons.map((r) => r.kind);
const texts = async (t: TestFarm, taskId: number) => (await whyWaiting(t.farm, { taskId })).reasons.map((r) => r.text);

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
  it("names the dependency a pending task waits on, how far along it is, and that it will not run once it failed", async () => {
    const t = await testFarm();
    const jobId = await submit(t, framesJob(3, { encode: true }), { settings: { maxRetriesPerTask: 0 } });
    const encode = await taskOf(t, jobId, "Encode", 0);
    expect((await whyWaiting(t.farm, { taskId: encode })).status).toBe("PENDING");
    expect(await texts(t, encode)).toContain("Waiting on step Render: 0 of 3 succeeded.");
    expect(await kinds(t, await taskOf(t, jobId, "Render", 0))).not.toContain("dependencies");

    const worker = await SimulatedWorker.create(t, LINUX_WORKER("w1"), (action) => (action.parameters?.F?.value === "2" ? { status: "FAILED", exitCode: 3 } : { status: "SUCCEEDED", exitCode: 0 }));
    await worker.runUntilIdle();
    const reasons = await texts(t, encode);
    expect(reasons.filter((r) => r.startsWith("Will not run: step Render failed (1 task)"))).toHaveLength(1);
    expect(reasons.some((r) => r.startsWith("Waiting on"))).toBe(false);
    expect((await texts(t, await taskOf(t, jobId, "Render", 1)))[0]).toMatch(/^It failed \(1 failed attempt\)/);
  });

  it("says a suspended job is suspended, and says nothing of suspension for a ready one", async () => {
    const t = await testFarm();
    await SimulatedWorker.create(t, LINUX_WORKER("w1"));
    const held = await submit(t, framesJob(2), { settings: { initialState: "SUSPENDED" } });
    const ready = await submit(t, framesJob(2));
    expect(await texts(t, await taskOf(t, held, "Render", 0))).toEqual(["The job is suspended: Resume the job to run it."]);
    expect(await kinds(t, await taskOf(t, ready, "Render", 0))).not.toContain("suspended");
  });

  it("names the host requirement no enabled pool's worker meets, and is silent for a step the worker can run", async () => {
    const t = await testFarm();
    await SimulatedWorker.create(t, LINUX_WORKER("w1"));
    const windows = await submit(t, WINDOWS_ONLY);
    const linux = await submit(t, framesJob(1));
    await refreshCompatibility(t.farm);
    const answer = await whyWaiting(t.farm, { taskId: await taskOf(t, windows, "Comp", 0) });
    expect(answer.status).toBe("NOT_COMPATIBLE");
    expect(answer.reasons.map((r) => r.kind)).toEqual(["notCompatible"]);
    expect(answer.reasons[0]!.text).toContain("attr.worker.os.family");
    expect(answer.reasons[0]!.text).toContain("windows");
    expect(await kinds(t, await taskOf(t, linux, "Render", 0))).not.toContain("notCompatible");
  });

  it("counts the ready tasks ahead of it that the same workers can run: higher priority, earlier jobs, earlier tasks", async () => {
    const t = await testFarm();
    await SimulatedWorker.create(t, LINUX_WORKER("w1"));
    await submit(t, framesJob(4), { settings: { priority: 80 } });
    await submit(t, WINDOWS_ONLY, { settings: { priority: 90 } }); // ahead, but no worker that could run ours can run it
    await refreshCompatibility(t.farm);
    const mine = await submit(t, framesJob(3), { settings: { priority: 50 } });
    const later = await submit(t, framesJob(2), { settings: { priority: 50 } });
    expect((await texts(t, await taskOf(t, mine, "Render", 2))).find((r) => r.includes("ahead"))).toMatch(/^6 ready tasks are ahead/);
    expect((await texts(t, await taskOf(t, later, "Render", 0))).find((r) => r.includes("ahead"))).toMatch(/^7 ready tasks are ahead/);
  });

  it("says nothing is ahead for the first task of the best job", async () => {
    const t = await testFarm();
    await SimulatedWorker.create(t, LINUX_WORKER("w1"));
    const first = await submit(t, framesJob(2), { settings: { priority: 90 } });
    await submit(t, framesJob(2), { settings: { priority: 10 } });
    expect(await kinds(t, await taskOf(t, first, "Render", 0))).toEqual(["startsSoon"]);
  });

  it("says when no worker is registered, when every compatible worker is busy, draining or disabled, and when one is free", async () => {
    const t = await testFarm();
    const jobId = await submit(t, framesJob(3));
    const last = await taskOf(t, jobId, "Render", 2);
    expect(await kinds(t, last)).toEqual(["noWorkers"]);

    const busy = await SimulatedWorker.create(t, LINUX_WORKER("busy"), () => "hold");
    await busy.sync();
    expect(await texts(t, last)).toContain("No free worker: of 1 compatible worker, 1 busy.");

    const drained = await SimulatedWorker.create(t, LINUX_WORKER("drained"));
    await drainWorker(t.farm, drained.workerId, "AFTER_TASK", SYSTEM_ACTOR);
    const off = await SimulatedWorker.create(t, LINUX_WORKER("off"));
    await setWorkerDisabled(t.farm, off.workerId, true, SYSTEM_ACTOR);
    expect(await texts(t, last)).toContain("No free worker: of 3 compatible workers, 1 busy, 1 draining, 1 disabled (or in a disabled pool).");

    await SimulatedWorker.create(t, LINUX_WORKER("free"));
    expect(await kinds(t, last)).toContain("startsSoon");
    expect(await kinds(t, last)).not.toContain("noFreeWorker");
  });

  it("says where an assigned task is, and refuses a task that does not exist", async () => {
    const t = await testFarm();
    const jobId = await submit(t, framesJob(1));
    await (await SimulatedWorker.create(t, LINUX_WORKER("holder"), () => "hold")).sync();
    expect((await texts(t, await taskOf(t, jobId, "Render", 0)))[0]).toMatch(/^It is assigned to holder: /);
    await expect(whyWaiting(t.farm, { taskId: 999_999 })).rejects.toThrow(/no task 999999/);
    await expect(whyWaiting(t.farm, { taskId: -1 })).rejects.toThrow();
  });
});
