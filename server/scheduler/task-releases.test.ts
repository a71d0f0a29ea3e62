/**
 * Task-to-task releases and their reversal (task-releases.ts) on hand-made task graphs, on the
 * run's engine: a job of independent steps is submitted, then given edges, groups and `waiting`
 * as job creation writes them (plan-dependencies.ts, job-writes.ts), and its tasks are run
 * through TaskState as a worker's reports run them. After every step the counts are recounted.
 */
import { describe, expect, it } from "vitest";
import type { ResolvedDependency, TaskGraph } from "../../lib/openjd";
import { edgeBatches, waitingCounts, waitingRows } from "../checks/plan-dependencies";
import { SYSTEM_ACTOR } from "../services/audit";
import { jobCounts, submit, testFarm, type TestFarm } from "../services/farm-test-support";
import { requeueDependents } from "../services/requeue-dependents";
import { deleteJobRows } from "../services/delete-job-rows";
import { requeueTasks } from "../services/requeue-tasks";
import { claimsRepository } from "../store/claims";
import { jobWritesRepository } from "../store/job-writes";
import { rawOf } from "../store/store-test-support";
import type { TaskRow } from "./task-state";

/** Steps A, B, C of `counts[i]` tasks each, with no dependencies between them (the graph adds them). */
function stepsJob(counts: readonly number[]): string {
  const steps = counts.map(
    (n, i) => `- name: ${"ABC"[i]}\n  parameterSpace:\n    taskParameterDefinitions: [{name: F, type: INT, range: '0-${n - 1}'}]\n  script:\n    actions:\n      onRun: {command: echo}\n`,
  );
  return `specificationVersion: jobtemplate-2023-09\nname: graph\nsteps:\n${steps.join("")}`;
}

type Edge = [upStep: number, upTask: number, downStep: number, downTask: number, group: number];

function graphOf(edges: readonly Edge[], stepCount: number): TaskGraph {
  const column = (i: number) => Int32Array.from(edges.map((e) => e[i]!));
  const groupCount = Math.max(0, ...edges.map((e) => e[4] + 1));
  return {
    steps: Array.from({ length: stepCount }, () => []),
    edges: { length: edges.length, upStep: column(0), upTask: column(1), downStep: column(2), downTask: column(3), group: column(4) },
    groupCount,
  };
}

/** A job of independent steps given `edges` (and `gates`: resolved dependencies per step) as job creation writes them. */
async function graphJob(t: TestFarm, counts: readonly number[], edges: readonly Edge[], gates: Record<number, ResolvedDependency[]> = {}): Promise<string> {
  const jobId = await submit(t, stepsJob(counts));
  const graph = graphOf(edges, counts.length);
  const waiting = waitingCounts(graph, counts);
  await t.farm.store.transaction(async (tx) => {
    for (const [step, perTask] of waiting) {
      for (const [n, indexes] of waitingRows(perTask, 0, perTask.length) ?? []) await jobWritesRepository.setWaiting(tx, `${jobId}:${step}`, n, indexes);
    }
    for (const batch of edgeBatches(graph, 10)) {
      for (const chunk of batch.edges) await jobWritesRepository.insertEdges(tx, jobId, chunk);
      for (const chunk of batch.groups) await jobWritesRepository.insertGroups(tx, jobId, chunk);
    }
    // As job creation leaves them: what waits on a task is PENDING.
    await tx.run("UPDATE tasks SET status = 'PENDING' WHERE job_id = ? AND waiting > 0 AND status = 'READY'", [jobId]);
    for (const [step, dependencies] of Object.entries(gates)) {
      await tx.run("UPDATE steps SET resolved_dependencies = ? WHERE id = ?", [JSON.stringify(dependencies), `${jobId}:${step}`]);
      await tx.run("UPDATE tasks SET status = 'PENDING' WHERE step_id = ? AND status = 'READY'", [`${jobId}:${step}`]);
    }
    for (let step = 0; step < counts.length; step++) await t.farm.tasks.recountStep(tx, `${jobId}:${step}`);
    await t.farm.tasks.settleJob(tx, jobId, t.clock.now);
  });
  return jobId;
}

const gate = (upstreamStep: number, kind: "step" | "step-any" = "step"): ResolvedDependency => ({
  index: 0,
  dependsOn: "ABC"[upstreamStep]!,
  upstreamStep,
  self: false,
  kind,
  label: kind === "step" ? "whole step" : "any task",
  edges: 0,
});

const TASK_COLUMNS = "id, job_id, step_id, task_index, parameters, status, failure_count, interruption_count, session_id, worker_id";

async function task(t: TestFarm, jobId: string, step: number, index: number): Promise<TaskRow> {
  return (await rawOf(t.farm.store).get<TaskRow>(`SELECT ${TASK_COLUMNS} FROM tasks WHERE step_id = ? AND task_index = ?`, `${jobId}:${step}`, index))!;
}

/** Runs a task to SUCCEEDED as a worker's reports do (claimed, started, succeeded), each report in a unit with its settle. */
async function succeed(t: TestFarm, jobId: string, step: number, index: number): Promise<void> {
  for (const to of ["ASSIGNED", "RUNNING", "SUCCEEDED"] as const) {
    const row = await task(t, jobId, step, index);
    await t.farm.store.transaction(async (tx) => {
      await t.farm.tasks.change(tx, row, to);
      await t.farm.tasks.settleJob(tx, jobId, t.clock.now);
    });
  }
}

/** `step.index:STATUS/waiting` for every task of the job, in order. */
async function states(t: TestFarm, jobId: string): Promise<string[]> {
  const rows = await rawOf(t.farm.store).all<{ step_id: string; task_index: number; status: string; waiting: number }>(
    "SELECT step_id, task_index, status, waiting FROM tasks WHERE job_id = ? ORDER BY step_id, task_index",
    jobId,
  );
  return rows.map((r) => `${r.step_id.slice(jobId.length + 1)}.${r.task_index}:${r.status}/${r.waiting}`);
}

/** Each step's stored counts equal a recount of its task rows. */
async function countsAreTrue(t: TestFarm, jobId: string): Promise<void> {
  const raw = rawOf(t.farm.store);
  const stored = await raw.all<{ id: string; count_pending: number; count_ready: number; count_succeeded: number; count_assigned: number; count_running: number }>(
    "SELECT id, count_pending, count_ready, count_succeeded, count_assigned, count_running FROM steps WHERE job_id = ? ORDER BY id",
    jobId,
  );
  for (const step of stored) {
    const actual = Object.fromEntries(
      (await raw.all<{ status: string; n: number }>("SELECT status, COUNT(*) AS n FROM tasks WHERE step_id = ? GROUP BY status", step.id)).map((r) => [r.status, Number(r.n)]),
    );
    expect([step.count_pending, step.count_ready, step.count_assigned, step.count_running, step.count_succeeded], step.id).toEqual(
      ["PENDING", "READY", "ASSIGNED", "RUNNING", "SUCCEEDED"].map((s) => actual[s] ?? 0),
    );
  }
}

describe("releases along task-to-task edges (hand-made graphs)", () => {
  it("all-of fan-in: the downstream task is released by its last upstream success, once", async () => {
    const t = await testFarm();
    const jobId = await graphJob(
      t,
      [3, 1],
      [
        [0, 0, 1, 0, -1],
        [0, 1, 1, 0, -1],
        [0, 2, 1, 0, -1],
      ],
    );
    expect(await states(t, jobId)).toEqual(["0.0:READY/0", "0.1:READY/0", "0.2:READY/0", "1.0:PENDING/3"]);
    await succeed(t, jobId, 0, 1);
    await succeed(t, jobId, 0, 0);
    expect(await states(t, jobId)).toContain("1.0:PENDING/1");
    await succeed(t, jobId, 0, 2);
    expect(await states(t, jobId)).toEqual(["0.0:SUCCEEDED/0", "0.1:SUCCEEDED/0", "0.2:SUCCEEDED/0", "1.0:READY/0"]);
    expect(await rawOf(t.farm.store).column("SELECT COUNT(*) FROM task_edges WHERE job_id = ? AND met = TRUE", jobId)).toEqual([3]);
    await countsAreTrue(t, jobId);
  });

  it("frame by frame: each downstream task goes as soon as its own upstream task succeeded", async () => {
    const t = await testFarm();
    const jobId = await graphJob(
      t,
      [3, 3],
      [
        [0, 0, 1, 0, -1],
        [0, 1, 1, 1, -1],
        [0, 2, 1, 2, -1],
      ],
    );
    await succeed(t, jobId, 0, 2);
    expect(await states(t, jobId)).toEqual(["0.0:READY/0", "0.1:READY/0", "0.2:SUCCEEDED/0", "1.0:PENDING/1", "1.1:PENDING/1", "1.2:READY/0"]);
    await succeed(t, jobId, 1, 2);
    expect(await jobCounts(t, jobId)).toEqual(["PENDING:2", "READY:2", "SUCCEEDED:2"]);
    await countsAreTrue(t, jobId);
  });

  it("a chain inside one step (self edges): one task at a time becomes READY", async () => {
    const t = await testFarm();
    const jobId = await graphJob(
      t,
      [4],
      [
        [0, 0, 0, 1, -1],
        [0, 1, 0, 2, -1],
        [0, 2, 0, 3, -1],
      ],
    );
    for (let i = 0; i < 4; i++) {
      expect((await states(t, jobId)).filter((s) => s.includes("READY"))).toEqual([`0.${i}:READY/0`]);
      await succeed(t, jobId, 0, i);
    }
    expect(await jobCounts(t, jobId)).toEqual(["SUCCEEDED:4"]);
    await countsAreTrue(t, jobId);
  });

  it("any-of group: the first success opens it; later ones change nothing downstream", async () => {
    const t = await testFarm();
    const jobId = await graphJob(
      t,
      [3, 1],
      [
        [0, 0, 1, 0, 0],
        [0, 1, 1, 0, 0],
        [0, 2, 1, 0, 0],
      ],
    );
    expect(await states(t, jobId)).toContain("1.0:PENDING/1");
    await succeed(t, jobId, 0, 1);
    expect(await states(t, jobId)).toContain("1.0:READY/0");
    await succeed(t, jobId, 0, 0);
    await succeed(t, jobId, 0, 2);
    expect(await states(t, jobId)).toContain("1.0:READY/0");
    expect(await rawOf(t.farm.store).column("SELECT met_count FROM task_groups WHERE job_id = ?", jobId)).toEqual([3]);
    await countsAreTrue(t, jobId);
  });

  it("a task with edges and a step gate waits for both; settleJob releases it when the gate opens last", async () => {
    const t = await testFarm();
    // B.0 waits for A.0 (edge) and for all of C (a whole-step gate).
    const jobId = await graphJob(t, [1, 1, 2], [[0, 0, 1, 0, -1]], { 1: [gate(2)] });
    await succeed(t, jobId, 0, 0);
    expect(await states(t, jobId)).toContain("1.0:PENDING/0");
    await succeed(t, jobId, 2, 0);
    expect(await states(t, jobId)).toContain("1.0:PENDING/0");
    await succeed(t, jobId, 2, 1);
    expect(await states(t, jobId)).toContain("1.0:READY/0");
    await countsAreTrue(t, jobId);
  });

  it("a step gate open first: the edge's release makes the task READY itself", async () => {
    const t = await testFarm();
    const jobId = await graphJob(t, [1, 1, 2], [[0, 0, 1, 0, -1]], { 1: [gate(2, "step-any")] });
    await succeed(t, jobId, 2, 1);
    expect(await states(t, jobId)).toContain("1.0:PENDING/1");
    await succeed(t, jobId, 0, 0);
    expect(await states(t, jobId)).toContain("1.0:READY/0");
    await countsAreTrue(t, jobId);
  });
});

describe("a requeue takes releases back", () => {
  it("requeuing an upstream task puts its READY dependent back to PENDING; its new success releases it again", async () => {
    const t = await testFarm();
    const jobId = await graphJob(
      t,
      [2, 1],
      [
        [0, 0, 1, 0, -1],
        [0, 1, 1, 0, -1],
      ],
    );
    await succeed(t, jobId, 0, 0);
    await succeed(t, jobId, 0, 1);
    expect(await states(t, jobId)).toContain("1.0:READY/0");
    const upstream = await task(t, jobId, 0, 1);
    expect(await requeueTasks(t.farm, { jobId, taskIds: [upstream.id] }, SYSTEM_ACTOR)).toEqual({ changed: 1, dependents: 1 });
    expect(await states(t, jobId)).toEqual(["0.0:SUCCEEDED/0", "0.1:READY/0", "1.0:PENDING/1"]);
    expect(await rawOf(t.farm.store).column("SELECT met FROM task_edges WHERE job_id = ? ORDER BY up_task", jobId)).toEqual([1, 0]);
    await countsAreTrue(t, jobId);
    await succeed(t, jobId, 0, 1);
    expect(await states(t, jobId)).toContain("1.0:READY/0");
    await countsAreTrue(t, jobId);
  });

  it("an any-of group stays open while one of its met edges is left, and closes with the last", async () => {
    const t = await testFarm();
    const jobId = await graphJob(
      t,
      [2, 1],
      [
        [0, 0, 1, 0, 0],
        [0, 1, 1, 0, 0],
      ],
    );
    await succeed(t, jobId, 0, 0);
    await succeed(t, jobId, 0, 1);
    const [first, second] = [await task(t, jobId, 0, 0), await task(t, jobId, 0, 1)];
    await requeueTasks(t.farm, { jobId, taskIds: [first.id] }, SYSTEM_ACTOR);
    expect(await states(t, jobId)).toContain("1.0:READY/0");
    await requeueTasks(t.farm, { jobId, taskIds: [second.id] }, SYSTEM_ACTOR);
    expect(await states(t, jobId)).toContain("1.0:PENDING/1");
    expect(await rawOf(t.farm.store).column("SELECT met_count FROM task_groups WHERE job_id = ?", jobId)).toEqual([0]);
    await countsAreTrue(t, jobId);
  });

  it("counts the released dependents, transitively; withDependents requeues them in the same requeue", async () => {
    const t = await testFarm();
    // A.0 → B.0 → C.0, and A.0 → B.1 (which has not run: it waits on A.1 as well).
    const jobId = await graphJob(
      t,
      [2, 2, 1],
      [
        [0, 0, 1, 0, -1],
        [1, 0, 2, 0, -1],
        [0, 0, 1, 1, -1],
        [0, 1, 1, 1, -1],
      ],
    );
    await succeed(t, jobId, 0, 0);
    await succeed(t, jobId, 1, 0);
    await succeed(t, jobId, 2, 0);
    const root = await task(t, jobId, 0, 0);
    // B.0 and C.0 ran; B.1 is PENDING (nothing to requeue).
    expect(await requeueDependents(t.farm, { jobId, taskIds: [root.id] })).toEqual({ dependents: 2 });
    expect(await requeueDependents(t.farm, { jobId, stepId: `${jobId}:0` })).toEqual({ dependents: 2 });
    expect(await requeueDependents(t.farm, { jobId })).toEqual({ dependents: 0 });
    expect(await requeueTasks(t.farm, { jobId, taskIds: [root.id] }, SYSTEM_ACTOR, { withDependents: true })).toEqual({ changed: 3, dependents: 2 });
    expect(await states(t, jobId)).toEqual(["0.0:READY/0", "0.1:READY/0", "1.0:PENDING/1", "1.1:PENDING/2", "2.0:PENDING/1"]);
    expect(await rawOf(t.farm.store).column("SELECT COUNT(*) FROM task_edges WHERE job_id = ? AND met = TRUE", jobId)).toEqual([0]);
    await countsAreTrue(t, jobId);
  });

  it("without withDependents, the dependents that ran keep their status (and the answer says how many)", async () => {
    const t = await testFarm();
    const jobId = await graphJob(t, [1, 1], [[0, 0, 1, 0, -1]]);
    await succeed(t, jobId, 0, 0);
    await succeed(t, jobId, 1, 0);
    const root = await task(t, jobId, 0, 0);
    expect(await requeueTasks(t.farm, { jobId, taskIds: [root.id] }, SYSTEM_ACTOR)).toEqual({ changed: 1, dependents: 1 });
    expect(await states(t, jobId)).toEqual(["0.0:READY/0", "1.0:SUCCEEDED/1"]);
    // Its upstream succeeding again lets the count back to 0; SUCCEEDED stays.
    await succeed(t, jobId, 0, 0);
    expect(await states(t, jobId)).toEqual(["0.0:SUCCEEDED/0", "1.0:SUCCEEDED/0"]);
    await countsAreTrue(t, jobId);
  });
});

describe("requeue review cases", () => {
  it("chosen tasks of a self-dependent step count the dependents in that step (the portal sends the step too)", async () => {
    const t = await testFarm();
    // A.0 → A.1 → A.2 within one step.
    const jobId = await graphJob(
      t,
      [3],
      [
        [0, 0, 0, 1, -1],
        [0, 1, 0, 2, -1],
      ],
    );
    for (const index of [0, 1, 2]) await succeed(t, jobId, 0, index);
    const root = await task(t, jobId, 0, 0);
    expect(await requeueDependents(t.farm, { jobId, stepId: `${jobId}:0`, taskIds: [root.id] })).toEqual({ dependents: 2 });
    expect(await requeueTasks(t.farm, { jobId, stepId: `${jobId}:0`, taskIds: [root.id] }, SYSTEM_ACTOR, { withDependents: true })).toEqual({ changed: 3, dependents: 2 });
    expect(await states(t, jobId)).toEqual(["0.0:READY/0", "0.1:PENDING/1", "0.2:PENDING/1"]);
    await countsAreTrue(t, jobId);
  });

  it("a dependent put back to READY while its upstream was requeued is not dispatched until the upstream succeeds again", async () => {
    const t = await testFarm();
    const jobId = await graphJob(t, [1, 1], [[0, 0, 1, 0, -1]]);
    await succeed(t, jobId, 0, 0);
    for (const to of ["ASSIGNED", "RUNNING"] as const) {
      const row = await task(t, jobId, 1, 0);
      await t.farm.store.transaction((tx) => t.farm.tasks.change(tx, row, to));
    }
    await requeueTasks(t.farm, { jobId, taskIds: [(await task(t, jobId, 0, 0)).id] }, SYSTEM_ACTOR);
    // The dependent's attempt ends and it goes back to READY (a retry), still waiting on its upstream.
    const running = await task(t, jobId, 1, 0);
    await t.farm.store.transaction(async (tx) => {
      await t.farm.tasks.change(tx, running, "READY");
      await t.farm.tasks.settleJob(tx, jobId, t.clock.now);
    });
    expect(await states(t, jobId)).toEqual(["0.0:READY/0", "1.0:READY/1"]);
    const claimable = () => t.farm.store.transaction((tx) => claimsRepository.nextTasks(tx, `${jobId}:1`, t.clock.now, 10));
    expect(await claimable()).toEqual([]);
    await succeed(t, jobId, 0, 0);
    expect((await claimable()).map((row) => row.task_index)).toEqual([0]);
  });
});

describe("deleting a job", () => {
  it("takes its edges and groups with it, chunk by chunk", async () => {
    const t = await testFarm();
    // More than two chunks of 500: 1,000 edges (half all-of, half in one group) and the group.
    const edges: Edge[] = Array.from({ length: 1_000 }, (_, i) => [0, i, 1, i % 2, i % 2 === 0 ? -1 : 0]);
    const jobId = await graphJob(t, [1_000, 2], edges);
    const deleted = await deleteJobRows(t.farm, jobId);
    expect(deleted).toMatchObject({ tasks: 1_002, edges: 1_001 });
    expect(await rawOf(t.farm.store).column("SELECT (SELECT COUNT(*) FROM task_edges) + (SELECT COUNT(*) FROM task_groups) AS n")).toEqual([0]);
  });
});
