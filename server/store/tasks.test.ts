/**
 * The task writes of the sync path: a status change sets exactly the columns its patch names
 * (from a whitelist: nothing else reaches the SQL text), and an assignment binds only the tasks
 * still READY.
 */
import { describe, expect, it } from "vitest";
import { submit, testFarm, type TestFarm } from "../services/farm-test-support";
import { rawOf } from "./store-test-support";
import { tasksRepository, type TaskPatch } from "./tasks";

const JOB =
  "specificationVersion: jobtemplate-2023-09\nname: J\nsteps:\n- name: S\n  parameterSpace:\n    taskParameterDefinitions: [{name: F, type: INT, range: '1-3'}]\n  script:\n    actions:\n      onRun: {command: echo}\n";

interface Columns {
  id: number;
  status: string;
  worker_id: string | null;
  session_id: string | null;
  progress: number | null;
  status_message: string | null;
  retry_at: number | null;
}

function tasksOf(t: TestFarm, jobId: string): Promise<Columns[]> {
  return rawOf(t.farm.store).all<Columns>("SELECT id, status, worker_id, session_id, progress, status_message, retry_at FROM tasks WHERE job_id = ? ORDER BY task_index", jobId);
}

describe("tasksRepository", () => {
  it("sets the status and the patch's columns; an undefined value leaves its column, null clears it", async () => {
    const t = await testFarm();
    const jobId = await submit(t, JOB);
    const [first, second] = (await tasksOf(t, jobId)) as [Columns, Columns];
    await t.farm.store.transaction(async (tx) => {
      await tasksRepository.setStatus(tx, first.id, "ASSIGNED", { workerId: "w1", sessionId: "s1", statusMessage: "taken" });
      await tasksRepository.setStatus(tx, first.id, "RUNNING", { progress: 40, statusMessage: undefined });
      await tasksRepository.setStatus(tx, second.id, "ASSIGNED", { workerId: "w2", sessionId: "s2", statusMessage: "taken" });
      await tasksRepository.setStatus(tx, second.id, "READY", { workerId: null, sessionId: null, retryAt: 5 });
    });
    expect((await tasksOf(t, jobId)).slice(0, 2)).toEqual([
      { id: first.id, status: "RUNNING", worker_id: "w1", session_id: "s1", progress: 40, status_message: "taken", retry_at: null },
      { id: second.id, status: "READY", worker_id: null, session_id: null, progress: null, status_message: "taken", retry_at: 5 },
    ]);
  });

  it("refuses a patch key outside the whitelist and writes nothing", async () => {
    const t = await testFarm();
    const jobId = await submit(t, JOB);
    const [first] = (await tasksOf(t, jobId)) as [Columns];
    const patch = { statusMessage: "x", "status = 'SUCCEEDED', job_id": "oops" } as unknown as TaskPatch;
    await expect(t.farm.store.transaction((tx) => tasksRepository.setStatus(tx, first.id, "ASSIGNED", patch))).rejects.toThrow("a task patch cannot set \"status = 'SUCCEEDED', job_id\"");
    expect((await tasksOf(t, jobId))[0]).toEqual(first);
  });

  it("assigns only the tasks still READY, clearing their progress and message", async () => {
    const t = await testFarm();
    const jobId = await submit(t, JOB);
    const [first, second, third] = (await tasksOf(t, jobId)) as [Columns, Columns, Columns];
    await t.farm.store.transaction(async (tx) => {
      await tasksRepository.setStatus(tx, second.id, "CANCELED", {});
      await tasksRepository.setStatus(tx, third.id, "READY", { progress: 10, statusMessage: "before" });
      expect(await tasksRepository.assign(tx, [first.id, second.id, third.id], "s1", "w1")).toBe(2);
    });
    expect((await tasksOf(t, jobId)).map((r) => [r.status, r.session_id, r.worker_id, r.progress, r.status_message])).toEqual([
      ["ASSIGNED", "s1", "w1", null, null],
      ["CANCELED", null, null, null, null],
      ["ASSIGNED", "s1", "w1", null, null],
    ]);
  });
});
