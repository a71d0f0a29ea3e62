/**
 * `loom run FILE …` (DESIGN.md "CLI contract"): exit codes, the human log, `--json` events,
 * `--preserve`, and files that cannot be run. Tasks are real /bin/sh and python3 processes.
 * The selection and input flags are in run-flags.test.ts; signals in run-signals.test.ts.
 */
import { existsSync, rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { ADJACENCY_DAG, SIM_THEN_RENDER } from "../../lib/openjd/testing";
import { BROKEN_JOB, ENVIRONMENT, runCli, sh, tempTree } from "./cli-test-support";

const JOB = `specificationVersion: jobtemplate-2023-09
name: "Demo {{Param.Who}}"
parameterDefinitions:
- name: Who
  type: STRING
  default: world
jobEnvironments:
- name: JobEnv
  script:
    actions:
      onEnter:
        ${sh("echo ENTER_JOBENV")}
      onExit:
        ${sh("echo EXIT_JOBENV")}
steps:
- name: Prep
  script:
    actions:
      onRun:
        ${sh("echo PREP_RAN")}
- name: Render
  dependencies:
  - dependsOn: Prep
  parameterSpace:
    taskParameterDefinitions:
    - name: Frame
      type: INT
      range: "1-3"
  script:
    actions:
      onRun:
        command: python3
        args: ["-c", "print('FRAME={{Task.Param.Frame}} WHO={{Param.Who}}')"]
`;
const FAILING = `specificationVersion: jobtemplate-2023-09
name: Failing
steps:
- name: S
  parameterSpace:
    taskParameterDefinitions:
    - name: N
      type: INT
      range: [1, 2]
  script:
    actions:
      onRun:
        ${sh("echo TASK{{Task.Param.N}}; exit 3")}
`;

const tree = tempTree({
  "job.yaml": JOB,
  "failing.yaml": FAILING,
  "broken.yaml": BROKEN_JOB,
  "env.yaml": ENVIRONMENT,
  "sim.yaml": SIM_THEN_RENDER,
  // The chain the other way round: the last time step first.
  "reverse.yaml": SIM_THEN_RENDER.replace("Task.Param.TimeStepNumber - 1", "Task.Param.TimeStepNumber + 1"),
  "dag.yaml": ADJACENCY_DAG,
});
afterAll(tree.remove);
const run = (...argv: string[]) => runCli(["run", ...argv], tree.dir);
/** The task and environment output lines, in the order they were printed. */
const markers = (out: string) => out.match(/\b(?:ENTER_\w+|EXIT_\w+|PREP_RAN|FRAME=\d+ WHO=\w+|TASK\d)\b/g) ?? [];
type Event = { type: string; [key: string]: unknown };
const events = (out: string): Event[] => out.split("\n").map((line) => JSON.parse(line) as Event);

describe("human output", () => {
  it("a successful job → exit 0; the resolved job name, every action's output in order, the summary", async () => {
    const result = await run("job.yaml");
    expect(result.code).toBe(0);
    expect(result.err).toBe("");
    expect(result.lines[0]).toBe("Running job 'Demo world'");
    expect(result.lines[1]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} {2}Session loom-run started in \S+/);
    expect(markers(result.out)).toEqual(["ENTER_JOBENV", "PREP_RAN", "FRAME=1 WHO=world", "FRAME=2 WHO=world", "FRAME=3 WHO=world", "EXIT_JOBENV"]);
    expect(result.lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/ {2}=== Entering environment 'JobEnv'$/),
        expect.stringMatching(/ {2}=== Running a task of step 'Render'$/),
        expect.stringMatching(/ {2}Parameter values: Frame\(INT\) = 2$/),
        expect.stringMatching(/ {2}--- SUCCEEDED \(exit code 0\) after \d+\.\d\d s$/),
        expect.stringMatching(/ {2}Session ended: SUCCEEDED$/),
        "Session ended successfully",
        "Job: Demo world",
        "Tasks run: 4",
      ]),
    );
  });

  it("a failing task → exit 1; later tasks never run; the failure and its exit code are shown", async () => {
    const result = await run("failing.yaml");
    expect(result.code).toBe(1);
    expect(markers(result.out)).toEqual(["TASK1"]);
    expect(result.out).toMatch(/--- FAILED \(exit code 3\) after/);
    expect(result.lines).toEqual(expect.arrayContaining([expect.stringMatching(/Session ended: FAILED$/), "Session ended with errors; see the log above for details", "Tasks run: 0"]));
  });
});

describe("usage errors → exit 2, nothing on stdout", () => {
  it.each([
    [[], "run takes exactly one FILE"],
    [["job.yaml", "failing.yaml"], "run takes exactly one FILE"],
    [["job.yaml", "-tp", "Frame=3"], "-tp, --tasks and --maximum-tasks need --step"],
    [["job.yaml", "--tasks", "[]"], "-tp, --tasks and --maximum-tasks need --step"],
    [["job.yaml", "--step", "Render", "-tp", "Frame=3", "--tasks", '[{"Frame":1}]'], "-tp, --tasks and --maximum-tasks cannot be combined"],
    [["job.yaml", "--step", "Render", "--maximum-tasks", "2", "--tasks", "[]"], "-tp, --tasks and --maximum-tasks cannot be combined"],
    [["job.yaml", "--step", "Render", "--maximum-tasks", "two"], "--maximum-tasks takes a whole number (0 = all)"],
    [["job.yaml", "--step", "Render", "--maximum-tasks", "-1"], "--maximum-tasks takes a whole number (0 = all)"],
    [["job.yaml", "--bogus"], "unknown option --bogus"],
    [["job.yaml", "--json=yes"], "--json does not take a value"],
    [["job.yaml", "--step"], "--step needs a value"],
    [["job.yaml", "-p", "NoEquals"], "job parameter 'NoEquals' is not KEY=VALUE, an inline JSON object, or file://PATH to a JSON or YAML file"],
  ])("%j", async (argv, message) => {
    const result = await run(...argv);
    expect(result).toMatchObject({ code: 2, out: "" });
    expect(result.err.split("\n")).toEqual([`loom: ${message}`, "Run 'loom help' for usage."]);
  });
});

describe("--json: one event per line, then the result", () => {
  it("every line is JSON; session_started … session_ended in order; the result line last", async () => {
    const result = await run("job.yaml", "--step", "Render", "-tp", "Frame=2", "--json");
    expect(result.code).toBe(0);
    const all = events(result.out);
    expect(all[0]).toMatchObject({ type: "session_started", sessionId: "loom-run", workingDirectory: expect.any(String), time: expect.any(Number) });
    expect(all.at(-2)).toMatchObject({ type: "session_ended", status: "SUCCEEDED", preserved: false });
    expect(all.at(-1)).toEqual({ type: "result", status: "SUCCEEDED", job: "Demo world", step: "Render", durationMs: expect.any(Number), tasksRun: 1 });
    const actions = all.filter((e) => e.type === "action_started" || e.type === "action_ended");
    expect(actions.map((e) => (e.type === "action_started" ? `start ${e.kind} ${e.name}` : `end ${e.status}`))).toEqual([
      "start ENV_ENTER JobEnv",
      "end SUCCEEDED",
      "start TASK_RUN Render",
      "end SUCCEEDED",
      "start ENV_EXIT JobEnv",
      "end SUCCEEDED",
    ]);
    expect(all.find((e) => e.kind === "TASK_RUN")).toMatchObject({ step: "Render", parameters: { Frame: { type: "INT", value: "2" } } });
    // Each log line belongs to the action around it.
    const task = all.find((e) => e.kind === "TASK_RUN") as Event;
    expect(all.filter((e) => e.type === "log" && e.actionId === task.actionId).map((e) => e.line)).toContain("FRAME=2 WHO=world");
    const times = all.slice(0, -1).map((e) => e.time as number);
    expect(times.every((t, i) => i === 0 || t >= (times[i - 1] as number))).toBe(true);
  });

  it("a failing task → exit 1, action_ended FAILED with its exit code, result FAILED", async () => {
    const result = await run("failing.yaml", "--json");
    expect(result.code).toBe(1);
    const all = events(result.out);
    expect(all.find((e) => e.type === "action_ended")).toMatchObject({ status: "FAILED", exitCode: 3 });
    expect(all.at(-2)).toMatchObject({ type: "session_ended", status: "FAILED" });
    expect(all.at(-1)).toMatchObject({ type: "result", status: "FAILED", job: "Failing", step: null, tasksRun: 0 });
  });

  it("a template with errors → exit 1 and one result line listing located errors", async () => {
    const result = await run("broken.yaml", "--json");
    expect(result.code).toBe(1);
    expect(result.lines).toHaveLength(1);
    expect(JSON.parse(result.out)).toEqual({
      type: "result",
      status: "error",
      message: "'broken.yaml' failed checks: 2 error(s)",
      errors: [
        { path: "steps[0].bogus", line: 5, column: 3, message: "unknown field 'bogus'" },
        { path: "steps[0].script.actions.onRun.command", line: 9, column: 18, message: expect.stringContaining("Param.Nope") },
      ],
    });
  });
});

describe("files that cannot be run → exit 1 with a clear message, no Session", () => {
  it("a template with errors lists each error as `path (line:col): message`", async () => {
    const result = await run("broken.yaml");
    expect(result.code).toBe(1);
    expect(result.lines).toEqual([
      "ERROR: 'broken.yaml' failed checks: 2 error(s)",
      "  steps[0].bogus (5:3): unknown field 'bogus'",
      expect.stringMatching(/^ {2}steps\[0\]\.script\.actions\.onRun\.command \(9:18\): .*Param\.Nope/),
    ]);
  });

  it("a missing file", async () => {
    const result = await run("missing.yaml");
    expect(result.code).toBe(1);
    expect(result.lines).toEqual([expect.stringMatching(/^ERROR: '(.*\/)?missing\.yaml' does not exist\.$/)]);
  });

  it("an environment template is not a job", async () => {
    expect(await run("env.yaml")).toMatchObject({ code: 1, lines: ["ERROR: 'env.yaml' is an environment template; run needs a job template"] });
  });

  it("an unknown --step", async () => {
    expect(await run("job.yaml", "--step", "Nope")).toMatchObject({ code: 1, lines: ["ERROR: no step named 'Nope' in job 'Demo world'"] });
  });

  it("a job parameter the template rejects is located", async () => {
    const result = await run("job.yaml", "-p", "Nope=1");
    expect(result.code).toBe(1);
    expect(result.lines[0]).toBe("ERROR: could not create a job from 'job.yaml'");
    expect(result.out).toContain("Nope");
    expect(result.out).not.toContain("Running job");
  });
});

describe("task-to-task dependencies (TASK_DEPENDENCIES)", () => {
  /** The sim-then-render and DAG examples' task lines, in the order they ran. */
  const ran = (out: string) => out.match(/^\S+ {2}(?:step|frame|node) \d+$/gm)?.map((line) => line.replace(/^\S+ {2}/, "")) ?? [];
  const small = ["-p", "FrameCount=2", "-p", "TimeStepsPerFrame=2"];

  it.each([
    ["a chain forwards: parameter-space order", ["sim.yaml", ...small], ["step 0", "step 1", "step 2", "step 3", "frame 0", "frame 1"]],
    ["a chain backwards: the last time step first", ["reverse.yaml", ...small], ["step 3", "step 2", "step 1", "step 0", "frame 0", "frame 1"]],
    ["a DAG: each node after the nodes it waits for, the smallest ready first", ["dag.yaml", "-p", "GraphAdjList=[[3], [], [], [2, 1], [0]]"], ["node 1", "node 2", "node 3", "node 0", "node 4"]],
    [
      "--step with --run-dependencies runs a self-dependent step once",
      ["reverse.yaml", ...small, "--step", "RenderFrame", "--run-dependencies"],
      ["step 3", "step 2", "step 1", "step 0", "frame 0", "frame 1"],
    ],
    ["--step with --maximum-tasks takes the first tasks of that order", ["reverse.yaml", ...small, "--step", "SimulateTimeStep", "--maximum-tasks", "2"], ["step 3", "step 2"]],
  ])("%s", async (_name, argv, order) => {
    const result = await run(...argv);
    expect(result.code).toBe(0);
    expect(ran(result.out)).toEqual(order);
  });

  it("a graph whose tasks wait for each other is refused, located, before any task runs", async () => {
    const result = await run("dag.yaml", "-p", "GraphAdjList=[[], [2], [1]]");
    expect(result).toMatchObject({
      code: 1,
      lines: [
        "ERROR: could not create a job from 'dag.yaml'",
        "  steps[0].dependencies[0] (14:9): step ProcessGraphNode: tasks wait for each other in a cycle: NodeIndex=1 → NodeIndex=2 → NodeIndex=1",
      ],
    });
  });
});

describe("the Session working directory", () => {
  it("is removed after the run by default", async () => {
    const result = await run("job.yaml", "--step", "Prep", "--json");
    const dir = events(result.out)[0]?.workingDirectory as string;
    expect(dir).toMatch(/loom-run-/);
    expect(existsSync(dir)).toBe(false);
    expect(events(result.out).at(-1)).not.toHaveProperty("workingDirectory");
  });

  it("--preserve keeps it and prints its path", async () => {
    const result = await run("job.yaml", "--step", "Prep", "--preserve");
    expect(result.code).toBe(0);
    const line = result.lines.find((l) => l.startsWith("Working directory preserved at: "));
    const dir = line?.slice("Working directory preserved at: ".length) ?? "";
    try {
      expect(dir).toMatch(/loom-run-/);
      expect(existsSync(dir)).toBe(true);
      expect(result.out).toContain(`Session ended: SUCCEEDED (working directory kept: ${dir})`);
    } finally {
      if (dir) rmSync(dir, { recursive: true, force: true });
    }
  });

  it("--preserve --json puts the path in the result line", async () => {
    const result = await run("job.yaml", "--step", "Prep", "--preserve", "--json");
    const last = events(result.out).at(-1) as Event;
    const dir = last.workingDirectory as string;
    try {
      expect(last).toMatchObject({ type: "result", status: "SUCCEEDED", workingDirectory: expect.stringMatching(/loom-run-/) });
      expect(existsSync(dir)).toBe(true);
    } finally {
      if (dir) rmSync(dir, { recursive: true, force: true });
    }
  });
});
