/**
 * The Session semantics through the task shield (real subprocesses, runJob with the shield's
 * launcher): exit codes, merged output order, the working directory and its files, timeouts and
 * both cancelation methods (SIGTERM to the process group, SIGKILL when the grace period ends),
 * cancel_info.json. Where the shield differs it is on purpose and tested as such: a command
 * killed by an unhandled signal reports the shell's 128+n (the shield's PID 1 cannot die of a
 * signal), and processes a task leaves behind end with it (its PID namespace ends).
 */
import { describe, expect, it } from "vitest";
import type { SessionEvent } from "../session/events";
import { buildJob, eventually, NOTIFY_1S, py, runSession, SAY, sh, taskJob, type RunOptions } from "../session/session-test-support";
import { dataFolder, processesWithArgument, shieldFor, shieldProblem, skipNotice } from "./shield-test-support";

const problem = await shieldProblem();
const notice = skipNotice(problem);

/** A job environment E (onExit echoes "exited") around one step S running `onRun`. */
function jobWith(onRun: string) {
  return buildJob(`
    specificationVersion: jobtemplate-2023-09
    name: J
    jobEnvironments:
    - name: E
      script:
        actions:
          onEnter: ${sh("echo entered > from-enter.txt")}
          onExit: ${sh("echo exited")}
    steps:
    - name: S
      script:
        embeddedFiles:
        - { name: Data, type: TEXT, data: "embedded text" }
        actions:
          onRun: ${onRun}
  `);
}

/** Runs the job shielded, in a data-folder-like layout; `abortOn`: cancel the Session when that line is logged. */
async function shielded(job: ReturnType<typeof buildJob>, options: RunOptions & { abortOn?: string } = {}) {
  const folder = dataFolder();
  const controller = new AbortController();
  const { abortOn, ...rest } = options;
  const onEvent = (event: SessionEvent) => {
    if (abortOn && event.type === "log" && event.line === abortOn && !controller.signal.aborted) controller.abort();
  };
  return runSession(job, { rootDirectory: folder.sessionRoot, launcher: shieldFor(folder).launcher, signal: controller.signal, onEvent, ...rest });
}

describe.skipIf(problem !== null)(`Session semantics through the task shield${notice}`, () => {
  it("exit codes: 0 succeeds, a non-zero exit fails the task with its code; the environment is still exited", async () => {
    const ok = await shielded(jobWith(sh("exit 0")));
    expect(ok.action("TASK_RUN", "S")).toMatchObject({ status: "SUCCEEDED", exitCode: 0 });
    const failed = await shielded(jobWith(sh("echo failing; exit 3")));
    expect(failed.action("TASK_RUN", "S")).toMatchObject({ status: "FAILED", exitCode: 3 });
    expect(failed.summary).toEqual(["ENV_ENTER E SUCCEEDED", "TASK_RUN S FAILED", "ENV_EXIT E SUCCEEDED"]);
    expect(failed.action("ENV_EXIT", "E").logs).toContain("exited");
    expect(failed.result.status).toBe("FAILED");
  });

  it("stdout and stderr arrive merged in the order they were written", async () => {
    const run = await shielded(jobWith(sh("echo a; echo b >&2; echo c; echo d >&2; printf 'e' >&2; echo f")));
    const logs = run.action("TASK_RUN", "S").logs;
    const output = logs.slice(
      logs.findIndex((l) => l.startsWith("Command started")) + 1,
      logs.findIndex((l) => l.startsWith("Process exited")),
    );
    expect(output).toEqual(["a", "b", "c", "d", "ef"]);
  });

  it("runs in the Session working directory, with its files: what onEnter wrote, embedded files, the path mapping file", async () => {
    const run = await shielded(
      jobWith(sh('echo "pwd=$(pwd)"; echo "wd=$OPENJD_SESSION_WORKING_DIR"; echo "enter=$(cat from-enter.txt)"; echo "data=$(cat {{Task.File.Data}})"; echo "rules=$(cat path_mapping_rules.json)"')),
    );
    const printed = run.printed(run.action("TASK_RUN", "S"));
    expect(printed).toEqual({ pwd: run.workingDirectory, wd: run.workingDirectory, enter: "entered", data: "embedded text", rules: "{}" });
  });

  it("NOTIFY_THEN_TERMINATE: cancel_info.json where the action reads it, SIGTERM it handles; its exit code comes through", async () => {
    const script = [
      "import os, signal, time",
      SAY,
      "def on_term(*_):",
      "    say('cancel_info=' + open(os.path.join(os.environ['OPENJD_SESSION_WORKING_DIR'], 'cancel_info.json')).read())",
      "    os._exit(7)",
      "signal.signal(signal.SIGTERM, on_term)",
      "say('ready')",
      "time.sleep(30)",
    ].join("\n");
    const run = await shielded(jobWith(py(script, { cancelation: NOTIFY_1S })), { abortOn: "ready" });
    const task = run.action("TASK_RUN", "S");
    expect(task).toMatchObject({ status: "CANCELED", exitCode: 7 });
    expect(JSON.parse(run.printed(task).cancel_info as string)).toEqual({ NotifyEnd: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/) });
    expect(run.summary).toEqual(["ENV_ENTER E SUCCEEDED", "TASK_RUN S CANCELED", "ENV_EXIT E SUCCEEDED"]);
  });

  it("NOTIFY_THEN_TERMINATE on a task that ignores SIGTERM: SIGKILL when the grace period ends (the shield's PID 1 outlived the SIGTERM)", async () => {
    const run = await shielded(jobWith(JSON.stringify({ command: "bash", args: ["-c", "trap 'echo ignoring TERM' TERM; echo ready; while :; do sleep 0.05; done"], cancelation: NOTIFY_1S })), {
      abortOn: "ready",
    });
    const task = run.action("TASK_RUN", "S");
    expect(task).toMatchObject({ status: "CANCELED", exitCode: null });
    expect(task.logs).toContain("ignoring TERM");
    expect(task.logs.some((l) => l.startsWith("Notify period ended. Terminate at"))).toBe(true);
  });

  it("a command that dies of the SIGTERM reports the shell's 143 (unshielded: no exit code, signal SIGTERM)", async () => {
    const run = await shielded(jobWith(sh("echo ready; exec sleep 30", { cancelation: NOTIFY_1S })), { abortOn: "ready" });
    expect(run.action("TASK_RUN", "S")).toMatchObject({ status: "CANCELED", exitCode: 143 });
  });

  it("TERMINATE: the whole group is killed at once", async () => {
    const run = await shielded(jobWith(sh("echo ready; sleep 30")), { abortOn: "ready" });
    const task = run.action("TASK_RUN", "S");
    expect(task).toMatchObject({ status: "CANCELED", exitCode: null });
    expect(task.logs.some((l) => /^Canceling subprocess \d+ via termination method at /.test(l))).toBe(true);
  });

  it("timeouts: TERMINATE kills, NOTIFY_THEN_TERMINATE notifies; both are TIMEOUT", async () => {
    const killed = await shielded(jobWith(sh("exec sleep 30", { timeout: 1 })));
    expect(killed.action("TASK_RUN", "S")).toMatchObject({ status: "TIMEOUT", exitCode: null });
    const script = ["import os, signal, time", "signal.signal(signal.SIGTERM, lambda *_: os._exit(5))", "time.sleep(30)"].join("\n");
    const notified = await shielded(jobWith(py(script, { timeout: 1, cancelation: NOTIFY_1S })));
    expect(notified.action("TASK_RUN", "S")).toMatchObject({ status: "TIMEOUT", exitCode: 5 });
    expect(notified.summary).toEqual(["ENV_ENTER E SUCCEEDED", "TASK_RUN S TIMEOUT", "ENV_EXIT E SUCCEEDED"]);
  });

  it("processes a task leaves behind end with it, even one that left the process group", async () => {
    const marker = `left-behind-${process.pid}-${Date.now()}`;
    const stay = (how: string) => `${how} python3 -c 'import time; time.sleep(300)' ${marker} &`;
    const run = await shielded(taskJob(sh(`${stay("")} ${stay("setsid")} sleep 0.2; echo done`)));
    expect(run.action("TASK_RUN", "S")).toMatchObject({ status: "SUCCEEDED", exitCode: 0 });
    expect(await eventually(() => processesWithArgument(marker).length === 0)).toBe(true);
  });
});
