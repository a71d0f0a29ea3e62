/**
 * Retries that help (issue 11 point 4), on a real migrated SQLite through the sync service and the
 * router: the retry delay (not dispatched before its time, dispatched at it, doubling), the
 * per-worker failure rule (a worker kept away from a job while another takes it, until a wrangler
 * clears it; viewers and artists cannot) and the preference for another worker on a retry.
 */
import { TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import type { AssignedAction } from "../../lib/farm/protocol";
import { testPrincipal } from "../auth/test-principals";
import { jobWorkerFailures, taskRetryFacts, workerRule } from "../queries/retry-rules";
import { listWorkers } from "../queries/workers";
import { appRouter } from "../router";
import { callerContext, createCallerFactory } from "../router/trpc";
import { rawOf } from "../store/store-test-support";
import { LINUX_WORKER, SimulatedWorker, submit, testFarm, type Outcome, type TestFarm } from "./farm-test-support";

const job = (frames: string) => `specificationVersion: jobtemplate-2023-09
name: flaky
steps:
- name: S
  parameterSpace:
    taskParameterDefinitions:
    - {name: F, type: INT, range: '${frames}'}
  script:
    actions:
      onRun: {command: "false"}
`;

const FAIL: Outcome = { status: "FAILED", exitCode: 1, failMessage: "exit 1" };
const failTasks = (a: AssignedAction): Outcome => (a.kind === "TASK_RUN" ? FAIL : { status: "SUCCEEDED", exitCode: 0 });
const runs = (w: SimulatedWorker) => w.log.filter((l) => l.startsWith("TASK_RUN")).length;
const taskId = async (t: TestFarm, jobId: string, index = 0) => (await rawOf(t.farm.store).get<{ id: number }>("SELECT id FROM tasks WHERE job_id = ? AND task_index = ?", jobId, index))!.id;
const taskStatus = async (t: TestFarm, id: number) => (await rawOf(t.farm.store).get<{ status: string }>("SELECT status FROM tasks WHERE id = ?", id))!.status;
const api = async (t: TestFarm, role: "viewer" | "artist" | "wrangler") => createCallerFactory(appRouter)(callerContext(t.farm, await testPrincipal(t.farm, role, `rr-${role}`)));

describe("the retry delay", () => {
  it("keeps a failed task READY but undispatched until its time, then dispatches it; the delay doubles", async () => {
    const t = await testFarm();
    const jobId = await submit(t, job("1"), { settings: { maxRetriesPerTask: 3, retryDelaySeconds: 10 } });
    const id = await taskId(t, jobId);
    const w = await SimulatedWorker.create(t, LINUX_WORKER("w"), failTasks);
    await w.runUntilIdle();
    expect(runs(w)).toBe(1);
    const failedAt = t.clock.now;
    expect(await taskStatus(t, id)).toBe("READY");
    expect((await taskRetryFacts(t.farm, id, t.clock.now)).retryNotBefore).toBe(failedAt + 10_000);

    t.clock.now = failedAt + 9_999;
    await w.runUntilIdle();
    expect(runs(w)).toBe(1);
    t.clock.now = failedAt + 10_000;
    await w.runUntilIdle();
    expect(runs(w)).toBe(2);

    // Second failure: twice the wait.
    const secondAt = t.clock.now;
    expect((await taskRetryFacts(t.farm, id, secondAt)).retryNotBefore).toBe(secondAt + 20_000);
    t.clock.now = secondAt + 19_999;
    await w.runUntilIdle();
    expect(runs(w)).toBe(2);
    t.clock.now = secondAt + 20_000;
    await w.runUntilIdle();
    expect(runs(w)).toBe(3);
    expect((await taskRetryFacts(t.farm, id, t.clock.now + 1)).retryNotBefore).toBe(secondAt + 20_000 + 40_000);
  });

  it("lets a worker take another task of the step, or another job, while a retry waits", async () => {
    const t = await testFarm();
    const jobId = await submit(t, job("1-3"), { settings: { maxRetriesPerTask: 3, retryDelaySeconds: 60, maxWorkerFailures: 0 } });
    const w = await SimulatedWorker.create(t, LINUX_WORKER("w"), (a) => (a.kind === "TASK_RUN" && a.parameters?.F?.value === "1" ? FAIL : { status: "SUCCEEDED", exitCode: 0 }));
    await w.runUntilIdle();
    expect(w.log.filter((l) => l.startsWith("TASK_RUN"))).toEqual(["TASK_RUN S 1", "TASK_RUN S 2", "TASK_RUN S 3"]);
    expect(await taskStatus(t, await taskId(t, jobId, 0))).toBe("READY");
  });

  it("a requeue by a wrangler runs at once: it drops the wait with the budget", async () => {
    const t = await testFarm();
    const jobId = await submit(t, job("1"), { settings: { maxRetriesPerTask: 3, retryDelaySeconds: 600 } });
    const w = await SimulatedWorker.create(t, LINUX_WORKER("w"), failTasks);
    await w.runUntilIdle();
    await (await api(t, "wrangler")).jobs.requeue({ jobId });
    await w.sync({ runActions: false });
    expect(await taskStatus(t, await taskId(t, jobId))).toBe("ASSIGNED");
  });
});

describe("the per-worker failure rule", () => {
  it("keeps a worker away from a job after N failures there while another worker takes it; a wrangler's clear lets it back", async () => {
    const t = await testFarm();
    const jobId = await submit(t, job("1-3"), { settings: { maxRetriesPerTask: 10, retryDelaySeconds: 0, maxWorkerFailures: 2 } });
    const w = await SimulatedWorker.create(t, LINUX_WORKER("w"), failTasks);
    await w.runUntilIdle();
    // Alone on the farm it retried its own failure (the preference is soft), then was kept away.
    expect(runs(w)).toBe(2);
    expect(await workerRule(t.farm, jobId, w.workerId)).toEqual({ blocked: true, failures: 2 });
    await w.runUntilIdle();
    expect(runs(w)).toBe(2);

    const v = await SimulatedWorker.create(t, LINUX_WORKER("v"), () => "hold");
    expect((await v.sync()).assignments.flatMap((a) => a.actions).filter((a) => a.kind === "TASK_RUN")).toHaveLength(1);
    expect((await w.sync()).assignments).toEqual([]);

    const failures = await jobWorkerFailures(t.farm, jobId);
    expect(failures.maxWorkerFailures).toBe(2);
    expect(failures.workers.map((f) => [f.workerName, f.failures, f.blockedAt !== null, f.lastMessage])).toEqual([["w", 2, true, "exit 1"]]);
    expect((await listWorkers(t.farm)).map((x) => [x.name, x.keptAwayFrom.map((k) => k.jobName)])).toEqual([
      ["v", []],
      ["w", ["flaky"]],
    ]);

    for (const role of ["viewer", "artist"] as const) {
      const refused = await (await api(t, role)).jobs.clearWorkerFailures({ jobId, workerId: w.workerId }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(TRPCError);
      expect((refused as TRPCError).code).toBe("FORBIDDEN");
    }
    expect((await workerRule(t.farm, jobId, w.workerId)).blocked).toBe(true);

    expect(await (await api(t, "wrangler")).jobs.clearWorkerFailures({ jobId, workerId: w.workerId })).toEqual({ cleared: 1 });
    expect(await workerRule(t.farm, jobId, w.workerId)).toEqual({ blocked: false, failures: 0 });
    expect((await w.sync({ runActions: false })).assignments.flatMap((a) => a.actions).filter((a) => a.kind === "TASK_RUN")).toHaveLength(1);
    const audit = await rawOf(t.farm.store).all<{ actor_name: string; target_id: string; before: string }>(
      "SELECT actor_name, target_id, before FROM audit_log WHERE action = 'job.clear-worker-failures'",
    );
    expect(audit).toEqual([{ actor_name: "rr-wrangler", target_id: jobId, before: JSON.stringify([{ workerId: w.workerId, failures: 2, keptAway: true }]) }]);
    expect((await listWorkers(t.farm)).find((x) => x.name === "w")?.keptAwayFrom).toEqual([]);
  });

  it("gives the cleared worker the job's tasks again", async () => {
    const t = await testFarm();
    const jobId = await submit(t, job("1-2"), { settings: { maxRetriesPerTask: 10, retryDelaySeconds: 0, maxWorkerFailures: 1 } });
    let broken = true;
    const w = await SimulatedWorker.create(t, LINUX_WORKER("w"), (a) => (a.kind === "TASK_RUN" && broken ? FAIL : { status: "SUCCEEDED", exitCode: 0 }));
    await w.runUntilIdle();
    expect(runs(w)).toBe(1);
    expect((await workerRule(t.farm, jobId, w.workerId)).blocked).toBe(true);
    broken = false; // the plug-in is installed
    await (await api(t, "wrangler")).jobs.clearWorkerFailures({ jobId });
    await w.runUntilIdle();
    expect(runs(w)).toBe(3);
    expect((await rawOf(t.farm.store).get<{ n: number }>("SELECT COUNT(*) AS n FROM tasks WHERE job_id = ? AND status = 'SUCCEEDED'", jobId))!.n).toBe(2);
  });

  it("a wrangler's retry-failed clears the job's failure rule, so the kept-away worker runs the task again", async () => {
    const t = await testFarm();
    const jobId = await submit(t, job("1"), { settings: { maxRetriesPerTask: 0, retryDelaySeconds: 0, maxWorkerFailures: 1 } });
    let broken = true;
    const w = await SimulatedWorker.create(t, LINUX_WORKER("w"), (a) => (a.kind === "TASK_RUN" && broken ? FAIL : { status: "SUCCEEDED", exitCode: 0 }));
    await w.runUntilIdle();
    expect([runs(w), await taskStatus(t, await taskId(t, jobId)), (await workerRule(t.farm, jobId, w.workerId)).blocked]).toEqual([1, "FAILED", true]);
    broken = false;
    expect(await (await api(t, "wrangler")).jobs.retryFailed({ jobId })).toEqual({ changed: 1, dependents: 0 });
    expect((await workerRule(t.farm, jobId, w.workerId)).blocked).toBe(false);
    await w.runUntilIdle();
    expect([runs(w), await taskStatus(t, await taskId(t, jobId))]).toEqual([2, "SUCCEEDED"]);
  });

  it("with maxWorkerFailures 0 never keeps a worker away", async () => {
    const t = await testFarm();
    const jobId = await submit(t, job("1"), { settings: { maxRetriesPerTask: 4, retryDelaySeconds: 0, maxWorkerFailures: 0 } });
    // A bare non-zero exit: the failure row remembers its exit code.
    const w = await SimulatedWorker.create(t, LINUX_WORKER("w"), (a) => (a.kind === "TASK_RUN" ? { status: "FAILED", exitCode: 7 } : { status: "SUCCEEDED", exitCode: 0 }));
    await w.runUntilIdle();
    expect(runs(w)).toBe(5);
    expect((await jobWorkerFailures(t.farm, jobId)).workers.map((f) => f.lastMessage)).toEqual(["exit code 7"]);
    expect(await workerRule(t.farm, jobId, w.workerId)).toEqual({ blocked: false, failures: 5 });
  });

  it("sends a retry to another idle compatible worker rather than the one it failed on", async () => {
    const t = await testFarm();
    const v = await SimulatedWorker.create(t, LINUX_WORKER("v"), () => "hold");
    await v.sync(); // idle, before the job exists
    const jobId = await submit(t, job("1"), { settings: { maxRetriesPerTask: 3, retryDelaySeconds: 0, maxWorkerFailures: 5 } });
    const w = await SimulatedWorker.create(t, LINUX_WORKER("w"), failTasks);
    await w.runUntilIdle();
    expect(runs(w)).toBe(1);
    expect(await taskStatus(t, await taskId(t, jobId))).toBe("READY");
    await v.sync();
    expect(v.log.filter((l) => l.startsWith("TASK_RUN"))).toEqual(["TASK_RUN S 1"]);
  });
});
