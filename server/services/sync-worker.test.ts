/**
 * The scheduler through the worker protocol's services (register, sync) against a real migrated
 * SQLite: dependency order, Session reuse, retries and the failure limit, NOT_COMPATIBLE, leases
 * and lost workers, cancel and drain. Workers are played in-process (farm-test-support.ts).
 */
import { describe, expect, it } from "vitest";
import type { SyncRequest } from "../../lib/farm/protocol";
import { AppError } from "../context/errors";
import { rawOf } from "../store/store-test-support";
import { cancelTasks } from "./cancel-tasks";
import { refreshCompatibility } from "./compatibility";
import { drainWorker } from "./drain-worker";
import { jobCounts, jobStatus, LINUX_WORKER, SimulatedWorker, submit, testFarm, type TestFarm } from "./farm-test-support";
import { registerWorker } from "./register-worker";
import { sweepWorkers } from "./sweep-workers";
import { coalesce, syncWorker } from "./sync-worker";
import { SYSTEM_ACTOR } from "./audit";
import type { WorkerIdentity } from "./authenticate-worker";

const echo = "script:\n    actions:\n      onRun: {command: echo, args: ['{{Task.Param.F}}']}";
const frames = (range: string) => `parameterSpace:\n    taskParameterDefinitions:\n    - {name: F, type: INT, range: '${range}'}`;
/** A job of one step S with a task per frame of `range`. */
const oneStep = (name: string, range: string) => `specificationVersion: jobtemplate-2023-09\nname: ${name}\nsteps:\n- name: S\n  ${frames(range)}\n  ${echo}\n`;

/** One sync straight through syncWorker, in a unit of work of its own. */
const syncOnce = (t: TestFarm, caller: WorkerIdentity, request: SyncRequest) => t.farm.store.transaction((tx) => syncWorker(t.farm, tx, caller, request));

const THREE_STEPS = `
specificationVersion: jobtemplate-2023-09
name: three
jobEnvironments:
- name: Farm
  variables: {A: '1'}
steps:
- name: Render
  ${frames("1-4")}
  ${echo}
- name: Comp
  dependencies: [{dependsOn: Render}]
  ${frames("1-2")}
  ${echo}
- name: Publish
  dependencies: [{dependsOn: Comp}]
  ${echo.replace("{{Task.Param.F}}", "done")}
`;

describe("dispatch", () => {
  it("runs a 3-step job in dependency order on two workers to SUCCEEDED", async () => {
    const t = await testFarm();
    const jobId = await submit(t, THREE_STEPS);
    expect(await jobCounts(t, jobId)).toEqual(["PENDING:3", "READY:4"]);
    const timeline: string[] = [];
    const a = await SimulatedWorker.create(t, LINUX_WORKER("a"), undefined, timeline);
    const b = await SimulatedWorker.create(t, LINUX_WORKER("b"), undefined, timeline);
    for (let i = 0; i < 50 && (await jobStatus(t, jobId)) !== "SUCCEEDED"; i++) {
      await a.sync();
      await b.sync();
    }
    expect(await jobStatus(t, jobId)).toBe("SUCCEEDED");
    expect(await jobCounts(t, jobId)).toEqual(["SUCCEEDED:7"]);
    const tasks = [...a.log, ...b.log].filter((l) => l.startsWith("TASK_RUN"));
    expect(tasks.sort()).toEqual(["TASK_RUN Comp 1", "TASK_RUN Comp 2", "TASK_RUN Publish", "TASK_RUN Render 1", "TASK_RUN Render 2", "TASK_RUN Render 3", "TASK_RUN Render 4"]);
    // Across both workers: no Comp before every Render ran, no Publish before every Comp.
    const tasksInOrder = timeline.filter((l) => l.startsWith("TASK_RUN")).map((l) => l.split(" ")[1]);
    expect(tasksInOrder.lastIndexOf("Render")).toBeLessThan(tasksInOrder.indexOf("Comp"));
    expect(tasksInOrder.lastIndexOf("Comp")).toBeLessThan(tasksInOrder.indexOf("Publish"));
    expect(a.log.some((l) => l.startsWith("TASK_RUN")) && b.log.some((l) => l.startsWith("TASK_RUN"))).toBe(true);
  });

  it("runs 10 tasks of one step on one worker entering the environments once", async () => {
    const t = await testFarm();
    const jobId = await submit(t, THREE_STEPS.replace("range: '1-4'", "range: '1-10'"));
    const worker = await SimulatedWorker.create(t, LINUX_WORKER("solo"));
    await worker.runUntilIdle();
    expect(await jobStatus(t, jobId)).toBe("SUCCEEDED");
    expect(worker.log.filter((l) => l.startsWith("ENV_ENTER"))).toEqual(["ENV_ENTER job:Farm"]);
    expect(worker.log.filter((l) => l.startsWith("ENV_EXIT"))).toEqual(["ENV_EXIT job:Farm"]);
    expect(worker.log.filter((l) => l.startsWith("TASK_RUN"))).toHaveLength(13);
  });

  it("prefers higher priority, then earlier submission", async () => {
    const t = await testFarm();
    const oneReadyTask = oneStep("one", "1-1");
    await submit(t, oneReadyTask, { settings: { priority: 10 } });
    const high = await submit(t, oneReadyTask, { settings: { priority: 90 } });
    const highLater = await submit(t, oneReadyTask, { settings: { priority: 90 } });
    const [first, second] = [await SimulatedWorker.create(t, LINUX_WORKER("a"), () => "hold"), await SimulatedWorker.create(t, LINUX_WORKER("b"), () => "hold")];
    expect((await first.sync()).assignments[0]?.job.id).toBe(high);
    expect((await second.sync()).assignments[0]?.job.id).toBe(highLater);
  });
});

describe("task buffering", () => {
  const many = oneStep("short", "1-100");
  const taskRuns = (r: { assignments: Array<{ actions: Array<{ kind: string }> }> }) => r.assignments.flatMap((a) => a.actions).filter((a) => a.kind === "TASK_RUN").length;

  it("hands out one task until a runtime is known, then as many short ones as fit in 2 s (at most 64)", async () => {
    const t = await testFarm();
    await submit(t, many);
    const worker = await SimulatedWorker.create(t, LINUX_WORKER("w"), () => {
      t.clock.now += 100; // every action "takes" 100 ms
      return { status: "SUCCEEDED", exitCode: 0 };
    });
    expect(taskRuns(await worker.sync())).toBe(1);
    expect(taskRuns(await worker.sync())).toBe(20);
  });

  it("while a job's first task is out, a worker opening a Session probes the next job", async () => {
    const t = await testFarm();
    const [first, second] = [await submit(t, oneStep("first", "1-10")), await submit(t, oneStep("second", "1-10"))];
    const [a, b, c] = [
      await SimulatedWorker.create(t, LINUX_WORKER("a"), () => "hold"),
      await SimulatedWorker.create(t, LINUX_WORKER("b"), () => "hold"),
      await SimulatedWorker.create(t, LINUX_WORKER("c"), () => "hold"),
    ];
    expect((await a!.sync()).assignments[0]?.job.id).toBe(first);
    expect((await b!.sync()).assignments[0]?.job.id).toBe(second);
    // Both are being probed: submission order again.
    expect((await c!.sync()).assignments[0]?.job.id).toBe(first);
  });

  it("a probe runs one task, then its worker goes back to the earlier job", async () => {
    const t = await testFarm();
    const [first, second] = [await submit(t, oneStep("first", "1-10")), await submit(t, oneStep("second", "1-10"))];
    const a = await SimulatedWorker.create(t, LINUX_WORKER("a"), () => "hold");
    const b = await SimulatedWorker.create(t, LINUX_WORKER("b"));
    expect((await a.sync()).assignments[0]?.job.id).toBe(first);
    const probe = (await b.sync()).assignments;
    expect(probe.map((s) => [s.job.id, taskRuns({ assignments: [s] })])).toEqual([[second, 1]]);
    // Its task reported, the probe Session ends and the worker takes the first job's next tasks.
    const back = (await b.sync()).assignments;
    expect(back.map((s) => [s.job.id, s.end])).toEqual([
      [second, true],
      [first, false],
    ]);
  });

  it("a Session with nothing to exit ends in the answer that starts the next one", async () => {
    const t = await testFarm();
    const [first, second] = [await submit(t, oneStep("first", "1-1")), await submit(t, oneStep("second", "1-1"))];
    const worker = await SimulatedWorker.create(t, LINUX_WORKER("w"));
    const opened = (await worker.sync()).assignments;
    expect(opened.map((a) => [a.job.id, a.end])).toEqual([[first, false]]);
    const next = (await worker.sync()).assignments;
    expect(next.map((a) => [a.job.id, a.end, taskRuns({ assignments: [a] })])).toEqual([
      [first, true, 0],
      [second, false, 1],
    ]);
    const state = await rawOf(t.farm.store).get<{ state: string }>("SELECT state FROM sessions WHERE id = ?", opened[0]!.sessionId);
    expect(state?.state).toBe("ENDED");
  });

  it("long tasks go one at a time", async () => {
    const t = await testFarm();
    await submit(t, many);
    const worker = await SimulatedWorker.create(t, LINUX_WORKER("w"), () => {
      t.clock.now += 5_000;
      return { status: "SUCCEEDED", exitCode: 0 };
    });
    await worker.sync();
    expect(taskRuns(await worker.sync())).toBe(1);
    expect(taskRuns(await worker.sync())).toBe(1);
  });

  it("a failure in a buffer ends the Session; the tasks queued behind it come back READY, uncharged", async () => {
    const t = await testFarm();
    const jobId = await submit(t, many, { settings: { maxRetriesPerTask: 0, maxFailedTasks: 100 } });
    let n = 0;
    const worker = await SimulatedWorker.create(t, LINUX_WORKER("w"), (a) => {
      if (a.kind !== "TASK_RUN") return { status: "SUCCEEDED", exitCode: 0 };
      n++;
      if (n === 3) return { status: "FAILED", exitCode: 1 };
      if (n > 3 && n <= 20) return { status: "NEVER_ATTEMPTED", exitCode: null };
      return { status: "SUCCEEDED", exitCode: 0 };
    });
    await worker.runUntilIdle();
    expect(await jobCounts(t, jobId)).toEqual(["FAILED:1", "SUCCEEDED:99"]);
    const charged = (await rawOf(t.farm.store).get<{ n: number }>("SELECT COUNT(*) AS n FROM tasks WHERE job_id = ? AND failure_count > 0", jobId))?.n;
    expect(charged).toBe(1);
  });
});

describe("failures", () => {
  const failing = oneStep("flaky", "1-3");

  it("retries a failed task up to maxRetriesPerTask, then FAILED; the job fails after maxFailedTasks", async () => {
    const t = await testFarm();
    const jobId = await submit(t, failing, { settings: { maxRetriesPerTask: 1, maxFailedTasks: 0, retryDelaySeconds: 0 } });
    // The actions that ran task 2, in the order the worker ran them (its last is where it last ran).
    const ranTask2: string[] = [];
    const worker = await SimulatedWorker.create(t, LINUX_WORKER("w"), (a) => {
      if (a.kind === "TASK_RUN" && a.parameters?.F?.value === "2") {
        ranTask2.push(a.actionId);
        return { status: "FAILED", exitCode: 3 };
      }
      return { status: "SUCCEEDED", exitCode: 0 };
    });
    await worker.runUntilIdle();
    const attempts = worker.log.filter((l) => l === "TASK_RUN S 2");
    expect(attempts).toHaveLength(2);
    expect(await jobStatus(t, jobId)).toBe("FAILED");
    // The task's actions are those the worker ran, so its last one is the one the worker ran last.
    const raw = rawOf(t.farm.store);
    expect(new Set(await raw.column<string>("SELECT id FROM session_actions WHERE task_id = (SELECT id FROM tasks WHERE job_id = ? AND task_index = 1)", jobId))).toEqual(new Set(ranTask2));
    const task2 = await raw.get<{ status: string; failure_count: number; worker_id: string | null; last_session: number }>(
      "SELECT status, failure_count, worker_id, session_id = (SELECT session_id FROM session_actions WHERE id = ?) AS last_session FROM tasks WHERE job_id = ? AND task_index = 1",
      ranTask2.at(-1)!,
      jobId,
    );
    // Out of retries, it keeps where it last ran: the wrangler opens that Session's log.
    expect(task2).toEqual({ status: "FAILED", failure_count: 2, worker_id: worker.workerId, last_session: 1 });
  });

  it("a failure ends the Session: its environments are exited before the next Session starts", async () => {
    const t = await testFarm();
    await submit(t, THREE_STEPS, { settings: { maxRetriesPerTask: 5 } });
    let failed = false;
    const worker = await SimulatedWorker.create(t, LINUX_WORKER("w"), (a) => {
      if (a.kind === "TASK_RUN" && !failed) {
        failed = true;
        return { status: "FAILED", exitCode: 1 };
      }
      return { status: "SUCCEEDED", exitCode: 0 };
    });
    await worker.runUntilIdle();
    expect(worker.log.slice(0, 4)).toEqual(["ENV_ENTER job:Farm", "TASK_RUN Render 1", "ENV_EXIT job:Farm", "ENV_ENTER job:Farm"]);
  });
});

describe("NOT_COMPATIBLE", () => {
  it("holds a step no worker can run, with the reason, and releases it when a matching worker registers", async () => {
    const t = await testFarm();
    await SimulatedWorker.create(t, LINUX_WORKER("linux"));
    const jobId = await submit(
      t,
      `
specificationVersion: jobtemplate-2023-09
name: win
steps:
- name: W
  hostRequirements:
    attributes: [{name: attr.worker.os.family, anyOf: [windows]}]
  ${echo.replace("{{Task.Param.F}}", "x")}
`,
    );
    await refreshCompatibility(t.farm);
    expect(await jobStatus(t, jobId)).toBe("NOT_COMPATIBLE");
    const reason = (await rawOf(t.farm.store).get<{ r: string }>("SELECT incompatible_reason AS r FROM steps WHERE job_id = ?", jobId))?.r;
    expect(reason).toBe("no worker of an enabled pool matches its host requirements (1 checked): needs attr.worker.os.family any of [windows], worker has [linux]");
    await SimulatedWorker.create(t, { name: "win", capabilities: { amounts: {}, attributes: { "attr.worker.os.family": ["windows"] } } });
    expect(await jobStatus(t, jobId)).toBe("READY");
  });
});

describe("leases", () => {
  it("a silent worker is declared lost: its task goes back to READY and another worker finishes it, once", async () => {
    const t = await testFarm({ workerTimeoutSeconds: 60 });
    const jobId = await submit(t, THREE_STEPS);
    const lost = await SimulatedWorker.create(t, LINUX_WORKER("lost"), (a) => (a.kind === "TASK_RUN" ? "hold" : { status: "SUCCEEDED", exitCode: 0 }));
    await lost.sync();
    expect(lost.heldActions).toHaveLength(1);
    t.clock.now += 61_000;
    expect((await sweepWorkers(t.farm)).lost).toEqual([lost.workerId]);
    expect(await jobCounts(t, jobId)).toEqual(["PENDING:3", "READY:4"]);
    const other = await SimulatedWorker.create(t, LINUX_WORKER("other"));
    await other.runUntilIdle();
    expect(await jobStatus(t, jobId)).toBe("SUCCEEDED");
    // The lost worker comes back and reports success for the task it held: refused.
    lost.finish(lost.heldActions[0] as string, { status: "SUCCEEDED", exitCode: 0 });
    await expect(lost.sync()).rejects.toThrow(AppError);
    const interruptions = (await rawOf(t.farm.store).get<{ n: number }>("SELECT SUM(interruption_count) AS n FROM tasks WHERE job_id = ?", jobId))?.n;
    expect(interruptions).toBe(1);
    expect(await jobCounts(t, jobId)).toEqual(["SUCCEEDED:7"]);
  });

  it("a second agent under a connected worker's name is refused; the same agent, or one after the timeout, takes it", async () => {
    const t = await testFarm({ workerTimeoutSeconds: 60 });
    const capabilities = LINUX_WORKER("x").capabilities;
    const first = await registerWorker(t.farm, t.pool, { name: "render-01", capabilities, instanceId: "instance-a" });
    await expect(registerWorker(t.farm, t.pool, { name: "render-01", capabilities, instanceId: "instance-b" })).rejects.toThrow(/a worker named 'render-01' is connected/);
    const again = await registerWorker(t.farm, t.pool, { name: "render-01", capabilities, instanceId: "instance-a" });
    expect(again).toMatchObject({ workerId: first.workerId, leaseEpoch: first.leaseEpoch + 1 });
    t.clock.now += 61_000;
    const taken = await registerWorker(t.farm, t.pool, { name: "render-01", capabilities, instanceId: "instance-b" });
    expect(taken).toMatchObject({ workerId: first.workerId, leaseEpoch: first.leaseEpoch + 2 });
  });

  it("refuses a sync with an old lease epoch", async () => {
    const t = await testFarm();
    const worker = await SimulatedWorker.create(t, LINUX_WORKER("w"));
    await expect(syncOnce(t, await worker.identity, { workerId: worker.workerId, leaseEpoch: worker.leaseEpoch + 1, sessions: [], actions: [], updates: [] })).rejects.toThrow(/no longer valid/);
  });

  it("refuses a report for another worker, whatever lease epoch it names; the real worker's report counts", async () => {
    const t = await testFarm();
    const jobId = await submit(t, "specificationVersion: jobtemplate-2023-09\nname: J\nsteps:\n- name: S\n  script:\n    actions:\n      onRun: {command: echo}\n");
    const real = await SimulatedWorker.create(t, LINUX_WORKER("real"), () => "hold");
    const forger = await SimulatedWorker.create(t, LINUX_WORKER("forger"));
    const [actionId] = (await real.sync()).assignments[0]!.actions.map((a) => a.actionId);
    const forged = { workerId: real.workerId, leaseEpoch: real.leaseEpoch, sessions: [], actions: [], updates: [{ actionId: actionId!, status: "FAILED" as const, exitCode: 1 }] };
    await expect(syncOnce(t, await forger.identity, forged)).rejects.toThrow(`this credential belongs to worker ${forger.workerId}, not ${real.workerId}`);
    real.finish(actionId!, { status: "SUCCEEDED", exitCode: 0 });
    await real.runUntilIdle();
    expect(await jobCounts(t, jobId)).toEqual(["SUCCEEDED:1"]);
  });
});

describe("wrangler and admin actions", () => {
  it("cancel reaches the running task's worker; the Session's environments are exited", async () => {
    const t = await testFarm();
    const jobId = await submit(t, THREE_STEPS);
    const worker = await SimulatedWorker.create(t, LINUX_WORKER("w"), (a) => (a.kind === "TASK_RUN" ? "hold" : { status: "SUCCEEDED", exitCode: 0 }));
    await worker.sync();
    const running = worker.heldActions[0] as string;
    await cancelTasks(t.farm, { jobId }, SYSTEM_ACTOR);
    const response = await worker.sync();
    expect(response.cancel).toEqual([running]);
    await worker.runUntilIdle();
    expect(worker.log).toEqual(["ENV_ENTER job:Farm", "TASK_RUN Render 1", "ENV_EXIT job:Farm"]);
    expect(await jobStatus(t, jobId)).toBe("CANCELED");
  });

  it("drain NOW cancels the running task, which goes back to READY for another worker", async () => {
    const t = await testFarm();
    const jobId = await submit(t, THREE_STEPS);
    const drained = await SimulatedWorker.create(t, LINUX_WORKER("d"), (a) => (a.kind === "TASK_RUN" ? "hold" : { status: "SUCCEEDED", exitCode: 0 }));
    await drained.sync();
    await drainWorker(t.farm, drained.workerId, "NOW", SYSTEM_ACTOR);
    expect((await drained.sync()).cancel).toHaveLength(1);
    await drained.runUntilIdle();
    expect(drained.log.at(-1)).toBe("ENV_EXIT job:Farm");
    expect(await jobCounts(t, jobId)).toEqual(["PENDING:3", "READY:4"]);
    await (await SimulatedWorker.create(t, LINUX_WORKER("e"))).runUntilIdle();
    expect(await jobStatus(t, jobId)).toBe("SUCCEEDED");
  });
});

describe("coalesce", () => {
  it("folds a RUNNING report into the same action's end in one sync, keeping start time, progress and status", async () => {
    expect(
      coalesce([
        { actionId: "a", status: "RUNNING", startedAt: 5, progress: 40 },
        { actionId: "b", status: "RUNNING", startedAt: 6 },
        { actionId: "a", status: "RUNNING", statusMessage: "half" },
        { actionId: "a", status: "SUCCEEDED", exitCode: 0, endedAt: 9 },
      ]),
    ).toEqual([
      { actionId: "b", status: "RUNNING", startedAt: 6 },
      { actionId: "a", status: "SUCCEEDED", exitCode: 0, endedAt: 9, startedAt: 5, progress: 40, statusMessage: "half" },
    ]);
  });

  it("leaves reports alone when no action ended", async () => {
    const updates = [{ actionId: "a", status: "RUNNING" as const, startedAt: 1 }];
    expect(coalesce(updates)).toEqual(updates);
  });
});
