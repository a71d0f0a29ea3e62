/**
 * The overview through createCaller against a real migrated SQLite: tasks that a simulated worker
 * finished in different minutes land in the right per-minute buckets; workers and tasks are
 * counted per status; the subscription pushes a new snapshot when the farm changes.
 */
import { describe, expect, it } from "vitest";
import { drainWorker } from "../services/drain-worker";
import { LINUX_WORKER, SimulatedWorker, submit, testFarm } from "../services/farm-test-support";
import { appRouter } from "./index";
import { createCallerFactory } from "./trpc";
import { contextAs } from "../auth/test-principals";
import { SYSTEM_ACTOR } from "../services/audit";

const FOUR_TASKS =
  "specificationVersion: jobtemplate-2023-09\nname: J\nsteps:\n- name: S\n  parameterSpace:\n    taskParameterDefinitions:\n    - {name: F, type: INT, range: '1-4'}\n  script:\n    actions:\n      onRun: {command: echo, args: ['{{Task.Param.F}}']}\n";

const MINUTE = 60_000;
/** A whole minute, so the expected buckets below are plain arithmetic. */
const M = 28_333_340;

describe("overview", () => {
  it("counts tasks finished per minute over the last hour, oldest minute first", async () => {
    const t = await testFarm();
    const api = createCallerFactory(appRouter)(await contextAs(t.farm, "admin"));
    t.clock.now = (M - 61) * MINUTE + 10_000;
    await submit(t, FOUR_TASKS, { settings: { maxRetriesPerTask: 0 } });
    const worker = await SimulatedWorker.create(t, LINUX_WORKER("w"), () => "hold");
    await worker.sync();
    // Each held task ends at the clock's time (the third one fails); the sync reports it and may hand out more.
    const ends = [(M - 61) * MINUTE + 10_000, (M - 2) * MINUTE + 5_000, (M - 2) * MINUTE + 50_000, M * MINUTE + 20_000];
    for (const [i, at] of ends.entries()) {
      t.clock.now = at;
      const held = worker.heldActions[0];
      if (!held) throw new Error(`no task held before end ${i}`);
      worker.finish(held, i === 2 ? { status: "FAILED", exitCode: 1 } : { status: "SUCCEEDED", exitCode: 0 });
      await worker.sync();
    }
    t.clock.now = M * MINUTE + 30_000;
    await worker.sync();

    const overview = await api.overview.get();
    expect(overview.at).toBe(M * MINUTE + 30_000);
    expect(overview.finishedPerMinute).toHaveLength(60);
    expect(overview.finishedPerMinute[0]?.start).toBe((M - 59) * MINUTE);
    expect(overview.finishedPerMinute[59]?.start).toBe(M * MINUTE);
    const nonEmpty = overview.finishedPerMinute.map((b, i) => [i, b.succeeded, b.failed]).filter(([, s, f]) => s! + f! > 0);
    // The task of minute M-61 is outside the window.
    expect(nonEmpty).toEqual([
      [57, 1, 1],
      [59, 1, 0],
    ]);
    expect(overview.tasks).toMatchObject({ SUCCEEDED: 3, FAILED: 1, READY: 0, RUNNING: 0 });
    expect(overview.workers).toMatchObject({ IDLE: 1, RUNNING: 0 });

    const wider = await api.overview.get({ minutes: 62 });
    expect(wider.finishedPerMinute.reduce((sum, b) => sum + b.succeeded, 0)).toBe(3);
    expect(wider.finishedPerMinute[0]).toMatchObject({ start: (M - 61) * MINUTE, succeeded: 1 });
  });

  it("counts workers per status with the drained ones, and pushes a snapshot when they change", async () => {
    const t = await testFarm();
    const factory = createCallerFactory(appRouter);
    await submit(t, FOUR_TASKS);
    const busy = await SimulatedWorker.create(t, LINUX_WORKER("busy"), () => "hold");
    await busy.sync();
    const idle = await SimulatedWorker.create(t, LINUX_WORKER("idle"), () => "hold");
    await drainWorker(t.farm, idle.workerId, "AFTER_TASK", SYSTEM_ACTOR);
    await idle.sync();

    const controller = new AbortController();
    const iterator = (await factory(await contextAs(t.farm, "admin"), { signal: controller.signal }).overview.onChange())[Symbol.asyncIterator]();
    const first = ((await iterator.next()).value as unknown as [string, { workers: Record<string, number>; workersDrained: number; tasks: Record<string, number> }])[1];
    expect(first.workers).toMatchObject({ RUNNING: 1, IDLE: 1 });
    expect(first.workersDrained).toBe(1);
    expect(first.tasks).toMatchObject({ ASSIGNED: 1, READY: 3 });

    const next = iterator.next();
    busy.finish(busy.heldActions[0]!, { status: "SUCCEEDED", exitCode: 0 });
    await busy.sync();
    const second = ((await next).value as unknown as [string, { tasks: Record<string, number> }])[1];
    expect(second.tasks.SUCCEEDED).toBe(1);
    expect(Object.values(second.tasks).reduce((a, b) => a + b, 0)).toBe(4);
    controller.abort();
    expect((await iterator.next()).done).toBe(true);
  });
});
