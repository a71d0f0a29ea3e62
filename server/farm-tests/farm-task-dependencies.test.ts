/**
 * Task-to-task dependencies (TASK_DEPENDENCIES) on a farm, on both engines: frame-by-frame
 * pipelining past a slow upstream frame (real `loom worker` processes), a 1,000-task chain run in
 * order by two workers, a failed upstream frame that blocks exactly its dependents until a retry
 * succeeds, and — PostgreSQL, two replicas — 200 upstream tasks completing at once that release
 * their fan-in task exactly once.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AssignedAction } from "../../lib/farm/protocol";
import { createFarm } from "../context/farm";
import { taskDependencies } from "../queries/task-dependencies";
import { whyWaiting } from "../queries/why-waiting";
import { SYSTEM_ACTOR } from "../services/audit";
import { jobCounts, jobStatus, LINUX_WORKER, SimulatedWorker, submit, testFarm, type Outcome, type TestFarm } from "../services/farm-test-support";
import { retryFailedTasks } from "../services/requeue-tasks";
import { PostgresStore } from "../store/engine/postgres-engine";
import { testDatabaseTarget, testEngine } from "../store/engines-test-support";
import { rawOf } from "../store/store-test-support";
import { taskMovesRecorder } from "../store/task-moves-recorder";
import { doubleCompletions, FarmHarness, shell, submitTemplate, waitForJobEnd, waitForWorkers } from "./farm-harness";

/** Export frames, and Render frames each on the Export frame of its own number. */
function frameByFrame(frames: number, exportScript: { command: string; args: string[] } = { command: "echo", args: ["export"] }) {
  const space = { taskParameterDefinitions: [{ name: "Frame", type: "INT", range: `1-${frames}` }] };
  return {
    specificationVersion: "jobtemplate-2023-09",
    extensions: ["TASK_DEPENDENCIES"],
    name: "Frame by frame",
    steps: [
      { name: "Export", parameterSpace: space, script: { actions: { onRun: exportScript } } },
      {
        name: "Render",
        parameterSpace: space,
        dependencies: [{ dependsOn: "Export", dependsOnSubspace: [{ name: "Frame", range: "{{Task.Param.Frame}}" }] }],
        script: { actions: { onRun: { command: "echo", args: ["render", "{{Task.Param.Frame}}"] } } },
      },
    ],
  };
}

interface TaskTimes {
  step: string;
  frame: string;
  status: string;
  started_at: number | null;
  ended_at: number | null;
}

const FRAME = "CAST(t.parameters AS text)";

async function taskTimes(store: TestFarm["farm"]["store"], jobId: string): Promise<TaskTimes[]> {
  const rows = await rawOf(store).all<Omit<TaskTimes, "frame"> & { parameters: string }>(
    `SELECT s.name AS step, ${FRAME} AS parameters, t.status, t.started_at, t.ended_at FROM tasks t JOIN steps s ON s.id = t.step_id WHERE t.job_id = ? ORDER BY s.step_index, t.task_index`,
    jobId,
  );
  return rows.map(({ parameters, ...row }) => ({ ...row, frame: (JSON.parse(parameters) as Record<string, { value: string }>).Frame!.value }));
}

describe("frame by frame with one slow upstream frame (real `loom worker` processes)", () => {
  let h: FarmHarness;
  beforeEach(() => {
    h = new FarmHarness();
  });
  afterEach(async () => {
    await h.dispose();
  });

  it("renders every frame whose export is done, and finishes them, before the slow export frame ends", async () => {
    const farm = await h.startFarm();
    h.startWorker(farm.url, farm.token, "w1");
    h.startWorker(farm.url, farm.token, "w2");
    await waitForWorkers(farm.api, 2);
    // Frame 1 goes first (and alone: its step's runtime is not known yet), and takes 5 s.
    const jobId = await submitTemplate(farm.api, frameByFrame(6, shell('if [ "$1" = 1 ]; then sleep 5; fi; echo export "$1"', "{{Task.Param.Frame}}")));
    const job = await waitForJobEnd(farm.api, jobId, 60_000);
    expect(job.status).toBe("SUCCEEDED");

    const times = await taskTimes(farm.store, jobId);
    const at = (step: string, frame: string) => times.find((t) => t.step === step && t.frame === frame)!;
    const slow = at("Export", "1");
    for (const frame of ["2", "3", "4", "5", "6"]) {
      expect(at("Render", frame).ended_at!, `Render ${frame} ended before the slow Export 1`).toBeLessThan(slow.ended_at!);
    }
    // No render started before its own export had ended.
    for (const frame of ["1", "2", "3", "4", "5", "6"]) expect(at("Render", frame).started_at!).toBeGreaterThanOrEqual(at("Export", frame).ended_at!);
    expect(await doubleCompletions(farm.farm, jobId)).toEqual([]);
  }, 120_000);
});

describe("a chain of 1,000 tasks (PreviousFrame: one step waiting on itself)", () => {
  const CHAIN = `specificationVersion: jobtemplate-2023-09
extensions: [TASK_DEPENDENCIES, EXPR]
name: chain
steps:
- name: Sim
  parameterSpace:
    taskParameterDefinitions: [{name: N, type: INT, range: '0-999'}]
  dependencies:
  - dependsOn: Sim
    dependsOnSubspace:
    - {name: N, range: ['{{Task.Param.N - 1}}']}
  script:
    actions:
      onRun: {command: echo, args: ['{{Task.Param.N}}']}
`;

  it("runs in order over two workers, no task before the one it waits for has ended", { timeout: 300_000 }, async () => {
    const t = await testFarm();
    const recorder = taskMovesRecorder;
    await t.farm.store.transaction((tx) => recorder.install(tx));
    const jobId = await submit(t, CHAIN);
    const workers = [await SimulatedWorker.create(t, LINUX_WORKER("w1")), await SimulatedWorker.create(t, LINUX_WORKER("w2"))];
    let most = 0;
    for (let round = 0; round < 5_000 && (await jobStatus(t, jobId)) !== "SUCCEEDED"; round++) {
      t.clock.now += 10;
      // A worker keeps the chain while its Session lasts: every 37 tasks the other one takes over (the first drains).
      const active = Math.floor((workers[0]!.log.length + workers[1]!.log.length) / 37) % 2;
      await Promise.all(workers.map((w, i) => w.sync({ draining: i !== active })));
      const underWay = await rawOf(t.farm.store).column<number>("SELECT COUNT(*) FROM tasks WHERE job_id = ? AND status IN ('READY', 'ASSIGNED', 'RUNNING')", jobId);
      most = Math.max(most, Number(underWay[0]));
    }
    expect(await jobCounts(t, jobId)).toEqual(["SUCCEEDED:1000"]);
    // Never more than one task of the chain ready or running at once.
    expect(most).toBe(1);
    const rows = await rawOf(t.farm.store).all<{ id: number; task_index: number; started_at: number; ended_at: number }>(
      "SELECT id, task_index, started_at, ended_at FROM tasks WHERE job_id = ? ORDER BY task_index",
      jobId,
    );
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.started_at, `task ${i} started before task ${i - 1} ended`).toBeGreaterThanOrEqual(rows[i - 1]!.ended_at);
    // As the database recorded the moves: each task became READY after the one before it SUCCEEDED.
    const moves = await t.farm.store.transaction((tx) => recorder.takeMoves(tx));
    const position = new Map(moves.map((m, i) => [`${m.task}:${m.to}`, i]));
    for (let i = 1; i < rows.length; i++) expect(position.get(`${rows[i]!.id}:READY`)!).toBeGreaterThan(position.get(`${rows[i - 1]!.id}:SUCCEEDED`)!);
    expect(new Set(workers.flatMap((w) => w.log)).size).toBe(1000);
    for (const worker of workers) expect(worker.log.length).toBeGreaterThan(400);
  });
});

describe("a failed upstream frame", () => {
  it("blocks exactly its dependents (the rest of the job runs, and it rolls up FAILED); a retry that succeeds releases them", async () => {
    const t = await testFarm();
    const yaml = JSON.stringify(frameByFrame(5));
    const jobId = await submit(t, yaml, { settings: { maxRetriesPerTask: 0 } });
    let broken = true;
    const decide = (action: AssignedAction): Outcome =>
      broken && action.kind === "TASK_RUN" && action.stepName === "Export" && action.parameters?.Frame?.value === "3" ? { status: "FAILED", exitCode: 1 } : { status: "SUCCEEDED", exitCode: 0 };
    const worker = await SimulatedWorker.create(t, LINUX_WORKER("w"), decide);
    await worker.runUntilIdle();

    const times = await taskTimes(t.farm.store, jobId);
    expect(times.map((r) => `${r.step} ${r.frame} ${r.status}`)).toEqual([
      "Export 1 SUCCEEDED",
      "Export 2 SUCCEEDED",
      "Export 3 FAILED",
      "Export 4 SUCCEEDED",
      "Export 5 SUCCEEDED",
      "Render 1 SUCCEEDED",
      "Render 2 SUCCEEDED",
      "Render 3 PENDING",
      "Render 4 SUCCEEDED",
      "Render 5 SUCCEEDED",
    ]);
    // Failed tasks block the rest: the job rolls up FAILED and has ended, as with a blocked step.
    expect(await jobStatus(t, jobId)).toBe("FAILED");
    expect((await rawOf(t.farm.store).get<{ ended_at: number | null }>("SELECT ended_at FROM jobs WHERE id = ?", jobId))!.ended_at).not.toBeNull();

    const blocked = (await rawOf(t.farm.store).get<{ id: number }>("SELECT id FROM tasks WHERE step_id = ? AND task_index = 2", `${jobId}:1`))!.id;
    const dependencies = await taskDependencies(t.farm, { taskId: blocked });
    expect(dependencies).toMatchObject({ status: "PENDING", waiting: 1, note: "blocked: Export Frame=3 FAILED", upstream: { total: 1 }, downstream: { total: 0 } });
    const why = await whyWaiting(t.farm, { taskId: blocked });
    expect(why.reasons).toContainEqual({ kind: "blocked", text: expect.stringContaining("Blocked: Export Frame=3 FAILED") });

    broken = false;
    expect((await retryFailedTasks(t.farm, { jobId }, SYSTEM_ACTOR)).changed).toBe(1);
    await worker.runUntilIdle();
    expect(await jobCounts(t, jobId)).toEqual(["SUCCEEDED:10"]);
    expect(await jobStatus(t, jobId)).toBe("SUCCEEDED");
  });
});

describe.skipIf(testEngine() !== "postgres")("a fan-in on two replicas of one PostgreSQL database", () => {
  // Merge 0 waits for all 200 Export tasks, Merge 1 for the last 199 (so neither is a whole-step gate).
  const FAN_IN = `specificationVersion: jobtemplate-2023-09
extensions: [TASK_DEPENDENCIES]
name: fan-in
steps:
- name: Export
  parameterSpace:
    taskParameterDefinitions: [{name: Frame, type: INT, range: '0-199'}]
  script:
    actions:
      onRun: {command: echo}
- name: Merge
  parameterSpace:
    taskParameterDefinitions: [{name: M, type: INT, range: '0-1'}]
  dependencies:
  - dependsOn: Export
    dependsOnSubspace:
    - {name: Frame, range: '{{Task.Param.M}}-199'}
  script:
    actions:
      onRun: {command: echo}
`;

  it("200 upstream tasks completing at once, from workers on both replicas, release each fan-in task exactly once", { timeout: 300_000 }, async () => {
    const url = await testDatabaseTarget();
    // Already migrated. The 200 syncs queue for the pools' connections at once: they may wait long for one.
    const replica = () => new PostgresStore({ url, poolSize: 16, connectionTimeoutMs: 240_000 });
    const [storeA, storeB] = [replica(), replica()];
    try {
      const a = await testFarm({}, { store: storeA });
      const b: TestFarm = { ...a, farm: createFarm(storeB, { now: () => a.clock.now }) };
      await storeA.transaction(async (tx) => {
        await taskMovesRecorder.install(tx);
        // Every value `waiting` takes, as the database wrote it.
        await tx.run("CREATE TABLE waiting_log (task bigint NOT NULL, waiting integer NOT NULL)");
        await tx.run(`CREATE FUNCTION waiting_log() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO waiting_log VALUES (NEW.id, NEW.waiting); RETURN NULL; END $$`);
        await tx.run("CREATE TRIGGER waiting_log AFTER UPDATE OF waiting ON tasks FOR EACH ROW EXECUTE FUNCTION waiting_log()");
      });
      const jobId = await submit(a, FAN_IN);
      const merges = await rawOf(storeA).all<{ id: number; task_index: number; waiting: number }>("SELECT id, task_index, waiting FROM tasks WHERE step_id = ? ORDER BY task_index", `${jobId}:1`);
      expect(merges.map((m) => m.waiting)).toEqual([200, 199]);

      // 200 workers, half on each replica, each holding one Export task.
      let hold = true;
      const decide = (): Outcome => (hold ? "hold" : { status: "SUCCEEDED", exitCode: 0 });
      const workers: SimulatedWorker[] = [];
      for (let i = 0; i < 200; i++) workers.push(await SimulatedWorker.create(i % 2 === 0 ? a : b, LINUX_WORKER(`w${i}`), decide));
      // The first sync gives each its task, the second reports it started.
      for (const worker of workers) await worker.sync();
      for (const worker of workers) await worker.sync();
      expect(workers.map((w) => w.heldActions.length)).toEqual(workers.map(() => 1));
      expect(await jobCounts(a, jobId)).toEqual(["PENDING:2", "RUNNING:200"]);

      // All at once: every worker reports its success in its own sync, on its own replica's connections.
      a.clock.now += 1000;
      for (const worker of workers) worker.finish(worker.heldActions[0]!, { status: "SUCCEEDED", exitCode: 0 });
      await Promise.all(workers.map((w) => w.sync({ runActions: false })));

      const moves = await storeA.transaction((tx) => taskMovesRecorder.takeMoves(tx));
      for (const merge of merges)
        expect(
          moves.filter((m) => m.task === merge.id && m.from === "PENDING" && m.to === "READY"),
          `Merge ${merge.task_index} released once`,
        ).toHaveLength(1);
      const log = await rawOf(storeA).all<{ task: number; lowest: number; zeros: number }>(
        "SELECT task, MIN(waiting) AS lowest, COUNT(*) FILTER (WHERE waiting = 0) AS zeros FROM waiting_log GROUP BY task ORDER BY task",
      );
      // Each fan-in task's count went down one step at a time to 0, never below, and reached 0 once.
      expect(log.map((l) => [Number(l.task), Number(l.lowest), Number(l.zeros)])).toEqual(merges.map((m) => [m.id, 0, 1]));
      // Its value written at creation, then one step down per upstream success.
      expect(await rawOf(storeA).column("SELECT COUNT(*) FROM waiting_log WHERE task = ?", merges[0]!.id)).toEqual([201]);
      // Released (and maybe already handed to the worker whose sync released it).
      expect(await rawOf(storeA).column("SELECT COUNT(*) FROM tasks WHERE job_id = ? AND status IN ('PENDING', 'RUNNING')", jobId)).toEqual([0]);

      // The released tasks run once each.
      hold = false;
      for (const worker of workers) for (const action of [...worker.heldActions]) worker.finish(action, { status: "SUCCEEDED", exitCode: 0 });
      for (const worker of workers) await worker.runUntilIdle();
      expect(await jobCounts(a, jobId)).toEqual(["SUCCEEDED:202"]);
      expect(await rawOf(storeA).column("SELECT COUNT(*) FROM session_actions WHERE kind = 'TASK_RUN' AND task_id IN (?, ?)", merges[0]!.id, merges[1]!.id)).toEqual([2]);
    } finally {
      await storeB.close();
      await storeA.close();
    }
  });
});
