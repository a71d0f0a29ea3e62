/**
 * logs.session through createCaller against a real migrated store of the run's engine: one Session's actions in
 * order, named by their step and task parameters, with what the worker reported (progress,
 * status message, times), and NOT_FOUND for a Session that is not the job's.
 */
import { TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import { appRouter } from "../router/index";
import { createCallerFactory } from "../router/trpc";
import { LINUX_WORKER, SimulatedWorker, submit, testFarm } from "../services/farm-test-support";
import { contextAs } from "../auth/test-principals";

const JOB = `specificationVersion: jobtemplate-2023-09
name: Shots
jobEnvironments:
- name: Tools
  script:
    actions:
      onEnter: {command: "true"}
steps:
- name: Render
  parameterSpace:
    taskParameterDefinitions: [{name: Frame, type: INT, range: '3-4'}]
  script:
    actions:
      onRun: {command: echo}
`;

describe("logs.session", () => {
  it("lists one Session's actions in order with their step, task parameters and reports", async () => {
    const t = await testFarm();
    const jobId = await submit(t, JOB);
    let running: string | null = null;
    // Enter and the first task succeed; the second task is held, so it stays RUNNING.
    const worker = await SimulatedWorker.create(t, LINUX_WORKER("render-07"), (action) => {
      if (action.kind === "TASK_RUN" && action.parameters?.Frame?.value === "4") {
        running = action.actionId;
        return "hold";
      }
      return { status: "SUCCEEDED", exitCode: 0 };
    });
    for (let i = 0; i < 6 && running === null; i++) await worker.sync();
    expect(running).not.toBeNull();
    t.clock.now += 1000;
    await worker.sync(); // reports the held task's start
    const caller = createCallerFactory(appRouter)(await contextAs(t.farm, "admin"));
    const [listed] = await caller.jobs.sessions({ jobId });
    const session = await caller.logs.session({ sessionId: listed!.id, jobId });

    expect(session).toMatchObject({ id: listed!.id, jobId, jobName: "Shots", workerName: "render-07", state: "ACTIVE" });
    // An environment action names the step it was entered for, and its stack entry.
    expect(session.actions.map((a) => [a.kind, a.environmentId, a.stepName, a.taskParameters?.Frame?.value ?? null, a.status])).toEqual([
      ["ENV_ENTER", "job:Tools", "Render", null, "SUCCEEDED"],
      ["TASK_RUN", null, "Render", "3", "SUCCEEDED"],
      ["TASK_RUN", null, "Render", "4", "RUNNING"],
    ]);
    expect(session.actions.map((a) => a.seq)).toEqual([...session.actions.map((a) => a.seq)].sort((x, y) => x - y));
    expect(session.actions[2]).toMatchObject({ id: running, taskIndex: 1, endedAt: null });
    expect(session.actions[2]!.startedAt).not.toBeNull();
    // The same rows as jobs.sessions, plus the names.
    expect(session.actions.map((a) => a.id)).toEqual(listed!.actions.map((a) => a.id));
  });

  it("is NOT_FOUND for an unknown Session or another job's", async () => {
    const t = await testFarm();
    const first = await submit(t, JOB);
    const second = await submit(t, JOB);
    const worker = await SimulatedWorker.create(t, LINUX_WORKER("w"), () => "hold");
    const sessionId = (await worker.sync()).assignments[0]!.sessionId;
    const caller = createCallerFactory(appRouter)(await contextAs(t.farm, "admin"));
    const owner = (await caller.logs.session({ sessionId })).jobId;
    expect([first, second]).toContain(owner);
    const other = owner === first ? second : first;
    await expect(caller.logs.session({ sessionId, jobId: other })).rejects.toSatisfy((e) => e instanceof TRPCError && e.code === "NOT_FOUND");
    await expect(caller.logs.session({ sessionId: "nope" })).rejects.toSatisfy((e) => e instanceof TRPCError && e.code === "NOT_FOUND");
  });
});
