/**
 * What a Session makes of its actions' output (spec digest §12.4; reference behaviour §3.5) and the
 * shape of its event stream (server/session/events.ts): openjd_* lines become events, near-misses
 * stay plain log lines, stdout and stderr arrive in the order written, and a large output arrives
 * whole and in order.
 */
import { describe, expect, it } from "vitest";
import { buildJob, dedent, py, runSession, sh, taskJob } from "./session-test-support";

/** The lines of `printed` found in `logs`, in log order. */
function linesAmong(logs: readonly string[], printed: readonly string[]): string[] {
  const wanted = new Set(printed);
  return logs.filter((line) => wanted.has(line));
}

describe("stdout messages", () => {
  it("openjd_progress / openjd_status / openjd_fail become events; the lines stay in the log", async () => {
    const printed = ["openjd_progress: 25", "openjd_status: rendering frame 1", "openjd_progress: 50.5", "openjd_fail: it broke", "done"];
    const run = await runSession(taskJob(py("import sys\nfor line in sys.argv[1:]: print(line)", {}, ...printed)));
    const task = run.action("TASK_RUN", "S");
    expect(run.ofType("progress").map((e) => [e.actionId, e.value])).toEqual([
      [task.id, 25],
      [task.id, 50.5],
    ]);
    expect(run.ofType("status").map((e) => [e.actionId, e.message])).toEqual([[task.id, "rendering frame 1"]]);
    expect(run.ofType("fail_message").map((e) => [e.actionId, e.message])).toEqual([[task.id, "it broke"]]);
    expect(linesAmong(task.logs, printed)).toEqual(printed);
    // openjd_fail informs; the exit code decides.
    expect(task).toMatchObject({ status: "SUCCEEDED", exitCode: 0, failMessage: "it broke" });
  });

  it("near-misses are plain log lines and change nothing", async () => {
    const printed = ["OPENJD_PROGRESS: 5", " openjd_status: x", "openjd_status:x", "openjd_fail:nope", "OPENJD_FAIL: y", "openjd_statu: z", "openjd_status: ", "progress: 7"];
    const run = await runSession(taskJob(py("import sys\nfor line in sys.argv[1:]: print(line)", {}, ...printed)));
    const task = run.action("TASK_RUN", "S");
    expect(linesAmong(task.logs, printed)).toEqual(printed);
    expect(run.ofType("progress")).toEqual([]);
    expect(run.ofType("status")).toEqual([]);
    expect(run.ofType("fail_message")).toEqual([]);
    expect(task).toMatchObject({ status: "SUCCEEDED", failMessage: null });
  });

  it("a mis-typed env directive is not a plain line: it fails the task, even with exit code 0", async () => {
    const line = "OPENJD_ENV: X=1";
    const run = await runSession(taskJob(sh(`echo '${line}'; sleep 5`)));
    const task = run.action("TASK_RUN", "S");
    expect(task.status).toBe("FAILED");
    expect(task.durationMs).toBeLessThan(2_000);
    expect(task.failMessage).toContain(line);
    expect(run.ofType("env_change")).toEqual([]);
  });

  it("an out-of-range progress is logged but gives no progress event", async () => {
    const run = await runSession(taskJob(sh("echo 'openjd_progress: 150'; echo 'openjd_progress: 100'")));
    expect(run.ofType("progress").map((e) => e.value)).toEqual([100]);
    expect(run.action("TASK_RUN", "S").logs.some((l) => l.startsWith("openjd_progress: 150"))).toBe(true);
  });

  it("environment actions report messages under their own action", async () => {
    const environment = dedent(`
      jobEnvironments:
      - name: E
        script:
          actions:
            onEnter: ${sh("echo 'openjd_status: preparing'; echo 'openjd_progress: 10'")}
    `);
    const run = await runSession(taskJob(sh("echo 'openjd_status: working'"), environment));
    const enter = run.action("ENV_ENTER", "E");
    const task = run.action("TASK_RUN", "S");
    expect(run.ofType("status").map((e) => [e.actionId, e.message])).toEqual([
      [enter.id, "preparing"],
      [task.id, "working"],
    ]);
    expect(run.ofType("progress").map((e) => [e.actionId, e.value])).toEqual([[enter.id, 10]]);
  });
});

describe("output lines", () => {
  it("stdout and stderr arrive in the order written; \\r\\n is stripped and a last line without newline is kept", async () => {
    const count = 20;
    const code = dedent(`
      import sys
      for i in range(${count}):
          sys.stdout.write('out %d\\n' % i); sys.stdout.flush()
          sys.stderr.write('err %d\\n' % i); sys.stderr.flush()
      sys.stdout.write('crlf line\\r\\nlast line without newline'); sys.stdout.flush()
    `);
    const run = await runSession(taskJob(py(code)));
    const expected = [...Array.from({ length: count }, (_, i) => [`out ${i}`, `err ${i}`]).flat(), "crlf line", "last line without newline"];
    expect(linesAmong(run.action("TASK_RUN", "S").logs, expected)).toEqual(expected);
  });

  it("a real worker workload: 100,000 lines all arrive as log events, in order", async () => {
    const count = 100_000;
    const run = await runSession(taskJob(py(`import sys\nsys.stdout.write(''.join('L%d\\n' % i for i in range(${count})))`)));
    const task = run.action("TASK_RUN", "S");
    expect(task.status).toBe("SUCCEEDED");
    const lines = task.logs.filter((l) => /^L\d+$/.test(l));
    expect(lines.length).toBe(count);
    expect(lines).toEqual(Array.from({ length: count }, (_, i) => `L${i}`));
  });
});

describe("the event stream", () => {
  it("starts and ends the Session, brackets each action, and numbers nothing twice", async () => {
    const sleepMs = 250;
    const job = buildJob(`
      specificationVersion: jobtemplate-2023-09
      name: J
      jobEnvironments:
      - name: VarsOnly
        variables:
          A: "1"
      - name: WithScript
        script:
          actions:
            onEnter: ${sh("echo entering; echo 'openjd_env: B=2'")}
            onExit: ${sh("echo leaving")}
      steps:
      - name: S
        parameterSpace:
          taskParameterDefinitions:
          - name: Frame
            type: INT
            range: [7, 9]
        script:
          actions:
            onRun: ${py(`import time\nprint('frame {{Task.Param.Frame}}')\ntime.sleep(${sleepMs / 1000})`)}
    `);
    const run = await runSession(job);
    const { events } = run;
    expect(events[0]).toMatchObject({ type: "session_started", workingDirectory: run.workingDirectory });
    expect(events.at(-1)).toMatchObject({ type: "session_ended", status: "SUCCEEDED", workingDirectory: run.workingDirectory, preserved: false });
    expect(events.filter((e) => e.type === "session_started" || e.type === "session_ended")).toHaveLength(2);
    for (let i = 1; i < events.length; i++) expect(events[i]?.time).toBeGreaterThanOrEqual(events[i - 1]?.time as number);

    // Actions run one at a time: every event of an action lies between its start and its end.
    let open: string | null = null;
    const seen = new Set<string>();
    for (const event of events) {
      if (event.type === "action_started") {
        expect(open).toBeNull();
        expect(seen.has(event.actionId)).toBe(false);
        seen.add(event.actionId);
        open = event.actionId;
      } else if (event.type === "action_ended") {
        expect(event.actionId).toBe(open);
        open = null;
      } else if (event.type !== "session_started" && event.type !== "session_ended") {
        expect(event.actionId).toBe(open);
      }
    }

    expect(run.summary).toEqual([
      "ENV_ENTER VarsOnly SUCCEEDED",
      "ENV_ENTER WithScript SUCCEEDED",
      "TASK_RUN S SUCCEEDED",
      "TASK_RUN S SUCCEEDED",
      "ENV_EXIT WithScript SUCCEEDED",
      "ENV_EXIT VarsOnly SUCCEEDED",
    ]);
    // No process for an environment without onEnter/onExit: no exit code.
    expect(run.actions.map((a) => a.exitCode)).toEqual([null, 0, 0, 0, 0, null]);
    const tasks = run.tasks();
    expect(tasks.map((t) => t.parameters.Frame)).toEqual(["7", "9"]);
    expect(tasks.map((t) => t.logs.filter((l) => l.startsWith("frame ")))).toEqual([["frame 7"], ["frame 9"]]);
    for (const task of tasks) {
      expect(task.durationMs).toBeGreaterThanOrEqual(sleepMs);
      expect(task.durationMs).toBeLessThan(sleepMs + 1_500);
    }
    const started = run.ofType("action_started").filter((e) => e.kind === "TASK_RUN");
    expect(started.map((e) => [e.step, e.parameters?.Frame])).toEqual([
      ["S", { type: "INT", value: "7" }],
      ["S", { type: "INT", value: "9" }],
    ]);
    expect(run.ofType("env_change")).toMatchObject([{ actionId: run.action("ENV_ENTER", "WithScript").id, name: "B", change: "set", value: "2" }]);
  });
});
