/**
 * The SessionExecutor with real subprocesses: assigned actions run in order, one at a time, and
 * every status change, progress message and log line comes out as the protocol expects.
 */
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { py, sh } from "../session/session-test-support";
import { LogShipper } from "./log-shipper";
import { SessionExecutor } from "./session-executor";
import { assignment, definition, enter, ExecutorHarness, exit, task, waitUntil } from "./worker-test-support";

const RENDER = definition(
  "job-render",
  `
  specificationVersion: jobtemplate-2023-09
  name: Render
  jobEnvironments:
  - name: Farm
    script:
      actions:
        onEnter: ${sh("echo FARM_ENTER")}
        onExit: ${sh("echo FARM_EXIT")}
  steps:
  - name: Frames
    stepEnvironments:
    - name: Scene
      script:
        actions:
          onEnter: ${sh("echo SCENE_ENTER")}
          onExit: ${sh("echo SCENE_EXIT")}
    parameterSpace:
      taskParameterDefinitions:
      - { name: Frame, type: INT, range: "1-3" }
    script:
      actions:
        onRun: ${sh("echo openjd_progress: 10; echo openjd_status: half; echo openjd_progress: 50; echo frame {{Task.Param.Frame}}; test {{Task.Param.Frame}} -ne 2 || { echo 'openjd_fail: frame two is cursed'; exit 3; }")}
  `,
);

/** A task that ignores nothing: it says when SIGTERM reaches it and leaves. */
const STUBBORN = definition(
  "job-stubborn",
  `
  specificationVersion: jobtemplate-2023-09
  name: Stubborn
  jobEnvironments:
  - name: Farm
    script:
      actions:
        onEnter: ${sh("echo FARM_ENTER")}
        onExit: ${sh("echo FARM_EXIT")}
  steps:
  - name: Wait
    parameterSpace:
      taskParameterDefinitions:
      - { name: Seconds, type: FLOAT, range: ["0.3", "30"] }
    script:
      actions:
        onRun: ${py("import signal, sys, time\ndef term(*a):\n    print('TERM_SEEN', flush=True)\n    sys.exit(0)\nsignal.signal(signal.SIGTERM, term)\nprint('TASK_STARTED', flush=True)\ntime.sleep(float(sys.argv[1]))\nprint('TASK_DONE', flush=True)", { cancelation: { mode: "NOTIFY_THEN_TERMINATE", notifyPeriodInSeconds: 30 } }, "{{Task.Param.Seconds}}")}
  `,
);

const wait = (id: string, seconds: string) => task(id, "Wait", { Seconds: seconds }, "FLOAT");
const FULL = [enter("e1", "job:Farm"), enter("e2", "step:Frames:Scene", "Frames")];
const EXITS = [exit("x2", "step:Frames:Scene", "Frames"), exit("x1", "job:Farm")];

describe("SessionExecutor", () => {
  it("runs enters, tasks and exits in order, reports RUNNING then the end, and ends the Session", async () => {
    const h = new ExecutorHarness();
    h.executor.assign(assignment("s1", RENDER, [...FULL, task("t1", "Frames", { Frame: 1 }), task("t3", "Frames", { Frame: 3 })]));
    h.executor.assign(assignment("s1", RENDER, EXITS, true));
    await h.executor.whenIdle();
    expect(h.endOrder()).toEqual(["e1 SUCCEEDED", "e2 SUCCEEDED", "t1 SUCCEEDED", "t3 SUCCEEDED", "x2 SUCCEEDED", "x1 SUCCEEDED"]);
    const t1 = h.updates.filter((u) => u.actionId === "t1");
    expect(t1.map((u) => u.status)).toEqual(["RUNNING", "SUCCEEDED"]);
    // Progress and status are coalesced into the RUNNING update still waiting: the latest wins.
    expect(t1[0]).toMatchObject({ progress: 50, statusMessage: "half", startedAt: expect.any(Number) });
    expect(t1[1]).toMatchObject({ exitCode: 0, startedAt: t1[0]?.startedAt, endedAt: expect.any(Number) });
    expect(h.linesOf("s1", "t3")).toContain("frame 3");
    expect(h.linesOf("s1", "x1")).toContain("FARM_EXIT");
    const started = h.notices.find((n) => n.type === "session_started");
    expect(started).toMatchObject({ sessionId: "s1", jobName: "Render" });
    expect(existsSync(started?.type === "session_started" ? started.workingDirectory : "/")).toBe(false);
    expect(h.notices.at(-1)).toEqual({ type: "session_ended", sessionId: "s1", status: "SUCCEEDED" });
    expect(h.executor.sessionIds).toEqual([]);
    expect(h.urgentCount).toBeGreaterThanOrEqual(7);
  });

  it("after a failed task, queued tasks are NEVER_ATTEMPTED and the exits still run", async () => {
    const h = new ExecutorHarness();
    h.executor.assign(assignment("s2", RENDER, [...FULL, task("t2", "Frames", { Frame: 2 }), task("t3", "Frames", { Frame: 3 }), ...EXITS], true));
    await h.executor.whenIdle();
    expect(h.endOrder()).toEqual(["e1 SUCCEEDED", "e2 SUCCEEDED", "t2 FAILED", "t3 NEVER_ATTEMPTED", "x2 SUCCEEDED", "x1 SUCCEEDED"]);
    expect(h.final("t2")).toMatchObject({ exitCode: 3, failMessage: "frame two is cursed" });
    expect(h.linesOf("s2", "t3")).toEqual([]);
    expect(h.updates.filter((u) => u.actionId === "t3")).toHaveLength(1);
    expect(h.linesOf("s2", "x1")).toContain("FARM_EXIT");
    expect(h.notices.at(-1)).toMatchObject({ type: "session_ended", status: "FAILED" });
  });

  it("cancels the running NOTIFY_THEN_TERMINATE task with SIGTERM; later tasks are not attempted, exits run", async () => {
    const h = new ExecutorHarness();
    h.executor.assign(assignment("s3", STUBBORN, [enter("e1", "job:Farm"), wait("t1", "30"), wait("t2", "0.3"), exit("x1", "job:Farm")], true));
    await h.waitForLine("s3", "TASK_STARTED");
    const before = Date.now();
    h.executor.cancel(["t1"]);
    await h.executor.whenIdle();
    expect(Date.now() - before).toBeLessThan(10_000);
    expect(h.endOrder()).toEqual(["e1 SUCCEEDED", "t1 CANCELED", "t2 NEVER_ATTEMPTED", "x1 SUCCEEDED"]);
    expect(h.linesOf("s3", "t1")).toContain("TERM_SEEN");
    expect(h.linesOf("s3", "t1")).not.toContain("TASK_DONE");
  });

  it("reports a canceled queued task CANCELED at once without running it; the Session goes on", async () => {
    const h = new ExecutorHarness();
    h.executor.assign(assignment("s4", STUBBORN, [enter("e1", "job:Farm"), wait("t1", "0.3"), wait("t2", "0.3"), wait("t3", "0.3"), exit("x1", "job:Farm")], true));
    h.executor.cancel(["t2", "no-such-action"]);
    expect(h.status("t2")).toBe("CANCELED");
    expect(h.urgentCount).toBe(1);
    await h.executor.whenIdle();
    expect(h.endOrder()).toEqual(["t2 CANCELED", "e1 SUCCEEDED", "t1 SUCCEEDED", "t3 SUCCEEDED", "x1 SUCCEEDED"]);
    expect(h.linesOf("s4", "t2")).toEqual([]);
    expect(h.final("t2")?.startedAt).toBeUndefined();
  });

  it("numbers log lines 0, 1, 2… per Session and never lets a redacted value through", async () => {
    const h = new ExecutorHarness();
    const job = definition(
      "job-secret",
      `
      specificationVersion: jobtemplate-2023-09
      name: Secret
      steps:
      - name: Leak
        script:
          actions:
            onRun: ${sh("echo 'openjd_redacted_env: TOKEN=hunter2'; echo the token is hunter2; echo 'openjd_status: using hunter2'")}
      `,
    );
    h.executor.assign(assignment("s5", job, [task("t1", "Leak"), task("t2", "Leak")], true));
    await h.executor.whenIdle();
    const lines = h.lines("s5");
    expect(lines.map((l) => l.seq)).toEqual(lines.map((_, i) => i));
    expect(lines.length).toBeGreaterThan(6);
    expect(JSON.stringify(lines)).not.toContain("hunter2");
    expect(JSON.stringify(h.collect())).not.toContain("hunter2");
    expect(lines.map((l) => l.line)).toContain("the token is ********");
    expect(new Set(lines.map((l) => l.actionId))).toEqual(new Set(["t1", "t2"]));
  });

  it("fails the first action of a job it cannot recreate and attempts nothing else", async () => {
    const h = new ExecutorHarness();
    const broken = definition("job-broken", "specificationVersion: jobtemplate-2023-09\nname: Broken\nsteps: []\n");
    h.executor.assign(assignment("s6", broken, [enter("e1", "job:Farm"), task("t1", "S"), exit("x1", "job:Farm")], true));
    await h.executor.whenIdle();
    expect(h.endOrder()).toEqual(["e1 FAILED", "t1 NEVER_ATTEMPTED", "x1 NEVER_ATTEMPTED"]);
    expect(h.final("e1")?.failMessage).toMatch(/job template is invalid: steps/);
    expect(h.linesOf("s6", "e1")[0]).toMatch(/^ERROR: the job template is invalid/);
  });

  it("fails an action naming what the job does not have, and exits only what was entered", async () => {
    const h = new ExecutorHarness();
    h.executor.assign(
      assignment(
        "s7",
        RENDER,
        [enter("e1", "job:Farm"), enter("e2", "step:Frames:Nope", "Frames"), task("t1", "Frames", { Frame: 1 }), exit("x2", "step:Frames:Scene", "Frames"), exit("x1", "job:Farm")],
        true,
      ),
    );
    await h.executor.whenIdle();
    expect(h.endOrder()).toEqual(["e1 SUCCEEDED", "e2 FAILED", "t1 NEVER_ATTEMPTED", "x2 NEVER_ATTEMPTED", "x1 SUCCEEDED"]);
    expect(h.final("e2")?.failMessage).toBe("job 'Render' has no environment 'step:Frames:Nope' in the Session stack of step 'Frames'");
    const bad = new ExecutorHarness();
    bad.executor.assign(assignment("s8", RENDER, [task("t1", "Frames", { Frame: 1, Extra: 2 })], true));
    await bad.executor.whenIdle();
    expect(bad.final("t1")).toMatchObject({ status: "FAILED", failMessage: "step 'Frames' has no task parameters Extra" });
  });

  it("while draining, finishes the running task, attempts no more and still exits", async () => {
    const h = new ExecutorHarness();
    h.executor.assign(assignment("s9", STUBBORN, [enter("e1", "job:Farm"), wait("t1", "0.5"), wait("t2", "0.3")]));
    await h.waitForLine("s9", "TASK_STARTED");
    h.executor.drain();
    h.executor.assign(assignment("s9", STUBBORN, [exit("x1", "job:Farm")], true));
    await h.executor.whenIdle();
    expect(h.endOrder()).toEqual(["e1 SUCCEEDED", "t1 SUCCEEDED", "t2 NEVER_ATTEMPTED", "x1 SUCCEEDED"]);
    expect(h.final("t2")?.failMessage).toBe("the worker is shutting down");
  });

  it("interruptAll kills what runs, reports nothing more and removes the working directory", async () => {
    const h = new ExecutorHarness();
    h.executor.assign(assignment("s10", STUBBORN, [enter("e1", "job:Farm"), wait("t1", "30"), exit("x1", "job:Farm")], true));
    await h.waitForLine("s10", "TASK_STARTED");
    h.collect();
    const reported = h.updates.length;
    const before = Date.now();
    await h.executor.interruptAll();
    expect(Date.now() - before).toBeLessThan(5_000);
    expect(h.executor.sessionIds).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(h.collect()).toHaveLength(reported);
    const started = h.notices.find((n) => n.type === "session_started");
    expect(existsSync(started?.type === "session_started" ? started.workingDirectory : "/")).toBe(false);
    expect(h.notices.some((n) => n.type === "session_ended")).toBe(false);
  });

  it("fails the first action when the Session cannot start (no working directory) and attempts nothing else", async () => {
    const logs = new LogShipper();
    const executor = new SessionExecutor({ logs, rootDirectory: "/dev/null/sessions" });
    executor.assign(assignment("s12", RENDER, [enter("e1", "job:Farm"), task("t1", "Frames", { Frame: 1 }), exit("x1", "job:Farm")], true));
    await executor.whenIdle();
    const updates = executor.takeUpdates();
    expect(updates.map((u) => `${u.actionId} ${u.status}`)).toEqual(["e1 FAILED", "t1 NEVER_ATTEMPTED", "x1 NEVER_ATTEMPTED"]);
    expect(updates[0]?.failMessage).toBe("the Session could not be started");
    expect(logs.takeBatch("s12", 10).map((l) => l.line)).toEqual([expect.stringMatching(/^ERROR: the Session could not be started: .*(ENOTDIR|EEXIST)/), "ERROR: the Session could not be started"]);
  });

  it("refuses work for a Session that already ended", async () => {
    const h = new ExecutorHarness();
    h.executor.assign(assignment("s11", RENDER, [], true));
    await waitUntil(() => h.executor.sessionIds.length === 0, "the Session to end");
    h.executor.assign(assignment("s11", RENDER, [task("t1", "Frames", { Frame: 1 })]));
    expect(h.final("t1")).toMatchObject({ status: "NEVER_ATTEMPTED", failMessage: "Session s11 has already ended" });
    expect(h.executor.sessionIds).toEqual([]);
  });
});
