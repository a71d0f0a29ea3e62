/**
 * One task's task-to-task dependencies as the job page reads them (jobs.taskDependencies): pages
 * of what it waits for and what waits for it, and what blocks it — an all-of upstream task that
 * failed, or every member of an any-of group.
 */
import { describe, expect, it } from "vitest";
import type { AssignedAction } from "../../lib/farm/protocol";
import { LINUX_WORKER, SimulatedWorker, submit, testFarm, type Outcome, type TestFarm } from "../services/farm-test-support";
import { rawOf } from "../store/store-test-support";
import { taskDependencies } from "./task-dependencies";
import { whyWaiting } from "./why-waiting";

/** Export frames 1–`frames`; MergeAll waits for all of frames 2–`frames` (`mode` "anyOf": any of them), MergeAny for any of frames 2–3. */
const job = (frames: number, mode: "allOf" | "anyOf" = "allOf") => `specificationVersion: jobtemplate-2023-09
extensions: [TASK_DEPENDENCIES]
name: merge
steps:
- name: Export
  parameterSpace:
    taskParameterDefinitions: [{name: Frame, type: INT, range: '1-${frames}'}]
  script:
    actions:
      onRun: {command: echo}
- name: MergeAll
  dependencies:
  - dependsOn: Export
    dependsOnSubspace: {${mode}: [{name: Frame, range: '2-${frames}'}]}
  script:
    actions:
      onRun: {command: echo}
- name: MergeAny
  dependencies:
  - dependsOn: Export
    dependsOnSubspace: {anyOf: [{name: Frame, range: '2-3'}]}
  script:
    actions:
      onRun: {command: echo}
`;

async function taskId(t: TestFarm, jobId: string, step: number, index: number): Promise<number> {
  return (await rawOf(t.farm.store).get<{ id: number }>("SELECT id FROM tasks WHERE step_id = ? AND task_index = ?", `${jobId}:${step}`, index))!.id;
}

const failing =
  (frames: readonly string[]) =>
  (action: AssignedAction): Outcome =>
    action.stepName === "Export" && frames.includes(action.parameters?.Frame?.value ?? "") ? { status: "FAILED", exitCode: 1 } : { status: "SUCCEEDED", exitCode: 0 };

describe("a task's dependencies, page by page", () => {
  it("what it waits for and what waits for it, in step and task order, with totals", async () => {
    const t = await testFarm();
    const jobId = await submit(t, job(120));
    const merge = await taskId(t, jobId, 1, 0);
    const first = await taskDependencies(t.farm, { taskId: merge, limit: 50 });
    expect(first).toMatchObject({ status: "PENDING", waiting: 119, upstream: { total: 119 }, downstream: { total: 0 }, blockedBy: { total: 0 }, note: null });
    expect(first.upstream.tasks.map((u) => u.parameters.Frame!.value)).toEqual(Array.from({ length: 50 }, (_, i) => String(i + 2)));
    expect(first.upstream.tasks[0]).toMatchObject({ step: "Export", stepIndex: 0, taskIndex: 1, status: "READY", group: null, met: false });
    const last = await taskDependencies(t.farm, { taskId: merge, limit: 50, upstreamOffset: 100 });
    expect(last.upstream.tasks.map((u) => u.parameters.Frame!.value)).toEqual(Array.from({ length: 19 }, (_, i) => String(i + 102)));
    // Frame 3 is waited for by both merges.
    const frame3 = await taskDependencies(t.farm, { taskId: await taskId(t, jobId, 0, 2) });
    expect(frame3.downstream).toMatchObject({
      total: 2,
      tasks: [
        { step: "MergeAll", taskIndex: 0, group: null },
        { step: "MergeAny", taskIndex: 0, group: expect.any(Number) },
      ],
    });
    expect(frame3.upstream.total).toBe(0);
  });
});

describe("what blocks a task", () => {
  it("an any-of group blocks only once every member ended without success", async () => {
    const t = await testFarm();
    const jobId = await submit(t, job(5, "anyOf"), { settings: { maxRetriesPerTask: 0 } });
    const mergeAny = await taskId(t, jobId, 2, 0);
    await (await SimulatedWorker.create(t, LINUX_WORKER("w1"), failing(["2"]))).runUntilIdle();
    // Frame 2 failed, frame 3 succeeded: the group is met.
    expect(await taskDependencies(t.farm, { taskId: mergeAny })).toMatchObject({ status: "SUCCEEDED", waiting: 0, note: null });

    const t2 = await testFarm();
    const jobId2 = await submit(t2, job(5, "anyOf"), { settings: { maxRetriesPerTask: 0 } });
    await (await SimulatedWorker.create(t2, LINUX_WORKER("w2"), failing(["2", "3"]))).runUntilIdle();
    const blocked = await taskDependencies(t2.farm, { taskId: await taskId(t2, jobId2, 2, 0) });
    expect(blocked).toMatchObject({ status: "PENDING", waiting: 1, blockedBy: { total: 2 }, note: "blocked: Export Frame=2 FAILED, Export Frame=3 FAILED" });
    const groups = blocked.upstream.tasks.map((u) => u.group);
    expect([groups.length, new Set(groups).size, groups[0]]).toEqual([2, 1, expect.any(Number)]);
    // MergeAll (any of frames 2–5 here): 4 and 5 succeeded.
    expect(await taskDependencies(t2.farm, { taskId: await taskId(t2, jobId2, 1, 0) })).toMatchObject({ status: "SUCCEEDED", note: null });
    expect((await whyWaiting(t2.farm, { taskId: await taskId(t2, jobId2, 2, 0) })).reasons).toContainEqual({
      kind: "blocked",
      text: "Blocked: Export Frame=2 FAILED, Export Frame=3 FAILED; a retry or requeue of them that succeeds lets it go on.",
    });
  });

  it("a PENDING task still waiting on running work is not blocked: the reason names what it waits for", async () => {
    const t = await testFarm();
    const jobId = await submit(t, job(4));
    const merge = await taskId(t, jobId, 1, 0);
    expect(await taskDependencies(t.farm, { taskId: merge })).toMatchObject({ status: "PENDING", waiting: 3, blockedBy: { total: 0 }, note: null });
    expect((await whyWaiting(t.farm, { taskId: merge })).reasons).toContainEqual({
      kind: "upstreamTasks",
      text: "Waiting for 3 tasks it depends on: Export Frame=2 READY, Export Frame=3 READY, Export Frame=4 READY.",
    });
  });
});
