/**
 * Task counts and their transaction: count changes gathered in memory are written with the
 * transaction that made them, and forgotten with it when it rolls back — also when it is a
 * savepoint inside another (the sync batcher), where the enclosing transaction's own changes stay.
 */
import { describe, expect, it } from "vitest";
import { framesJob, jobCounts, jobStatus, submit, testFarm, type TestFarm } from "../services/farm-test-support";
import { rawOf } from "../store/store-test-support";
import { TransitionRefused } from "../../lib/farm/task-transitions";
import type { TaskRow } from "./task-state";

const JOB =
  "specificationVersion: jobtemplate-2023-09\nname: J\nsteps:\n- name: S\n  parameterSpace:\n    taskParameterDefinitions: [{name: F, type: INT, range: '1-3'}]\n  script:\n    actions:\n      onRun: {command: echo}\n";

/** A task row as it is between units (read straight from the store, never while one is open). */
async function taskAt(t: TestFarm, jobId: string, index: number): Promise<TaskRow> {
  return (await rawOf(t.farm.store).get<TaskRow>(
    "SELECT id, job_id, step_id, task_index, parameters, status, failure_count, interruption_count, session_id, worker_id FROM tasks WHERE job_id = ? AND task_index = ?",
    jobId,
    index,
  )) as TaskRow;
}

/** Settles the job in a unit of its own (what reads the counts next). */
async function settled(t: TestFarm, jobId: string): Promise<string[]> {
  await t.farm.store.transaction((tx) => t.farm.tasks.settleJob(tx, jobId, t.clock.now));
  return jobCounts(t, jobId);
}

describe("task counts in a unit of work (store.transaction)", () => {
  it("writes the counts of the tasks it changed when it commits", async () => {
    const t = await testFarm();
    const jobId = await submit(t, JOB);
    const task = await taskAt(t, jobId, 0);
    await t.farm.store.transaction((tx) => t.farm.tasks.change(tx, task, "ASSIGNED"));
    expect(await settled(t, jobId)).toEqual(["READY:2", "ASSIGNED:1"]);
  });

  it("forgets them when it rolls back", async () => {
    const t = await testFarm();
    const jobId = await submit(t, JOB);
    const task = await taskAt(t, jobId, 0);
    await expect(
      t.farm.store.transaction(async (tx) => {
        await t.farm.tasks.change(tx, task, "ASSIGNED");
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect((await taskAt(t, jobId, 0)).status).toBe("READY");
    expect(await settled(t, jobId)).toEqual(["READY:3"]);
  });

  it("a savepoint that rolls back forgets only its own changes, not the enclosing transaction's", async () => {
    const t = await testFarm();
    const jobId = await submit(t, JOB);
    const [first, second] = [await taskAt(t, jobId, 0), await taskAt(t, jobId, 1)];
    await t.farm.store.transaction(async (tx) => {
      await t.farm.tasks.change(tx, first, "ASSIGNED");
      await expect(
        tx.transaction(async (inner) => {
          await t.farm.tasks.change(inner, second, "ASSIGNED");
          throw new Error("boom");
        }),
      ).rejects.toThrow("boom");
    });
    expect([(await taskAt(t, jobId, 0)).status, (await taskAt(t, jobId, 1)).status]).toEqual(["ASSIGNED", "READY"]);
    expect(await settled(t, jobId)).toEqual(["READY:2", "ASSIGNED:1"]);
  });

  it("a savepoint that commits keeps its changes with the enclosing transaction's", async () => {
    const t = await testFarm();
    const jobId = await submit(t, JOB);
    const [first, second] = [await taskAt(t, jobId, 0), await taskAt(t, jobId, 1)];
    await t.farm.store.transaction(async (tx) => {
      await t.farm.tasks.change(tx, first, "ASSIGNED");
      await tx.transaction((inner) => t.farm.tasks.change(inner, second, "ASSIGNED"));
    });
    expect(await settled(t, jobId)).toEqual(["READY:1", "ASSIGNED:2"]);
  });

  it("refuses a move the state machine does not allow, and its transaction changes nothing", async () => {
    const t = await testFarm();
    const jobId = await submit(t, JOB);
    const [first, second] = [await taskAt(t, jobId, 0), await taskAt(t, jobId, 1)];
    await expect(
      t.farm.store.transaction(async (tx) => {
        await t.farm.tasks.change(tx, first, "ASSIGNED");
        await t.farm.tasks.change(tx, second, "SUCCEEDED"); // READY → SUCCEEDED: never claimed, never ran
      }),
    ).rejects.toThrow(TransitionRefused);
    expect(await Promise.all([0, 1, 2].map(async (i) => (await taskAt(t, jobId, i)).status))).toEqual(["READY", "READY", "READY"]);
    expect(await settled(t, jobId)).toEqual(["READY:3"]);
  });

  it("refuses a bulk move of a status the table does not move there (recordMove)", async () => {
    const t = await testFarm();
    const jobId = await submit(t, JOB);
    const stepId = (await taskAt(t, jobId, 0)).step_id;
    await expect(t.farm.store.transaction(async (tx) => t.farm.tasks.recordMove(tx, stepId, "SUCCEEDED", "CANCELED", 3))).rejects.toThrow("SUCCEEDED → CANCELED");
    expect(await settled(t, jobId)).toEqual(["READY:3"]);
  });

  it("a step with no tasks (yet) never counts as succeeded: what depends on it stays PENDING", async () => {
    const t = await testFarm();
    const jobId = await submit(t, framesJob(2, { encode: true }));
    const render = `${jobId}:0`;
    // Render's tasks are not there yet (as when a step gets its tasks later).
    const raw = rawOf(t.farm.store);
    await raw.run("DELETE FROM tasks WHERE step_id = ?", render);
    await raw.run("UPDATE steps SET task_count = 0 WHERE id = ?", render);
    await t.farm.store.transaction((tx) => t.farm.tasks.recountStep(tx, render));
    expect(await settled(t, jobId)).toEqual(["PENDING:1"]);
    expect(await jobStatus(t, jobId)).toBe("PENDING");
  });
});
