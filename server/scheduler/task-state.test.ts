/**
 * Task counts and their transaction: count changes gathered in memory are written with the
 * transaction that made them, and forgotten with it when it rolls back — also when it is a
 * savepoint inside another (the sync batcher), where the enclosing transaction's own changes stay.
 */
import { describe, expect, it } from "vitest";
import { jobCounts, submit, testFarm, type TestFarm } from "../services/farm-test-support";
import type { TaskRow } from "./task-state";

const JOB = "specificationVersion: jobtemplate-2023-09\nname: J\nsteps:\n- name: S\n  parameterSpace:\n    taskParameterDefinitions: [{name: F, type: INT, range: '1-3'}]\n  script:\n    actions:\n      onRun: {command: echo}\n";

function taskAt(t: TestFarm, jobId: string, index: number): TaskRow {
  return t.farm.store.sqlite
    .prepare<[string, number], TaskRow>("SELECT id, job_id, step_id, task_index, parameters, status, failure_count, interruption_count, session_id, worker_id FROM tasks WHERE job_id = ? AND task_index = ?")
    .get(jobId, index) as TaskRow;
}

/** Settles the job in a transaction of its own (what reads the counts next). */
function settled(t: TestFarm, jobId: string): string[] {
  t.farm.tasks.transaction(() => t.farm.tasks.settleJob(jobId, t.clock.now));
  return jobCounts(t, jobId);
}

describe("TaskState.transaction", () => {
  it("writes the counts of the tasks it changed when it commits", () => {
    const t = testFarm();
    const jobId = submit(t, JOB);
    t.farm.tasks.transaction(() => t.farm.tasks.change(taskAt(t, jobId, 0), "RUNNING"));
    expect(settled(t, jobId)).toEqual(["READY:2", "RUNNING:1"]);
  });

  it("forgets them when it rolls back", () => {
    const t = testFarm();
    const jobId = submit(t, JOB);
    expect(() =>
      t.farm.tasks.transaction(() => {
        t.farm.tasks.change(taskAt(t, jobId, 0), "RUNNING");
        throw new Error("boom");
      }),
    ).toThrow("boom");
    expect(taskAt(t, jobId, 0).status).toBe("READY");
    expect(settled(t, jobId)).toEqual(["READY:3"]);
  });

  it("a savepoint that rolls back forgets only its own changes, not the enclosing transaction's", () => {
    const t = testFarm();
    const jobId = submit(t, JOB);
    t.farm.tasks.transaction(() => {
      t.farm.tasks.change(taskAt(t, jobId, 0), "RUNNING");
      expect(() =>
        t.farm.tasks.transaction(() => {
          t.farm.tasks.change(taskAt(t, jobId, 1), "RUNNING");
          throw new Error("boom");
        }),
      ).toThrow("boom");
    });
    expect([taskAt(t, jobId, 0).status, taskAt(t, jobId, 1).status]).toEqual(["RUNNING", "READY"]);
    expect(settled(t, jobId)).toEqual(["READY:2", "RUNNING:1"]);
  });
});
