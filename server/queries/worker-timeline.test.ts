/**
 * The Workers page's timeline against a real migrated farm of the run's engine: an in-process worker runs a
 * job with an environment while the test's clock advances by each action's length, and the
 * timeline splits its Session into setup, task and teardown time, clipped to the window asked for.
 */
import { describe, expect, it } from "vitest";
import type { AssignedAction } from "../../lib/farm/protocol";
import { SYSTEM_ACTOR } from "../services/audit";
import { createPool } from "../services/pools";
import { LINUX_WORKER, SimulatedWorker, submit, testFarm, type Outcome, type TestFarm } from "../services/farm-test-support";
import { MAX_WINDOW_MS, sessionSegments, workerTimeline } from "./worker-timeline";

const WITH_ENVIRONMENT = `specificationVersion: jobtemplate-2023-09
name: shots
jobEnvironments:
- name: Farm venv
  script:
    actions:
      onEnter: {command: echo, args: [enter]}
      onExit: {command: echo, args: [exit]}
steps:
- name: Shots
  parameterSpace:
    taskParameterDefinitions:
    - {name: Shot, type: INT, range: "1-2"}
  script:
    actions:
      onRun: {command: echo, args: ['{{Task.Param.Shot}}']}
`;

const LENGTH_MS: Record<AssignedAction["kind"], number> = { ENV_ENTER: 5_000, TASK_RUN: 20_000, ENV_EXIT: 2_000 };

/** A worker whose every action takes LENGTH_MS of the test's clock, with `outcome` deciding how it ends. */
function timedWorker(t: TestFarm, name: string, outcome: (action: AssignedAction) => Exclude<Outcome, "hold"> = () => ({ status: "SUCCEEDED", exitCode: 0 })): Promise<SimulatedWorker> {
  return SimulatedWorker.create(t, LINUX_WORKER(name), (action) => {
    t.clock.now += LENGTH_MS[action.kind];
    return outcome(action);
  });
}

describe("workerTimeline", () => {
  it("splits a Session into environment setup, task runs and teardown, with its outcome and job", async () => {
    const t = await testFarm();
    const start = t.clock.now;
    const jobId = await submit(t, WITH_ENVIRONMENT);
    const worker = await timedWorker(t, "w1");
    await worker.runUntilIdle();
    const idle = await SimulatedWorker.create(t, LINUX_WORKER("w0-idle"));

    const timeline = await workerTimeline(t.farm, { from: start - 60_000, to: t.clock.now + 60_000 });
    expect(timeline.workers.map((w) => [w.name, w.sessions.length])).toEqual([
      ["w0-idle", 0],
      ["w1", 1],
    ]);
    expect(idle.workerId).toBe(timeline.workers[0]!.id);
    const session = timeline.workers[1]!.sessions[0]!;
    expect(session).toMatchObject({ jobId, jobName: "shots", outcome: "SUCCEEDED", state: "ENDED", setupMs: 5_000, taskMs: 40_000, teardownMs: 2_000 });
    expect(session.segments.map((s) => [s.kind, s.status, s.count, s.startedAt - start, (s.endedAt ?? Number.NaN) - start])).toEqual([
      ["ENV_ENTER", "SUCCEEDED", 1, 0, 5_000],
      ["TASK_RUN", "SUCCEEDED", 2, 5_000, 45_000],
      ["ENV_EXIT", "SUCCEEDED", 1, 45_000, 47_000],
    ]);
    expect(timeline.truncated).toBe(false);
  });

  it("clips to the window: what ended before it is left out, what crosses its edges is cut there", async () => {
    const t = await testFarm();
    const start = t.clock.now;
    await submit(t, WITH_ENVIRONMENT);
    await (await timedWorker(t, "w1")).runUntilIdle();

    const middle = (await workerTimeline(t.farm, { from: start + 10_000, to: start + 30_000 })).workers[0]!.sessions[0]!;
    expect({ setup: middle.setupMs, task: middle.taskMs, teardown: middle.teardownMs }).toEqual({ setup: 0, task: 20_000, teardown: 0 });
    expect(middle.segments.map((s) => [s.kind, s.startedAt - start, (s.endedAt ?? Number.NaN) - start])).toEqual([["TASK_RUN", 10_000, 30_000]]);

    expect((await workerTimeline(t.farm, { from: start + 60_000, to: start + 120_000 })).workers[0]!.sessions).toEqual([]);
    expect((await workerTimeline(t.farm, { from: start - 120_000, to: start - 60_000 })).workers[0]!.sessions).toEqual([]);
  });

  it("colours a Session with a failed task as failed", async () => {
    const t = await testFarm();
    await submit(t, WITH_ENVIRONMENT, { settings: { maxRetriesPerTask: 0 } });
    await (await timedWorker(t, "w1", (a) => (a.kind === "TASK_RUN" ? { status: "FAILED", exitCode: 2 } : { status: "SUCCEEDED", exitCode: 0 }))).runUntilIdle();
    const sessions = (await workerTimeline(t.farm, { from: t.clock.now - 3_600_000, to: t.clock.now + 1 })).workers[0]!.sessions;
    expect(sessions.length).toBeGreaterThan(0);
    expect(sessions.every((s) => s.outcome === "FAILED")).toBe(true);
    expect(sessions[0]!.segments.some((s) => s.kind === "TASK_RUN" && s.status === "FAILED")).toBe(true);
  });

  it("refuses a window that ends before it starts or is longer than a day, saying which field", async () => {
    const t = await testFarm();
    await expect(workerTimeline(t.farm, { from: 2_000, to: 1_000 })).rejects.toThrow(/"to"[\s\S]*ends before it starts/);
    await expect(workerTimeline(t.farm, { from: 0, to: MAX_WINDOW_MS + 1 })).rejects.toThrow(/longer than 24 hours/);
    await expect(workerTimeline(t.farm, { from: -5, to: 10 })).rejects.toThrow(/"from"/);
    expect((await workerTimeline(t.farm, { from: 0, to: MAX_WINDOW_MS })).workers).toEqual([]);
  });
});

describe("workerTimeline of one pool", () => {
  it("keeps to that pool's workers and their Sessions", async () => {
    const t = await testFarm();
    await submit(t, WITH_ENVIRONMENT);
    await (await timedWorker(t, "w1")).runUntilIdle();
    const other = await createPool(t.farm, { name: "empty" }, SYSTEM_ACTOR);
    const window = { from: t.clock.now - 3_600_000, to: t.clock.now + 1 };
    expect((await workerTimeline(t.farm, { ...window, poolId: t.pool.id })).workers.map((w) => [w.name, w.sessions.length])).toEqual([["w1", 1]]);
    expect((await workerTimeline(t.farm, { ...window, poolId: other.poolId })).workers).toEqual([]);
  });
});

describe("sessionSegments", () => {
  const task = (startedAt: number, endedAt: number | null, status: "SUCCEEDED" | "FAILED" = "SUCCEEDED") => ({ kind: "TASK_RUN" as const, status, startedAt, endedAt });

  it("merges back-to-back tasks of one outcome, keeps an idle gap and a change of outcome apart, and counts a running one to now", () => {
    const parts = sessionSegments([task(0, 1_000), task(1_500, 2_000), task(10_000, 11_000), task(11_000, 12_000, "FAILED"), task(12_000, null)], 0, 60_000, 15_000);
    expect(parts.segments.map((s) => [s.startedAt, s.endedAt, s.status, s.count])).toEqual([
      [0, 2_000, "SUCCEEDED", 2],
      [10_000, 11_000, "SUCCEEDED", 1],
      [11_000, 12_000, "FAILED", 1],
      [12_000, null, "SUCCEEDED", 1],
    ]);
    expect(parts.taskMs).toBe(1_000 + 500 + 1_000 + 1_000 + 3_000);
  });
});
