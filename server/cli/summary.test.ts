/** `loom summary FILE [-p K=V]… [--step S] [--json]`: the job a template creates. */
import { afterAll, describe, expect, it } from "vitest";
import { SIM_THEN_RENDER } from "../../lib/openjd/testing";
import { BROKEN_JOB, ENVIRONMENT, RENDER_JOB, runCli, tempTree } from "./cli-test-support";

const DEPENDENCIES = `specificationVersion: jobtemplate-2023-09
extensions: [TASK_DEPENDENCIES]
name: Deps
steps:
- name: Export
  parameterSpace: {taskParameterDefinitions: [{name: Frame, type: INT, range: "1-3"}]}
  script: {actions: {onRun: {command: echo}}}
- name: Render
  parameterSpace: {taskParameterDefinitions: [{name: Frame, type: INT, range: "1-3"}]}
  dependencies:
  - {dependsOn: Export, dependsOnSubspace: [{name: Frame, range: "{{Task.Param.Frame}}"}]}
  script: {actions: {onRun: {command: echo}}}
- name: Cache
  dependencies:
  - {dependsOn: Export, dependsOnSubspace: {anyOf: [{name: Frame, range: "{{Step.Export.ParameterSpace.Frame.Range}}"}]}}
  - {dependsOn: Render}
  script: {actions: {onRun: {command: echo}}}
`;
const tree = tempTree({
  "job.yaml": RENDER_JOB,
  "sim.yaml": SIM_THEN_RENDER,
  "deps.yaml": DEPENDENCIES,
  "env.yaml": ENVIRONMENT,
  "broken.yaml": BROKEN_JOB,
  "params/short.yaml": "Frames: '1-3'\nSize: 2\n",
  "params/shot.json": '{"Shot": "sh777"}',
  "params/list.yaml": "- 1\n",
  "params/proto.yaml": "__proto__: x\n",
  "proto.yaml":
    'specificationVersion: jobtemplate-2023-09\nname: "J {{Param.__proto__}}"\nparameterDefinitions:\n- name: __proto__\n  type: STRING\nsteps:\n- name: S\n  script:\n    actions:\n      onRun:\n        command: echo\n',
});
afterAll(tree.remove);
const summary = (...argv: string[]) => runCli(["summary", "job.yaml", ...argv], tree.dir);

/** 1-based line and column of the value after `key` on the line that contains `text` in RENDER_JOB. */
function position(text: string): string {
  const lines = RENDER_JOB.split("\n");
  const line = lines.findIndex((l) => l.includes(text));
  return `${line + 1}:${lines[line]!.indexOf(text) + text.indexOf(": ") + 3}`;
}

describe("the whole job", () => {
  it("lists steps in dependency order with task and chunk counts", async () => {
    const run = await summary();
    expect(run.code).toBe(0);
    expect(run.lines).toEqual(
      expect.arrayContaining([
        "--- Summary for 'Render sh010' ---",
        "  - Frames (STRING): 1-12",
        "Total steps: 2",
        "Total tasks: 25",
        "Total chunks (dispatched units): 7",
        "--- Steps in 'Render sh010' (dependency order) ---",
        "   Task parameters: Frame (CHUNK[INT], 12 values), Eye (STRING, 2 values)",
        "   24 tasks in 6 chunks of up to 5 contiguous values of Frame",
        "   Host requirements: amount.worker.vcpu >= 4",
        "   Depends on: 'Render'",
      ]),
    );
    expect(run.lines.filter((l) => /^\d+\. '/.test(l))).toEqual(["1. 'Render'", "2. 'Encode'"]);
  });

  it.each([
    [["-p", "Frames=1-3", "-p", "Size=2"], "Total tasks: 7", "   6 tasks in 4 chunks of up to 2 contiguous values of Frame"],
    [["-p", '{"Size": 12, "Shot": "sh020"}'], "--- Summary for 'Render sh020' ---", "   24 tasks in 2 chunks of up to 12 contiguous values of Frame"],
    [["--job-param", "Frames=1,5,9"], "Total tasks: 7", "   6 tasks in 6 chunks of up to 5 contiguous values of Frame"],
    [["-p", "file://params/short.yaml"], "Total tasks: 7", "   6 tasks in 4 chunks of up to 2 contiguous values of Frame"],
    [["-p", `file://${tree.dir}/params/shot.json`, "-p", "Shot=later"], "--- Summary for 'Render later' ---", "Total tasks: 25"],
    [["-p", "Shot=a=b"], "--- Summary for 'Render a=b' ---", "Total tasks: 25"],
  ])("job parameters %j", async (argv, ...expected) => {
    const run = await summary(...argv);
    expect(run.code).toBe(0);
    expect(run.lines).toEqual(expect.arrayContaining(expected));
  });

  it.each([["__proto__=x"], ['{"__proto__": "x"}'], ["file://params/proto.yaml"]])("-p %s sets a parameter named __proto__", async (arg) => {
    const run = await runCli(["summary", "proto.yaml", "-p", arg, "--json"], tree.dir);
    expect(JSON.parse(run.out)).toMatchObject({ status: "success", name: "J x", parameters: [{ name: "__proto__", type: "STRING", value: "x" }] });
  });

  it("--json", async () => {
    const run = await summary("--json", "-p", "Frames=1-8");
    expect(run.code).toBe(0);
    const json = JSON.parse(run.out);
    expect(json).toMatchObject({ status: "success", name: "Render sh010", totalSteps: 2, totalTasks: 17, totalChunks: 5, environments: [] });
    expect(json.steps.map((s: { name: string; taskCount: number; chunkCount: number }) => [s.name, s.taskCount, s.chunkCount])).toEqual([
      ["Render", 16, 4],
      ["Encode", 1, 1],
    ]);
    expect(json.steps[0]).toMatchObject({
      combination: "Frame * Eye",
      chunking: { parameter: "Frame", defaultTaskCount: 5, targetRuntimeSeconds: 0, rangeConstraint: "CONTIGUOUS" },
      hostRequirements: "amount.worker.vcpu >= 4",
      dependencies: [],
    });
    expect(json.steps[1]).toMatchObject({ dependencies: ["Render"], chunking: null, combination: null });
  });
});

describe("task-to-task dependencies: each dependency's kind, label and edge count", () => {
  it("the sim-then-render example", async () => {
    const run = await runCli(["summary", "sim.yaml", "-p", "FrameCount=2", "-p", "TimeStepsPerFrame=2"], tree.dir);
    expect(run.code).toBe(0);
    expect(run.lines).toEqual(
      expect.arrayContaining([
        "Total tasks: 6",
        "Task-to-task edges: 5",
        "   Depends on:",
        "     - 'SimulateTimeStep': tasks, self: TimeStepNumber = {{Task.Param.TimeStepNumber - 1}} (3 edges)",
        "     - 'SimulateTimeStep': tasks, TimeStepNumber = {{Task.Param.Frame * Param.TimeStepsPerFrame}} (2 edges)",
      ]),
    );
  });

  it("whole-step gates cost no edges", async () => {
    const run = await runCli(["summary", "deps.yaml", "--step", "Cache"], tree.dir);
    expect(run.code).toBe(0);
    expect(run.lines.slice(0, 6)).toEqual([
      "--- Summary for step 'Cache' in job 'Deps' ---",
      "",
      "Depends on:",
      "  - 'Export': step-any, any task (0 edges)",
      "  - 'Render': step, whole step (0 edges)",
      "1 task",
    ]);
  });

  it("--json", async () => {
    const run = await runCli(["summary", "deps.yaml", "--json"], tree.dir);
    const json = JSON.parse(run.out);
    expect(json.taskEdges).toBe(3);
    expect(json.steps.map((s: { name: string; taskDependencies: unknown }) => [s.name, s.taskDependencies])).toEqual([
      ["Export", []],
      ["Render", [{ dependsOn: "Export", kind: "tasks", label: "Frame = {{Task.Param.Frame}}", edges: 3 }]],
      [
        "Cache",
        [
          { dependsOn: "Export", kind: "step-any", label: "any task", edges: 0 },
          { dependsOn: "Render", kind: "step", label: "whole step", edges: 0 },
        ],
      ],
    ]);
  });

  it("a job without them shows neither", async () => {
    const json = JSON.parse((await summary("--json")).out);
    expect(json).not.toHaveProperty("taskEdges");
    expect(json.steps[1]).not.toHaveProperty("taskDependencies");
  });
});

describe("--step", () => {
  it("shows one step and its first dispatch units", async () => {
    const run = await summary("--step", "Render");
    expect(run.code).toBe(0);
    expect(run.lines[0]).toBe("--- Summary for step 'Render' in job 'Render sh010' ---");
    const first = run.lines.indexOf("First 5 of 6 chunks:");
    expect(run.lines.slice(first + 1, first + 6)).toEqual(["  Frame=1-4, Eye=left", "  Frame=1-4, Eye=right", "  Frame=5-8, Eye=left", "  Frame=5-8, Eye=right", "  Frame=9-12, Eye=left"]);
  });

  it("--json", async () => {
    const run = await summary("--step", "Encode", "--json");
    expect(JSON.parse(run.out)).toMatchObject({ status: "success", job: "Render sh010", name: "Encode", taskCount: 1, chunkCount: 1, dependencies: ["Render"] });
  });

  it("an unknown step → exit 1", async () => {
    expect(await summary("--step", "Comp")).toMatchObject({ code: 1, lines: ["ERROR: step 'Comp' does not exist in job 'Render sh010'"] });
    const run = await summary("--step", "Comp", "--json");
    expect(run.code).toBe(1);
    expect(JSON.parse(run.out)).toEqual({ status: "error", message: "step 'Comp' does not exist in job 'Render sh010'", errors: [] });
  });
});

describe("job-creation errors are located → exit 1", () => {
  it.each([
    [
      ["-p", "Frames=1-1025"],
      [`steps[1].parameterSpace.taskParameterDefinitions[0].range (${position('range: "{{Param.Frames}}"')}): the range has 1025 values; a task parameter may have at most 1024`],
    ],
    [
      ["-p", "Size=0"],
      [`steps[1].parameterSpace.taskParameterDefinitions[0].chunks.defaultTaskCount (${position('defaultTaskCount: "{{Param.Size}}"')}): defaultTaskCount resolved to 0; it must be at least 1`],
    ],
    [
      ["-p", "Size=x", "-p", "Extra=1"],
      ["parameters: values were given for parameters the templates do not define: Extra", "parameters.Size: parameter Size: 'x' is not an integer"],
    ],
    [["-p", `Shot=${"x".repeat(122)}`], [`name (${position('name: "Render')}): the job name resolved to 129 characters; at most 128 are allowed`]],
  ])("%j", async (argv, expected) => {
    const run = await summary(...argv);
    expect(run.code).toBe(1);
    expect(run.lines).toEqual(["ERROR: could not create a job from 'job.yaml'", ...expected.map((e) => `  ${e}`)]);
  });

  it("--json", async () => {
    const run = await summary("-p", "Frames=1-1025", "--json");
    expect(run.code).toBe(1);
    const [line, column] = position('range: "{{Param.Frames}}"').split(":").map(Number);
    expect(JSON.parse(run.out)).toEqual({
      status: "error",
      message: "could not create a job from 'job.yaml'",
      errors: [{ path: "steps[1].parameterSpace.taskParameterDefinitions[0].range", line, column, message: expect.stringContaining("1025 values") }],
    });
  });
});

describe("other failures", () => {
  it("an environment template → exit 1", async () => {
    const run = await runCli(["summary", "env.yaml"], tree.dir);
    expect(run).toMatchObject({ code: 1, lines: ["ERROR: 'env.yaml' is an environment template; summary needs a job template"] });
  });

  it("an invalid template → exit 1 with its located errors", async () => {
    const run = await runCli(["summary", "broken.yaml"], tree.dir);
    expect(run.code).toBe(1);
    expect(run.lines.slice(1)).toEqual(["  steps[0].bogus (5:3): unknown field 'bogus'", expect.stringMatching(/^ {2}steps\[0\]\.script\.actions\.onRun\.command \(9:18\): /)]);
  });

  it.each([
    ["missing.yaml", "'missing.yaml' does not exist."],
    ["params", "'params' is not a file."],
  ])("%s → exit 1", async (name, message) => {
    expect(await runCli(["summary", name], tree.dir)).toMatchObject({ code: 1, lines: [`ERROR: ${message}`] });
  });

  it.each([
    [["summary"], "summary takes exactly one FILE"],
    [["summary", "job.yaml", "-p", "Size"], "job parameter 'Size' is not KEY=VALUE, an inline JSON object, or file://PATH to a JSON or YAML file"],
    [["summary", "job.yaml", "-p"], "-p needs a value"],
    [["summary", "job.yaml", "-p", "file://params/none.yaml"], "'params/none.yaml' does not exist"],
    [["summary", "job.yaml", "-p", "file://params/list.yaml"], "job parameters in file://params/list.yaml must be a mapping of names to values"],
    [["summary", "job.yaml", "--step", "A", "--step", "B"], "--step given more than once"],
  ])("usage %j → exit 2", async (argv, message) => {
    const run = await runCli(argv, tree.dir);
    expect(run.code).toBe(2);
    expect(run.err.split("\n")[0]).toBe(`loom: ${message}`);
  });
});
