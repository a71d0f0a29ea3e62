/**
 * Timeouts and cancelation through a whole Session (spec digest §7.1, §12.2; reference behaviour
 * §3.6): a timeout is reported as TIMEOUT and applies the action's own cancelation method;
 * NOTIFY_THEN_TERMINATE leaves cancel_info.json in the working directory and sends SIGTERM the
 * action can handle; TERMINATE kills the whole process group at once; SIGKILL follows the grace
 * period when SIGTERM is ignored. Every wait is bounded by a 1 s timeout or notify period.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { SessionEvent } from "./events";
import { buildJob, dedent, eventually, NOTIFY_1S, processGone, py, runSession, SAY, sh, taskJob } from "./session-test-support";

/**
 * Each script here would run for 30 s or for ever unless the runtime ends it, so ending well inside
 * this bound proves the timeout or the kill did it. How fast that happens under load is measured by
 * the benchmarks, not asserted here (a loaded CI machine once took 5.9 s for a 1 s grace period).
 */
const ENDED_PROMPTLY_MS = 10_000;

/** Whether the runtime wrote a note starting with `start` (and holding `part`, when given). */
function logged(logs: readonly string[], start: string, part = ""): boolean {
  return logs.some((line) => line.startsWith(start) && line.includes(part));
}

function jobWith(onRun: string, frames = "1"): ReturnType<typeof buildJob> {
  return buildJob(`
    specificationVersion: jobtemplate-2023-09
    name: J
    jobEnvironments:
    - name: E
      script:
        actions:
          onEnter: ${sh("true")}
          onExit: ${sh("echo exited")}
    steps:
    - name: S
      parameterSpace:
        taskParameterDefinitions:
        - name: Frame
          type: INT
          range: "${frames}"
      script:
        actions:
          onRun: ${onRun}
  `);
}

/** Aborts when the line `ready` is logged; records when. */
function abortOnReady(): { signal: AbortSignal; onEvent: (e: SessionEvent) => void; abortedAt: () => number } {
  const controller = new AbortController();
  let at = 0;
  return {
    signal: controller.signal,
    onEvent: (event) => {
      if (event.type === "log" && event.line === "ready" && !controller.signal.aborted) {
        at = Date.now();
        controller.abort();
      }
    },
    abortedAt: () => at,
  };
}

describe("timeouts", () => {
  it("a timeout with the default TERMINATE method ends the task as TIMEOUT (not CANCELED) after the limit", async () => {
    const timeout = 1;
    const run = await runSession(jobWith(sh("exec sleep 30", { timeout }), "1-2"));
    const task = run.action("TASK_RUN", "S");
    expect(task).toMatchObject({ status: "TIMEOUT", exitCode: null });
    expect(task.durationMs).toBeGreaterThanOrEqual(timeout * 1000);
    expect(task.durationMs).toBeLessThan(ENDED_PROMPTLY_MS);
    // Terminal: the second frame does not run; the environment is still exited.
    expect(run.summary).toEqual(["ENV_ENTER E SUCCEEDED", "TASK_RUN S TIMEOUT", "ENV_EXIT E SUCCEEDED"]);
    expect(run.action("ENV_EXIT", "E").logs).toContain("exited");
    expect(run.result.status).toBe("FAILED");
  });

  it("a timeout with NOTIFY_THEN_TERMINATE writes cancel_info.json and sends SIGTERM the script handles: TIMEOUT", async () => {
    const timeout = 1;
    const script = [
      "import os, signal, time",
      SAY,
      "def on_term(*_):",
      "    say('cancel_info=' + open('cancel_info.json').read())",
      "    say('in_working_dir=' + str(os.path.exists(os.path.join(os.environ['OPENJD_SESSION_WORKING_DIR'], 'cancel_info.json'))))",
      "    os._exit(5)",
      "signal.signal(signal.SIGTERM, on_term)",
      "print('ready', flush=True)",
      "time.sleep(30)",
    ].join("\n");
    const run = await runSession(jobWith(py(script, { timeout, cancelation: NOTIFY_1S })), { preserve: true });
    const task = run.action("TASK_RUN", "S");
    expect(task).toMatchObject({ status: "TIMEOUT", exitCode: 5 });
    // The script exits as soon as it is notified: no waiting for the grace period.
    expect(logged(task.logs, "Notify period ended")).toBe(false);
    expect(task.durationMs).toBeLessThan(ENDED_PROMPTLY_MS);
    const printed = run.printed(task);
    expect(printed.in_working_dir).toBe("True");
    const notice = JSON.parse(printed.cancel_info as string) as { NotifyEnd: string };
    expect(notice.NotifyEnd).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    // NotifyEnd = when SIGTERM was sent (the timeout) + the notify period, in whole seconds.
    const started = run.ofType("action_started").find((e) => e.actionId === task.id)?.time as number;
    const expectedEnd = started + (timeout + NOTIFY_1S.notifyPeriodInSeconds) * 1000;
    expect(Math.abs(Date.parse(notice.NotifyEnd) - expectedEnd)).toBeLessThan(1_500);
    expect(readFileSync(join(run.workingDirectory, "cancel_info.json"), "utf8")).toBe(printed.cancel_info);
    expect(run.result.status).toBe("FAILED");
  });
});

describe("environment timeouts", () => {
  it("an onEnter that times out is TIMEOUT; no task runs and the environment is still exited", async () => {
    const job = taskJob(
      sh("true"),
      dedent(`
        jobEnvironments:
        - name: Slow
          script:
            actions:
              onEnter: ${sh("exec sleep 30", { timeout: 1 })}
              onExit: ${sh("echo exited")}
      `),
    );
    const run = await runSession(job);
    expect(run.summary).toEqual(["ENV_ENTER Slow TIMEOUT", "ENV_EXIT Slow SUCCEEDED"]);
    expect(run.action("ENV_EXIT", "Slow").logs).toContain("exited");
    expect(run.result.status).toBe("FAILED");
  });
});

describe("cancelation methods", () => {
  it("TERMINATE kills the whole process group at once: no SIGTERM, no cancel_info.json, children gone", async () => {
    const abort = abortOnReady();
    const script = 'trap "echo caught TERM; exit 9" TERM; sleep 30 & echo "child=$!"; echo ready; wait';
    const run = await runSession(jobWith(sh(script, { cancelation: { mode: "TERMINATE" } })), { ...abort, preserve: true });
    const task = run.action("TASK_RUN", "S");
    expect(task).toMatchObject({ status: "CANCELED", exitCode: null });
    expect(task.logs).not.toContain("caught TERM");
    expect(existsSync(join(run.workingDirectory, "cancel_info.json"))).toBe(false);
    const ended = run.ofType("action_ended").find((e) => e.actionId === task.id)?.time as number;
    expect(logged(task.logs, "Canceling subprocess", "via termination method")).toBe(true);
    expect(ended - abort.abortedAt()).toBeLessThan(ENDED_PROMPTLY_MS);
    const child = Number(run.printed(task).child);
    expect(child).toBeGreaterThan(0);
    expect(await eventually(() => processGone(child), 1_000)).toBe(true);
    expect(run.result.status).toBe("CANCELED");
  });

  it("NOTIFY_THEN_TERMINATE on cancel: the script gets SIGTERM, may finish cleanly, and the action is CANCELED", async () => {
    const abort = abortOnReady();
    const script = [
      "import os, signal, time",
      SAY,
      "def on_term(*_):",
      "    say('notified, cleaning up')",
      "    os._exit(0)",
      "signal.signal(signal.SIGTERM, on_term)",
      "print('ready', flush=True)",
      "time.sleep(30)",
    ].join("\n");
    const run = await runSession(jobWith(py(script, { cancelation: NOTIFY_1S })), abort);
    const task = run.action("TASK_RUN", "S");
    expect(task).toMatchObject({ status: "CANCELED", exitCode: 0 });
    expect(task.logs).toContain("notified, cleaning up");
    expect(run.result.status).toBe("CANCELED");
  });

  it("an action that ignores SIGTERM is killed when the grace period ends", async () => {
    const abort = abortOnReady();
    const script = ["import os, signal, time", SAY, "signal.signal(signal.SIGTERM, lambda *_: say('ignoring TERM'))", "print('ready', flush=True)", "while True: time.sleep(0.05)"].join("\n");
    const run = await runSession(jobWith(py(script, { cancelation: NOTIFY_1S })), abort);
    const task = run.action("TASK_RUN", "S");
    expect(task).toMatchObject({ status: "CANCELED", exitCode: null });
    expect(task.logs).toContain("ignoring TERM");
    const ended = run.ofType("action_ended").find((e) => e.actionId === task.id)?.time as number;
    const graceMs = NOTIFY_1S.notifyPeriodInSeconds * 1000;
    expect(ended - abort.abortedAt()).toBeGreaterThanOrEqual(graceMs - 50);
    // Killed by the grace period's timer, not by anything else (the script would loop for ever).
    expect(logged(task.logs, "Notify period ended. Terminate at")).toBe(true);
    expect(ended - abort.abortedAt()).toBeLessThan(graceMs + ENDED_PROMPTLY_MS);
  });

  it("a cancel while an onExit runs cancels that exit; the outer environments are still exited", async () => {
    const job = taskJob(
      sh("true"),
      dedent(`
        jobEnvironments:
        - name: Outer
          script:
            actions:
              onExit: ${sh("echo exited-Outer")}
        - name: Inner
          script:
            actions:
              onExit: ${sh("echo ready; exec sleep 30")}
      `),
    );
    const run = await runSession(job, abortOnReady());
    expect(run.summary).toEqual(["ENV_ENTER Outer SUCCEEDED", "ENV_ENTER Inner SUCCEEDED", "TASK_RUN S SUCCEEDED", "ENV_EXIT Inner CANCELED", "ENV_EXIT Outer SUCCEEDED"]);
    expect(run.action("ENV_EXIT", "Outer").logs).toContain("exited-Outer");
    expect(run.result.status).toBe("CANCELED");
  });
});
