/**
 * Task counts and their transaction: count changes gathered in memory are written with the
 * transaction that made them, and forgotten with it when it rolls back — also when it is a
 * savepoint inside another (the sync batcher), where the enclosing transaction's own changes stay.
 */
import { describe, expect, it } from "vitest";
import { framesJob, jobCounts, jobStatus, submit, testFarm, type TestFarm } from "../services/farm-test-support";
import { TransitionRefused } from "../../lib/farm/task-transitions";
import type { TaskRow } from "./task-state";

const JOB =
  "specificationVersion: jobtemplate-2023-09\nname: J\nsteps:\n- name: S\n  parameterSpace:\n    taskParameterDefinitions: [{name: F, type: INT, range: '1-3'}]\n  script:\n    actions:\n      onRun: {command: echo}\n";

function taskAt(t: TestFarm, jobId: string, index: number): TaskRow {
  return t.farm.store.sqlite
    .prepare<[string, number], TaskRow>(
      "SELECT id, job_id, step_id, task_index, parameters, status, failure_count, interruption_count, session_id, worker_id FROM tasks WHERE job_id = ? AND task_index = ?",
    )
    .get(jobId, index) as TaskRow;
}

/** Settles the job in a transaction of its own (what reads the counts next). */
function settled(t: TestFarm, jobId: string): string[] {
  t.farm.store.transaction(() => t.farm.tasks.settleJob(jobId, t.clock.now));
  return jobCounts(t, jobId);
}

describe("task counts in a unit of work (store.transaction)", () => {
  it("writes the counts of the tasks it changed when it commits", () => {
    const t = testFarm();
    const jobId = submit(t, JOB);
    t.farm.store.transaction(() => t.farm.tasks.change(taskAt(t, jobId, 0), "ASSIGNED"));
    expect(settled(t, jobId)).toEqual(["READY:2", "ASSIGNED:1"]);
  });

  it("forgets them when it rolls back", () => {
    const t = testFarm();
    const jobId = submit(t, JOB);
    expect(() =>
      t.farm.store.transaction(() => {
        t.farm.tasks.change(taskAt(t, jobId, 0), "ASSIGNED");
        throw new Error("boom");
      }),
    ).toThrow("boom");
    expect(taskAt(t, jobId, 0).status).toBe("READY");
    expect(settled(t, jobId)).toEqual(["READY:3"]);
  });

  it("a savepoint that rolls back forgets only its own changes, not the enclosing transaction's", () => {
    const t = testFarm();
    const jobId = submit(t, JOB);
    t.farm.store.transaction(() => {
      t.farm.tasks.change(taskAt(t, jobId, 0), "ASSIGNED");
      expect(() =>
        t.farm.store.transaction(() => {
          t.farm.tasks.change(taskAt(t, jobId, 1), "ASSIGNED");
          throw new Error("boom");
        }),
      ).toThrow("boom");
    });
    expect([taskAt(t, jobId, 0).status, taskAt(t, jobId, 1).status]).toEqual(["ASSIGNED", "READY"]);
    expect(settled(t, jobId)).toEqual(["READY:2", "ASSIGNED:1"]);
  });

  it("refuses a move the state machine does not allow, and its transaction changes nothing", () => {
    const t = testFarm();
    const jobId = submit(t, JOB);
    expect(() =>
      t.farm.store.transaction(() => {
        t.farm.tasks.change(taskAt(t, jobId, 0), "ASSIGNED");
        t.farm.tasks.change(taskAt(t, jobId, 1), "SUCCEEDED"); // READY → SUCCEEDED: never claimed, never ran
      }),
    ).toThrow(TransitionRefused);
    expect([0, 1, 2].map((i) => taskAt(t, jobId, i).status)).toEqual(["READY", "READY", "READY"]);
    expect(settled(t, jobId)).toEqual(["READY:3"]);
  });

  it("refuses a bulk move of a status the table does not move there (recordMove)", () => {
    const t = testFarm();
    const jobId = submit(t, JOB);
    const stepId = taskAt(t, jobId, 0).step_id;
    expect(() => t.farm.store.transaction(() => t.farm.tasks.recordMove(stepId, "SUCCEEDED", "CANCELED", 3))).toThrow("SUCCEEDED → CANCELED");
    expect(settled(t, jobId)).toEqual(["READY:3"]);
  });

  it("a step with no tasks (yet) never counts as succeeded: what depends on it stays PENDING", () => {
    const t = testFarm();
    const jobId = submit(t, framesJob(2, { encode: true }));
    const render = `${jobId}:0`;
    // Render's tasks are not there yet (as when a step gets its tasks later).
    t.farm.store.sqlite.prepare("DELETE FROM tasks WHERE step_id = ?").run(render);
    t.farm.store.sqlite.prepare("UPDATE steps SET task_count = 0 WHERE id = ?").run(render);
    t.farm.tasks.recountStep(render);
    expect(settled(t, jobId)).toEqual(["PENDING:1"]);
    expect(jobStatus(t, jobId)).toBe("PENDING");
  });
});
