/**
 * What a waiting task shows while its Session sets up an environment (issue 11): an ASSIGNED
 * task behind a running environment enter says which environment and since when, and the live
 * job page hears of the enter when it starts, not only when it ends. A failed task shows its
 * exit code and how long it ran.
 */
import { describe, expect, it } from "vitest";
import type { SyncRequest } from "../../lib/farm/protocol";
import { environmentNameOf } from "../../lib/openjd";
import { LINUX_WORKER, SimulatedWorker, submit, testFarm, type TestFarm } from "../services/farm-test-support";
import { syncWorker } from "../services/sync-worker";
import { rawOf } from "../store/store-test-support";
import { getJob, listTasks } from "./jobs";

const WITH_ENV = `specificationVersion: jobtemplate-2023-09
name: J
jobEnvironments:
- name: Farm venv
  script:
    actions:
      onEnter: {command: setup}
steps:
- name: "Render: beauty"
  stepEnvironments:
  - name: Licence
    script:
      actions:
        onEnter: {command: licence}
  script:
    actions:
      onRun: {command: echo}
`;

/** One report of the worker's, as its sync sends it (in a unit of work of its own). */
async function report(t: TestFarm, worker: SimulatedWorker, request: SyncRequest) {
  const identity = await worker.identity;
  return t.farm.store.transaction((tx) => syncWorker(t.farm, tx, identity, request));
}

describe("a task waiting on an environment", () => {
  it("shows the environment its Session enters, from when it starts until the task runs", async () => {
    const t = await testFarm();
    const jobId = await submit(t, WITH_ENV);
    const stepId = (await getJob(t.farm, jobId)).steps[0]!.id;
    const jobEvents: string[][] = [];
    t.farm.events.subscribe("jobs", (ids) => jobEvents.push([...ids]));
    const worker = await SimulatedWorker.create(t, LINUX_WORKER("w"));
    const [assignment] = (await worker.sync({ runActions: false })).assignments;
    const [enterFarm, enterLicence, run] = assignment!.actions;
    expect([enterFarm!.kind, enterLicence!.kind, run!.kind]).toEqual(["ENV_ENTER", "ENV_ENTER", "TASK_RUN"]);
    const base = { workerId: worker.workerId, leaseEpoch: worker.leaseEpoch, sessions: [assignment!.sessionId], actions: [enterFarm!.actionId, enterLicence!.actionId, run!.actionId] };
    const task = async () => (await listTasks(t.farm, { stepId })).tasks[0]!;

    // Assigned, nothing started yet: nothing to say.
    expect(await task()).toMatchObject({ status: "ASSIGNED", activity: null });

    const started = t.clock.now;
    jobEvents.length = 0;
    await report(t, worker, { ...base, updates: [{ actionId: enterFarm!.actionId, status: "RUNNING", startedAt: started }] });
    expect(await task()).toMatchObject({ status: "ASSIGNED", activity: { kind: "ENV_ENTER", environment: "Farm venv", startedAt: started } });
    expect(jobEvents.flat()).toContain(jobId);

    t.clock.now += 40_000;
    await report(t, worker, {
      ...base,
      updates: [
        { actionId: enterFarm!.actionId, status: "SUCCEEDED", exitCode: 0, endedAt: t.clock.now },
        { actionId: enterLicence!.actionId, status: "RUNNING", startedAt: t.clock.now },
      ],
    });
    // The step's environment, named whole although its step's name has a colon.
    expect((await task()).activity).toEqual({ kind: "ENV_ENTER", environment: "Licence", startedAt: t.clock.now });

    await report(t, worker, {
      ...base,
      updates: [
        { actionId: enterLicence!.actionId, status: "SUCCEEDED", exitCode: 0, endedAt: t.clock.now },
        { actionId: run!.actionId, status: "RUNNING", startedAt: t.clock.now },
      ],
    });
    expect(await task()).toMatchObject({ status: "RUNNING", activity: null });
  });
});

describe("environmentNameOf", () => {
  it.each([
    ["job:Farm venv", null, "Farm venv"],
    ["template:0:Conda: py3.11", null, "Conda: py3.11"],
    ["step:Render: beauty:Licence", "Render: beauty", "Licence"],
    ["step:Render:Licence", null, "Licence"],
  ])("%s (step %s) is %s", (id, step, name) => {
    expect(environmentNameOf(id, step)).toBe(name);
  });
});

describe("a failed task", () => {
  const FAILS = "specificationVersion: jobtemplate-2023-09\nname: J\nsteps:\n- name: S\n  script:\n    actions:\n      onRun: {command: 'false'}\n";

  it("shows its last attempt's exit code and its duration, also when its start came folded into its end", async () => {
    const t = await testFarm();
    const jobId = await submit(t, FAILS);
    await rawOf(t.farm.store).run("UPDATE jobs SET max_retries_per_task = 0 WHERE id = ?", jobId);
    const stepId = (await getJob(t.farm, jobId)).steps[0]!.id;
    const worker = await SimulatedWorker.create(t, LINUX_WORKER("w"));
    const [assignment] = (await worker.sync({ runActions: false })).assignments;
    const [run] = assignment!.actions;
    const startedAt = t.clock.now;
    t.clock.now += 2_500;
    // One report, start and end together (a task shorter than the agent's start window).
    await report(t, worker, {
      workerId: worker.workerId,
      leaseEpoch: worker.leaseEpoch,
      sessions: [assignment!.sessionId],
      actions: [run!.actionId],
      updates: [{ actionId: run!.actionId, status: "FAILED", exitCode: 3, startedAt, endedAt: t.clock.now }],
    });
    const task = (await listTasks(t.farm, { stepId })).tasks[0]!;
    expect(task).toMatchObject({ status: "FAILED", exitCode: 3, startedAt, activity: null });
    expect(task.endedAt! - task.startedAt!).toBe(2_500);
  });
});
