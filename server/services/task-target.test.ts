/**
 * Every shape of a wrangler's target (a job, a step, listed tasks of a job, listed tasks of a
 * step) moves exactly its tasks, across more than one chunk of ids, with what the move sets
 * besides the status; the step counts stay true.
 */
import { describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "./audit";
import { cancelTasks } from "./cancel-tasks";
import { rawOf } from "../store/store-test-support";
import { jobCounts, submit, testFarm, type TestFarm } from "./farm-test-support";
import { requeueTasks } from "./requeue-tasks";
import { resumeTasks, suspendTasks } from "./suspend-tasks";

/** More than one chunk (task-target.ts moves 1,000 ids at a time): Render has 50 × 50 tasks, Encode one after them. */
const FRAMES = 2_500;
const JOB = `specificationVersion: jobtemplate-2023-09
name: tiles
steps:
- name: Render
  parameterSpace:
    taskParameterDefinitions:
    - {name: F, type: INT, range: '1-50'}
    - {name: T, type: INT, range: '1-50'}
  script:
    actions:
      onRun: {command: echo, args: ['{{Task.Param.F}}']}
- name: Encode
  dependencies: [{dependsOn: Render}]
  script:
    actions:
      onRun: {command: echo, args: [encode]}
`;

interface TaskRow {
  id: number;
  step_id: string;
  status: string;
  ended_at: number | null;
  worker_id: string | null;
}

async function setUp(): Promise<{ t: TestFarm; jobId: string; render: string; encode: string; tasks: () => Promise<TaskRow[]> }> {
  const t = await testFarm();
  const jobId = await submit(t, JOB);
  const raw = rawOf(t.farm.store);
  const step = async (index: number) => (await raw.get<{ id: string }>("SELECT id FROM steps WHERE job_id = ? AND step_index = ?", jobId, index))!.id;
  const tasks = () => raw.all<TaskRow>("SELECT id, step_id, status, ended_at, worker_id FROM tasks WHERE job_id = ? ORDER BY id", jobId);
  return { t, jobId, render: await step(0), encode: await step(1), tasks };
}

/** The stored step counts against a recount of the rows. */
async function countsAreTrue(t: TestFarm, jobId: string): Promise<boolean> {
  const raw = rawOf(t.farm.store);
  const stored = await raw.all<{ id: string; task_count: number; total: number }>(
    "SELECT id, task_count, count_pending + count_ready + count_assigned + count_running + count_succeeded + count_failed + count_canceled + count_suspended + count_not_compatible AS total FROM steps WHERE job_id = ?",
    jobId,
  );
  for (const step of stored) {
    const row = (await raw.get<Record<string, number>>("SELECT * FROM steps WHERE id = ?", step.id))!;
    const recount = await raw.all<{ status: string; n: number }>("SELECT status, COUNT(*) AS n FROM tasks WHERE step_id = ? GROUP BY status", step.id);
    if (!(step.total === step.task_count && recount.every((r) => row[`count_${r.status.toLowerCase()}`] === r.n))) return false;
  }
  return true;
}

describe("moving a target's tasks", () => {
  it("a whole job: every task, across chunks, ended at the time of the cancel", async () => {
    const { t, jobId, tasks } = await setUp();
    t.clock.now += 1_234;
    expect((await cancelTasks(t.farm, { jobId }, SYSTEM_ACTOR)).changed).toBe(FRAMES + 1);
    expect((await tasks()).every((task) => task.status === "CANCELED" && task.ended_at === t.clock.now)).toBe(true);
    expect(await jobCounts(t, jobId)).toEqual([`CANCELED:${FRAMES + 1}`]);
    expect(await countsAreTrue(t, jobId)).toBe(true);
  });

  it("one step: its tasks only, across chunks", async () => {
    const { t, jobId, render, encode, tasks } = await setUp();
    expect((await suspendTasks(t.farm, { jobId, stepId: encode }, SYSTEM_ACTOR)).changed).toBe(1);
    expect((await suspendTasks(t.farm, { jobId, stepId: render }, SYSTEM_ACTOR)).changed).toBe(FRAMES);
    expect((await tasks()).every((task) => task.status === "SUSPENDED")).toBe(true);
    expect((await resumeTasks(t.farm, { jobId, stepId: render }, SYSTEM_ACTOR)).changed).toBe(FRAMES);
    expect(await jobCounts(t, jobId)).toEqual([`READY:${FRAMES}`, "SUSPENDED:1"]);
    expect(await countsAreTrue(t, jobId)).toBe(true);
  });

  it("listed tasks of a job, and of one step: those only, each list walked in slices", async () => {
    const { t, jobId, render, encode, tasks } = await setUp();
    const all = await tasks();
    const encodeTask = all.find((task) => task.step_id === encode)!.id;
    const spread = all.filter((task, i) => task.step_id === render && i % 2 === 0).map((task) => task.id);
    expect((await cancelTasks(t.farm, { jobId, taskIds: [...spread, encodeTask] }, SYSTEM_ACTOR)).changed).toBe(spread.length + 1);
    const canceled = new Set((await tasks()).filter((task) => task.status === "CANCELED").map((task) => task.id));
    expect(canceled).toEqual(new Set([...spread, encodeTask]));

    // Of one step: a task of another step is refused, the step's listed tasks move.
    await expect(requeueTasks(t.farm, { jobId, stepId: render, taskIds: [spread[0]!, encodeTask] }, SYSTEM_ACTOR)).rejects.toThrow(/1 of the given tasks are not in job .* step /);
    const some = spread.slice(0, 1_500);
    expect((await requeueTasks(t.farm, { jobId, stepId: render, taskIds: [...some, ...some] }, SYSTEM_ACTOR)).changed).toBe(some.length);
    const after = new Map((await tasks()).map((task) => [task.id, task]));
    expect(some.every((id) => after.get(id)!.status !== "CANCELED" && after.get(id)!.ended_at === null)).toBe(true);
    expect(after.get(encodeTask)!.status).toBe("CANCELED");
    expect(await countsAreTrue(t, jobId)).toBe(true);
  });
});
