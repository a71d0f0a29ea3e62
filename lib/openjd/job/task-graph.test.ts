/**
 * TASK_DEPENDENCIES at job creation (contract §2, §2.3, §4): each OpenCue mode, the seed's two
 * examples, discarded values, chunks on either side, matching by value for every type, any-of
 * groups, cycles, the edge cap and labels. Templates are JSON (or YAML) text through the normal
 * check and createJob path; edges read back as "Render Frame=2 ← Export Frame=2".
 */
import { describe, expect, it } from "vitest";
import { ADJACENCY_DAG, SIM_THEN_RENDER } from "../testing/task-dependency-templates";
import { createErrors, createOk } from "./job-test-support";
import { describeDependencies, describeEdges, graphOf } from "./task-graph-test-support";
import { taskOrder } from "./task-readiness";

type Doc = Record<string, unknown>;
const RUN = { actions: { onRun: { command: "echo" } } };
const space = (...definitions: Doc[]) => ({ taskParameterDefinitions: definitions });
const param = (name: string, type: string, range: unknown, extra: Doc = {}) => ({ name, type, range, ...extra });
const frames = (range: unknown = "1-3") => space(param("Frame", "INT", range));
const chunked = (range: string, size: number) => space(param("Frame", "CHUNK[INT]", range, { chunks: { defaultTaskCount: size, rangeConstraint: "CONTIGUOUS" } }));
const dependsOn = (name: string, subspace?: unknown) => (subspace === undefined ? { dependsOn: name } : { dependsOn: name, dependsOnSubspace: subspace });

function job(steps: Doc[], extensions = ["TASK_DEPENDENCIES", "EXPR", "TASK_CHUNKING"]): string {
  return JSON.stringify({ specificationVersion: "jobtemplate-2023-09", extensions, name: "J", steps: steps.map((s) => ({ ...s, script: RUN })) });
}
/** Export (its space) and Render (its space) depending on Export with `dependency`. */
function exportRender(dependency: Doc, render: Doc = frames(), exported: Doc = frames()): string {
  return job([
    { name: "Export", parameterSpace: exported },
    { name: "Render", parameterSpace: render, dependencies: [dependency] },
  ]);
}
const selfStep = (subspace: unknown, parameterSpace: Doc = frames()) => job([{ name: "Sim", parameterSpace, dependencies: [dependsOn("Sim", subspace)] }]);
const sameFrame = [{ name: "Frame", range: "{{Task.Param.Frame}}" }];

describe("OpenCue's modes (contract §4)", () => {
  it.each([
    [
      "LayerOnLayer: no subspace (a gate, here in a job that has a subspace elsewhere)",
      job([
        { name: "Export", parameterSpace: frames(), dependencies: [dependsOn("Export", [{ name: "Frame", range: ["{{Task.Param.Frame - 1}}"] }])] },
        { name: "Render", parameterSpace: frames(), dependencies: [dependsOn("Export")] },
      ]),
      ["Export: step, whole step, 0"],
      [],
    ],
    [
      "FrameByFrame: same parameter, same value",
      exportRender(dependsOn("Export", sameFrame)),
      ["Export: tasks, Frame = {{Task.Param.Frame}}, 3"],
      ["Render Frame=1 ← Export Frame=1", "Render Frame=2 ← Export Frame=2", "Render Frame=3 ← Export Frame=3"],
    ],
    [
      "PreviousFrame: value - 1 of another step (frame 1 has none)",
      exportRender(dependsOn("Export", [{ name: "Frame", range: ["{{Task.Param.Frame - 1}}"] }])),
      ["Export: tasks, Frame = {{Task.Param.Frame - 1}}, 2"],
      ["Render Frame=2 ← Export Frame=1", "Render Frame=3 ← Export Frame=2"],
    ],
    [
      "LayerOnSimFrame: every task on one fixed task",
      exportRender(dependsOn("Export", [{ name: "Frame", range: [1] }])),
      ["Export: tasks, Frame = 1, 3"],
      ["Render Frame=1 ← Export Frame=1", "Render Frame=2 ← Export Frame=1", "Render Frame=3 ← Export Frame=1"],
    ],
    [
      "LayerOnAny: anyOf over the whole upstream parameter",
      exportRender(dependsOn("Export", { anyOf: [{ name: "Frame", range: "{{Step.Export.ParameterSpace.Frame.Range}}" }] })),
      ["Export: step-any, any task, 0"],
      [],
    ],
  ])("%s", (_name, text, dependencies, edges) => {
    const created = createOk({ template: text });
    expect(describeDependencies(created)[1]).toEqual(dependencies);
    expect(describeEdges(created).filter((e) => e.startsWith("Render"))).toEqual(edges);
  });

  it("PreviousFrame on the step itself", () => {
    const created = createOk({ template: selfStep([{ name: "Frame", range: ["{{Task.Param.Frame - 1}}"] }]) });
    expect(describeDependencies(created)).toEqual([["Sim: tasks, self: Frame = {{Task.Param.Frame - 1}}, 2"]]);
    expect(describeEdges(created)).toEqual(["Sim Frame=2 ← Sim Frame=1", "Sim Frame=3 ← Sim Frame=2"]);
  });
});

describe("the seed's examples (contract §4)", () => {
  it("sim then render: a chain of time steps, each frame on its time step", () => {
    const created = createOk({ template: SIM_THEN_RENDER, parameterValues: { FrameCount: 3, TimeStepsPerFrame: 2 } });
    expect(describeDependencies(created)).toEqual([
      ["SimulateTimeStep: tasks, self: TimeStepNumber = {{Task.Param.TimeStepNumber - 1}}, 5"],
      ["SimulateTimeStep: tasks, TimeStepNumber = {{Task.Param.Frame * Param.TimeStepsPerFrame}}, 3"],
    ]);
    expect(describeEdges(created)).toEqual([
      ...[1, 2, 3, 4, 5].map((t) => `SimulateTimeStep TimeStepNumber=${t} ← SimulateTimeStep TimeStepNumber=${t - 1}`),
      "RenderFrame Frame=0 ← SimulateTimeStep TimeStepNumber=0",
      "RenderFrame Frame=1 ← SimulateTimeStep TimeStepNumber=2",
      "RenderFrame Frame=2 ← SimulateTimeStep TimeStepNumber=4",
    ]);
  });

  it("the DAG: node 0 first, 1 and 3 wait for 0, 2 for 0 and 1, 4 for 1", () => {
    const created = createOk({ template: ADJACENCY_DAG });
    const node = (i: number) => `ProcessGraphNode NodeIndex=${i}`;
    expect(describeEdges(created)).toEqual([`${node(1)} ← ${node(0)}`, `${node(2)} ← ${node(0)}`, `${node(2)} ← ${node(1)}`, `${node(3)} ← ${node(0)}`, `${node(4)} ← ${node(1)}`]);
    expect(taskOrder(created.taskGraph, 0, 5)).toEqual([0, 1, 2, 3, 4]);
    const reversed = createOk({ template: ADJACENCY_DAG, parameterValues: { GraphAdjList: "[[1], [], [0]]" } });
    expect(taskOrder(reversed.taskGraph, 0, 3)).toEqual([1, 0, 2]);
  });

  it.each([
    ["[[], [2], [1]]", "NodeIndex=1 → NodeIndex=2 → NodeIndex=1"],
    ["[[1], [2], [0], [2]]", "NodeIndex=0 → NodeIndex=1 → NodeIndex=2 → NodeIndex=0"],
    ["[[], [1]]", "NodeIndex=1 → NodeIndex=1"],
  ])("an adjacency list %s with a cycle is refused naming it", (list, cycle) => {
    expect(createErrors({ template: ADJACENCY_DAG, parameterValues: { GraphAdjList: list } })).toEqual([
      `template steps[0].dependencies[0]: step ProcessGraphNode: tasks wait for each other in a cycle: ${cycle}`,
    ]);
  });

  it("loom run's order is parameter-space order wherever the edges allow", () => {
    const created = createOk({ template: ADJACENCY_DAG, parameterValues: { GraphAdjList: "[[3], [], [], [2, 1], [0]]" } });
    expect(taskOrder(created.taskGraph, 0, 5)).toEqual([1, 2, 3, 0, 4]);
  });
});

describe("matched sets", () => {
  it.each([
    [
      "values outside the upstream space are discarded",
      frames("1-5"),
      frames("1-3"),
      sameFrame,
      ["Render Frame=1 ← Export Frame=1", "Render Frame=2 ← Export Frame=2", "Render Frame=3 ← Export Frame=3"],
    ],
    [
      "a literal range keeps only upstream values",
      frames("1-2"),
      frames("1-3"),
      [{ name: "Frame", range: "0-1,3,99" }],
      ["Render Frame=1 ← Export Frame=1", "Render Frame=1 ← Export Frame=3", "Render Frame=2 ← Export Frame=1", "Render Frame=2 ← Export Frame=3"],
    ],
    ["an empty matched set is met at once", frames("1-2"), frames("1-3"), [{ name: "Frame", range: ["{{Task.Param.Frame + 10}}"] }], []],
    [
      "a parameter the subspace does not name is unconstrained",
      frames("1-2"),
      space(param("Frame", "INT", "1-2"), param("Eye", "STRING", ["l", "r"])),
      sameFrame,
      ["Render Frame=1 ← Export Frame=1, Eye=l", "Render Frame=1 ← Export Frame=1, Eye=r", "Render Frame=2 ← Export Frame=2, Eye=l", "Render Frame=2 ← Export Frame=2, Eye=r"],
    ],
    [
      "an association upstream",
      frames("1-2"),
      { ...space(param("Frame", "INT", "1-2"), param("Eye", "STRING", ["l", "r"])), combination: "(Frame, Eye)" },
      sameFrame,
      ["Render Frame=1 ← Export Frame=1, Eye=l", "Render Frame=2 ← Export Frame=2, Eye=r"],
    ],
    [
      "an association with no task holding both values",
      frames("1-2"),
      { ...space(param("Frame", "INT", "1-2"), param("Eye", "STRING", ["l", "r"])), combination: "(Frame, Eye)" },
      [...sameFrame, { name: "Eye", range: "r" }],
      ["Render Frame=2 ← Export Frame=2, Eye=r"],
    ],
  ])("%s", (_name, render, exported, subspace, edges) => {
    expect(describeEdges(createOk({ template: exportRender(dependsOn("Export", subspace), render, exported) }))).toEqual(edges);
  });

  it("a range wider than the upstream parameter matches it whole: a gate, no edges", () => {
    const created = createOk({ template: exportRender(dependsOn("Export", [{ name: "Frame", range: "1-1000000000" }])) });
    expect(describeDependencies(created)).toEqual([[], ["Export: step, whole step, 0"]]);
  });

  it.each([
    [
      "STRING as the raw string",
      space(param("Shot", "STRING", ["b", "c", "d"])),
      space(param("Shot", "STRING", ["a", "b", "c"])),
      [{ name: "Shot", range: "{{Task.Param.Shot}}" }],
      ["Render Shot=b ← Export Shot=b", "Render Shot=c ← Export Shot=c"],
    ],
    [
      "PATH as the raw string",
      space(param("Scene", "PATH", ["/s/a.ma", "/s/b.ma"])),
      space(param("Scene", "PATH", ["/s/b.ma", "/s/a.ma/"])),
      [{ name: "Scene", range: ["{{Task.RawParam.Scene}}"] }],
      ["Render Scene=/s/b.ma ← Export Scene=/s/b.ma"],
    ],
    [
      "a literal STRING list",
      frames("1-2"),
      space(param("Shot", "STRING", ["a", "b", "c"])),
      [{ name: "Shot", range: ["c", "a"] }],
      ["Render Frame=1 ← Export Shot=a", "Render Frame=1 ← Export Shot=c", "Render Frame=2 ← Export Shot=a", "Render Frame=2 ← Export Shot=c"],
    ],
  ])("%s", (_name, render, exported, subspace, edges) => {
    expect(describeEdges(createOk({ template: exportRender(dependsOn("Export", subspace), render, exported) }))).toEqual(edges);
  });

  it("FLOAT as numbers: 1.50 matches 1.5, 2 matches 2.0", () => {
    const yaml = `specificationVersion: jobtemplate-2023-09
extensions: [TASK_DEPENDENCIES]
name: J
steps:
- name: Export
  parameterSpace:
    taskParameterDefinitions:
    - {name: Scale, type: FLOAT, range: [1.5, 2.0, 3.25]}
  script: {actions: {onRun: {command: echo}}}
- name: Render
  parameterSpace:
    taskParameterDefinitions:
    - {name: Scale, type: FLOAT, range: ["1.50", "2", "3"]}
  dependencies:
  - dependsOn: Export
    dependsOnSubspace:
    - {name: Scale, range: "{{Task.Param.Scale}}"}
  script: {actions: {onRun: {command: echo}}}
`;
    expect(describeEdges(createOk({ template: yaml }))).toEqual(["Render Scale=1.50 ← Export Scale=1.5", "Render Scale=2 ← Export Scale=2.0"]);
  });
});

describe("chunks: dependencies are decided per frame, edges join chunks", () => {
  it.each([
    [
      "chunked upstream",
      frames("1-6"),
      chunked("1-6", 3),
      [
        "Render Frame=1 ← Export Frame=1-3",
        "Render Frame=2 ← Export Frame=1-3",
        "Render Frame=3 ← Export Frame=1-3",
        "Render Frame=4 ← Export Frame=4-6",
        "Render Frame=5 ← Export Frame=4-6",
        "Render Frame=6 ← Export Frame=4-6",
      ],
    ],
    [
      "chunked downstream",
      chunked("1-4", 2),
      frames("1-4"),
      ["Render Frame=1-2 ← Export Frame=1", "Render Frame=1-2 ← Export Frame=2", "Render Frame=3-4 ← Export Frame=3", "Render Frame=3-4 ← Export Frame=4"],
    ],
    [
      "both, of other sizes (each chunk pair once)",
      chunked("1-6", 3),
      chunked("1-6", 2),
      ["Render Frame=1-3 ← Export Frame=1-2", "Render Frame=1-3 ← Export Frame=3-4", "Render Frame=4-6 ← Export Frame=3-4", "Render Frame=4-6 ← Export Frame=5-6"],
    ],
  ])("%s", (_name, render, exported, edges) => {
    expect(describeEdges(createOk({ template: exportRender(dependsOn("Export", sameFrame), render, exported) }))).toEqual(edges);
  });

  it("a self-dependency between chunks is one edge per chunk pair", () => {
    const created = createOk({ template: selfStep([{ name: "Frame", range: ["{{Task.Param.Frame - 3}}"] }], chunked("1-9", 3)) });
    expect(describeEdges(created)).toEqual(["Sim Frame=4-6 ← Sim Frame=1-3", "Sim Frame=7-9 ← Sim Frame=4-6"]);
  });

  it.each([
    ["all of", [{ name: "Frame", range: ["{{Task.Param.Frame - 1}}"] }], "its frame Frame=2 waits for frame 1 of the same chunk"],
    ["all of, several frames", [{ name: "Frame", range: "1-3" }], "its frame Frame=1 waits for frames 1, 2, 3 of the same chunk"],
    ["all of, itself", sameFrame, "its frame Frame=1 waits for itself"],
    ["any of", { anyOf: [{ name: "Frame", range: ["{{Task.Param.Frame + 1}}"] }] }, "its frame Frame=1 waits for any of frame 2 of the same chunk"],
  ])("a chunk that would wait for itself is refused (%s)", (_name, subspace, detail) => {
    expect(createErrors({ template: selfStep(subspace, chunked("1-6", 3)) })).toEqual([
      `template steps[0].dependencies[0]: step Sim: chunk Frame=1-3 would wait for itself: ${detail} (chunks are formed when the job is created; make the chunks smaller or the dependency not reach within a chunk)`,
    ]);
  });
});

describe("any-of", () => {
  it("one group per downstream task, released by any member", () => {
    const created = createOk({ template: exportRender(dependsOn("Export", { anyOf: [{ name: "Frame", range: ["{{Task.Param.Frame - 1}}", "{{Task.Param.Frame + 1}}"] }] })) });
    expect(describeDependencies(created)[1]).toEqual(["Export: tasks-any, any of Frame = [{{Task.Param.Frame - 1}}, {{Task.Param.Frame + 1}}], 4"]);
    expect(describeEdges(created)).toEqual(["Render Frame=1 ← any of Export Frame=2", "Render Frame=2 ← any of Export Frame=1 | Export Frame=3", "Render Frame=3 ← any of Export Frame=2"]);
    expect(graphOf(created).groupCount).toBe(3);
  });

  it("on the step itself, a task is never one of its own group", () => {
    const yaml = `specificationVersion: jobtemplate-2023-09
extensions: [TASK_DEPENDENCIES, EXPR]
name: J
parameterDefinitions:
- {name: After, type: "LIST[LIST[INT]]", default: [[], [0, 1], [1, 2]]}
steps:
- name: Node
  parameterSpace:
    taskParameterDefinitions:
    - {name: N, type: INT, range: "0-2"}
  dependencies:
  - dependsOn: Node
    dependsOnSubspace:
      anyOf: [{name: N, range: "{{Param.After[Task.Param.N]}}"}]
  script: {actions: {onRun: {command: echo}}}
`;
    const created = createOk({ template: yaml });
    expect(describeEdges(created)).toEqual(["Node N=1 ← any of Node N=0", "Node N=2 ← any of Node N=1"]);
    expect(createErrors({ template: yaml, parameterValues: { After: "[[0], [0, 1]]" } })).toEqual(["template steps[0].dependencies[0]: step Node: tasks wait for each other in a cycle: N=0 → N=0"]);
  });

  it("a task whose any-of neighbour is met at once runs first", () => {
    const created = createOk({ template: selfStep({ anyOf: [{ name: "Frame", range: ["{{Task.Param.Frame + 1}}"] }] }) });
    expect(describeEdges(created)).toEqual(["Sim Frame=1 ← any of Sim Frame=2", "Sim Frame=2 ← any of Sim Frame=3"]);
    expect(taskOrder(created.taskGraph, 0, 3)).toEqual([2, 1, 0]);
  });

  it.each([
    ["any of itself", { anyOf: [{ name: "Frame", range: "{{Step.Sim.ParameterSpace.Frame.Range}}" }] }, "Frame=1 → Frame=2 → Frame=1"],
    ["all of itself", [{ name: "Frame", range: "{{Step.Sim.ParameterSpace.Frame.Range}}" }], "Frame=1 → Frame=1"],
    ["a task on itself", sameFrame, "Frame=1 → Frame=1"],
  ])("a step whose tasks wait for each other is refused: %s", (_name, subspace, cycle) => {
    expect(createErrors({ template: selfStep(subspace) })).toEqual([`template steps[0].dependencies[0]: step Sim: tasks wait for each other in a cycle: ${cycle}`]);
  });
});

describe("job-creation rules", () => {
  it("a job without subspaces has no task graph, even declaring the extension", () => {
    expect(createOk({ template: exportRender(dependsOn("Export")) }).taskGraph).toBeNull();
  });

  it("steps without subspaces are listed with whole-step gates, in template order", () => {
    const created = createOk({
      template: job([
        { name: "Render", parameterSpace: frames(), dependencies: [dependsOn("Prep"), dependsOn("Export", sameFrame)] },
        { name: "Export", parameterSpace: frames(), dependencies: [dependsOn("Prep")] },
        { name: "Prep" },
      ]),
    });
    expect(graphOf(created).steps.map((deps) => deps.map((d) => [d.dependsOn, d.upstreamStep, d.kind]))).toEqual([
      [
        ["Prep", 2, "step"],
        ["Export", 1, "tasks"],
      ],
      [["Prep", 2, "step"]],
      [],
    ]);
    expect(describeEdges(created)).toHaveLength(3);
  });

  it("more edges than the cap is refused with the count", () => {
    expect(createErrors({ template: exportRender(dependsOn("Export", sameFrame), frames("1-10"), frames("1-10")), maxTaskEdges: 5 })).toEqual([
      "template steps[1].dependencies[0]: the job would have 10 task-to-task edges; at most 5 are allowed (this dependency passes the limit; a dependency that matches the whole upstream step for every task costs no edges)",
    ]);
    expect(createOk({ template: exportRender(dependsOn("Export", sameFrame), frames("1-10"), frames("1-10")), maxTaskEdges: 10 }).taskGraph?.edges.length).toBe(10);
  });

  it("a range that fails for one task is located, with the task", () => {
    const errors = createErrors({ template: ADJACENCY_DAG.replace('range: "0-{{len(Param.GraphAdjList) - 1}}"', 'range: "0-5"') });
    expect(errors).toEqual([expect.stringMatching(/^template steps\[0\]\.dependencies\[0\]\.dependsOnSubspace\[0\]\.range: range of NodeIndex for task NodeIndex=5: .*index/)]);
  });

  it("a value that is not an integer is an error, not a discarded value", () => {
    const text = job([
      { name: "Export", parameterSpace: frames() },
      { name: "Render", dependencies: [dependsOn("Export", [{ name: "Frame", range: ["{{Param.Which}}"] }])] },
    ]).replace('"name":"J"', '"name":"J","parameterDefinitions":[{"name":"Which","type":"STRING","default":"x"}]');
    expect(createErrors({ template: text.replace('"EXPR",', "") })).toEqual(["template steps[1].dependencies[0].dependsOnSubspace[0].range[0]: range of Frame: 'x' is not an integer"]);
  });

  it("labels stay short", () => {
    const long = `{{Task.Param.Frame + ${"0 + ".repeat(30)}0}}`;
    const created = createOk({ template: exportRender(dependsOn("Export", [{ name: "Frame", range: [long] }])) });
    expect(graphOf(created).steps[1]?.[0]?.label).toBe(`Frame = ${long.slice(0, 60)}…`);
  });
});

describe("cost", () => {
  it("a 100,000 × 100,000 frame-by-frame job resolves to 100,000 edges quickly", () => {
    const big = space(param("Frame", "INT", "1-1000"), param("Layer", "INT", "1-100"));
    const text = exportRender(
      dependsOn("Export", [
        { name: "Frame", range: "{{Task.Param.Frame}}" },
        { name: "Layer", range: "{{Task.Param.Layer}}" },
      ]),
      big,
      big,
    );
    const started = performance.now();
    const created = createOk({ template: text });
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(graphOf(created).edges.length).toBe(100_000);
    expect(graphOf(created).edges.upTask.every((up, i) => up === graphOf(created).edges.downTask[i])).toBe(true);
  });
});
