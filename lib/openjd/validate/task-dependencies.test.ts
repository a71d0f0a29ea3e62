/**
 * TASK_DEPENDENCIES (contract TASK_DEPENDENCIES.md §1, §2.2, §3): `dependsOnSubspace` parsed into
 * the model, and every static rule as a located error, in YAML and JSON alike.
 */
import { describe, expect, it } from "vitest";
import { createJob } from "../job/create-job";
import { checkTemplateText } from "../template";
import { ADJACENCY_DAG, SIM_THEN_RENDER } from "../testing/task-dependency-templates";
import { expectError, expectValid, job, withExtensions, type Doc, type InvalidRow, type ValidRow } from "./template-test-support";

const RUN = { actions: { onRun: { command: "echo" } } };
const space = (...parameters: Doc[]) => ({ taskParameterDefinitions: parameters });
const FRAME = { name: "Frame", type: "INT", range: "1-10" };
/** Export (Frame 1-10) and Render (Frame 1-10) depending on Export with `dependency`'s fields. */
function exportRender(dependency: Doc, extensions: string[] = ["TASK_DEPENDENCIES"]): Doc {
  const doc = job([
    "steps",
    [
      { name: "Export", parameterSpace: space(FRAME), script: RUN },
      { name: "Render", parameterSpace: space(FRAME), dependencies: [{ dependsOn: "Export", ...dependency }], script: RUN },
    ],
  ]);
  return extensions.length > 0 ? withExtensions(doc, ...extensions) : doc;
}
const frameByFrame = [{ name: "Frame", range: "{{Task.Param.Frame}}" }];
/** One step Sim (TimeStep 0-9) depending on itself with `dependency`'s fields. */
function selfChain(dependency: Doc, extensions: string[] = ["TASK_DEPENDENCIES", "EXPR"]): Doc {
  const step = { name: "Sim", parameterSpace: space({ name: "TimeStep", type: "INT", range: "0-9" }), dependencies: [{ dependsOn: "Sim", ...dependency }], script: RUN };
  const doc = job(["steps", [step]]);
  return extensions.length > 0 ? withExtensions(doc, ...extensions) : doc;
}
const R = "steps[1].dependencies[0]";
/** Step A with one task parameter X of `type` (`values`), and B waiting for the tasks of A whose X is `range`. */
function valuesDependency(type: string, values: unknown[], range: string): Doc {
  return withExtensions(
    job([
      "steps",
      [
        { name: "A", parameterSpace: space({ name: "X", type, range: values }), script: RUN },
        { name: "B", dependencies: [{ dependsOn: "A", dependsOnSubspace: [{ name: "X", range }] }], script: RUN },
      ],
    ]),
    "TASK_DEPENDENCIES",
  );
}

describe("valid task dependencies", () => {
  it.each<ValidRow>([
    ["FrameByFrame: a list of entries (allOf)", exportRender({ dependsOnSubspace: frameByFrame })],
    ["an explicit allOf", exportRender({ dependsOnSubspace: { allOf: frameByFrame } })],
    ["LayerOnAny: anyOf over the whole upstream range", exportRender({ dependsOnSubspace: { anyOf: [{ name: "Frame", range: "{{Step.Export.ParameterSpace.Frame.Range}}" }] } })],
    ["LayerOnSimFrame: a literal list", exportRender({ dependsOnSubspace: [{ name: "Frame", range: [1] }] })],
    ["a literal range expression", exportRender({ dependsOnSubspace: [{ name: "Frame", range: "3,8-10:2" }] })],
    ["LayerOnLayer: no subspace", exportRender({})],
    ["PreviousFrame: self with value - 1", selfChain({ dependsOnSubspace: [{ name: "TimeStep", range: ["{{Task.Param.TimeStep - 1}}"] }] })],
    ["EXPR: a list[int] expression", selfChain({ dependsOnSubspace: [{ name: "TimeStep", range: "{{[Task.Param.TimeStep - 1, Task.Param.TimeStep - 2]}}" }] })],
    ["EXPR: a range_expr of another step", exportRender({ dependsOnSubspace: [{ name: "Frame", range: "{{Step.Export.ParameterSpace.Frame.Range}}" }] }, ["TASK_DEPENDENCIES", "EXPR"])],
    ["one FLOAT value written out", valuesDependency("FLOAT", [1.5, 2.5], "1.5")],
    ["one PATH value written out", valuesDependency("PATH", ["/a", "/b"], "/a")],
    [
      "EXPR: Step.Name and a step's range in one expression are two references",
      exportRender({ dependsOnSubspace: [{ name: "Frame", range: "{{[1] if Step.Name == 'B' else Step.Export.ParameterSpace.Frame.Range}}" }] }, ["TASK_DEPENDENCIES", "EXPR"]),
    ],
    [
      "STRING parameters matched by value",
      withExtensions(
        job([
          "steps",
          [
            { name: "A", parameterSpace: space({ name: "Shot", type: "STRING", range: ["a", "b"] }), script: RUN },
            {
              name: "B",
              parameterSpace: space({ name: "Shot", type: "STRING", range: ["a", "b"] }),
              dependencies: [{ dependsOn: "A", dependsOnSubspace: [{ name: "Shot", range: "{{Task.Param.Shot}}" }] }],
              script: RUN,
            },
          ],
        ]),
        "TASK_DEPENDENCIES",
      ),
    ],
    [
      "PATH parameters matched by their raw value",
      withExtensions(
        job([
          "steps",
          [
            { name: "A", parameterSpace: space({ name: "Scene", type: "PATH", range: ["/a.ma"] }), script: RUN },
            {
              name: "B",
              parameterSpace: space({ name: "Scene", type: "PATH", range: ["/a.ma"] }),
              dependencies: [{ dependsOn: "A", dependsOnSubspace: [{ name: "Scene", range: ["{{Task.RawParam.Scene}}"] }] }],
              script: RUN,
            },
          ],
        ]),
        "TASK_DEPENDENCIES",
        "EXPR",
      ),
    ],
    [
      "a chunked downstream parameter is one integer in the dependency scope",
      withExtensions(
        job([
          "steps",
          [
            { name: "Export", parameterSpace: space(FRAME), script: RUN },
            {
              name: "Render",
              parameterSpace: space({ ...FRAME, type: "CHUNK[INT]", chunks: { defaultTaskCount: 2, rangeConstraint: "CONTIGUOUS" } }),
              dependencies: [{ dependsOn: "Export", dependsOnSubspace: [{ name: "Frame", range: ["{{Task.Param.Frame + 1}}"] }] }],
              script: RUN,
            },
          ],
        ]),
        "TASK_DEPENDENCIES",
        "TASK_CHUNKING",
        "EXPR",
      ),
    ],
  ])("%s", (_name, doc) => expectValid(doc));
});

describe("task dependency rules", () => {
  it.each<InvalidRow>([
    ["dependsOnSubspace without TASK_DEPENDENCIES", exportRender({ dependsOnSubspace: frameByFrame }, []), `${R}.dependsOnSubspace`, /requires extension TASK_DEPENDENCIES \(add it to 'extensions'\)/],
    ["the seed's parameterSubspace", exportRender({ parameterSubspace: frameByFrame }), `${R}.parameterSubspace`, /unknown field 'parameterSubspace'.*'dependsOnSubspace'/],
    [
      "an entry name that is not an upstream parameter, with did you mean",
      exportRender({ dependsOnSubspace: [{ name: "Fram", range: "1" }] }),
      `${R}.dependsOnSubspace[0].name`,
      /'Fram' is not a task parameter of step 'Export'; did you mean 'Frame'\?/,
    ],
    [
      "an entry name far from every upstream parameter",
      exportRender({ dependsOnSubspace: [{ name: "Shot", range: "1" }] }),
      `${R}.dependsOnSubspace[0].name`,
      /'Shot' is not a task parameter of step 'Export' \(it has 'Frame'\)/,
    ],
    [
      "the same name twice in one subspace",
      exportRender({ dependsOnSubspace: { anyOf: [...frameByFrame, { name: "Frame", range: "1" }] } }),
      `${R}.dependsOnSubspace.anyOf[1].name`,
      /task parameter 'Frame' is named twice in this subspace/,
    ],
    ["a self-dependency without a subspace", selfChain({}), "steps[0].dependencies[0].dependsOn", /cannot depend on itself without a 'dependsOnSubspace': a step cannot wait for all of itself/],
    ["both allOf and anyOf", exportRender({ dependsOnSubspace: { allOf: frameByFrame, anyOf: frameByFrame } }), `${R}.dependsOnSubspace`, /either 'allOf' or 'anyOf', not both/],
    ["an empty mapping", exportRender({ dependsOnSubspace: {} }), `${R}.dependsOnSubspace`, /exactly one of 'allOf' or 'anyOf'/],
    ["an unknown key beside allOf", exportRender({ dependsOnSubspace: { allOf: frameByFrame, oneOf: [] } }), `${R}.dependsOnSubspace.oneOf`, /unknown field 'oneOf'/],
    ["a string subspace", exportRender({ dependsOnSubspace: "Frame" }), `${R}.dependsOnSubspace`, /expected a list of \{name, range\} entries/],
    ["an empty list", exportRender({ dependsOnSubspace: [] }), `${R}.dependsOnSubspace`, /must not be empty/],
    ["an entry without range", exportRender({ dependsOnSubspace: [{ name: "Frame" }] }), `${R}.dependsOnSubspace[0].range`, /missing required field 'range'/],
    ["an invalid literal range expression", exportRender({ dependsOnSubspace: [{ name: "Frame", range: "1-" }] }), `${R}.dependsOnSubspace[0].range`, /invalid range expression/],
    ["a bad format string", exportRender({ dependsOnSubspace: [{ name: "Frame", range: "{{Task.Param.Frame" }] }), `${R}.dependsOnSubspace[0].range`, /invalid format string/],
    [
      "a reference outside the dependency scope",
      exportRender({ dependsOnSubspace: [{ name: "Frame", range: "{{Task.Param.Frme}}" }] }),
      `${R}.dependsOnSubspace[0].range`,
      /Did you mean: Task\.Param\.Frame/,
    ],
    [
      "Session values are not in the dependency scope",
      exportRender({ dependsOnSubspace: [{ name: "Frame", range: "{{Session.WorkingDirectory}}" }] }),
      `${R}.dependsOnSubspace[0].range`,
      /does not exist at this location/,
    ],
    ["a literal list item of the wrong type", exportRender({ dependsOnSubspace: [{ name: "Frame", range: ["x"] }] }), `${R}.dependsOnSubspace[0].range[0]`, /'x' is not an integer/],
    [
      "EXPR: a range that does not type-check",
      selfChain({ dependsOnSubspace: [{ name: "TimeStep", range: "{{Task.Param.TimeStep + 'a'}}" }] }),
      "steps[0].dependencies[0].dependsOnSubspace[0].range",
      /'\+' does not accept \(int, string\)/,
    ],
    [
      "EXPR: a range of the wrong type for an INT parameter",
      selfChain({ dependsOnSubspace: [{ name: "TimeStep", range: "{{'a'}}" }] }),
      "steps[0].dependencies[0].dependsOnSubspace[0].range",
      /expected int \| list\[int\] \| range_expr, got string 'a'/,
    ],
    ["one FLOAT value written out that is not a number", valuesDependency("FLOAT", [1.5, 2.5], "abc"), `${R}.dependsOnSubspace[0].range`, /'abc' is not a number/],
    ["one STRING value written out that is empty", valuesDependency("STRING", ["a", "b"], ""), `${R}.dependsOnSubspace[0].range`, /must not be empty/],
    [
      "Step.Name cannot name a step",
      exportRender({ dependsOnSubspace: [{ name: "Frame", range: "{{Step.Name.ParameterSpace.Frame.Range}}" }] }),
      `${R}.dependsOnSubspace[0].range`,
      /step 'Name' cannot be named in Step.<S>.ParameterSpace: 'Step.Name' is the current step's name/,
    ],
    [
      "a step name that is not an identifier",
      exportRender({ dependsOnSubspace: [{ name: "Frame", range: ["{{Step.Sim-1.ParameterSpace.Frame.Range}}"] }] }),
      `${R}.dependsOnSubspace[0].range[0]`,
      /step 'Sim-1' cannot be named in Step.<S>.ParameterSpace: 'Sim-1' is not an identifier/,
    ],
    [
      "an unknown step in Step.<S>",
      exportRender({ dependsOnSubspace: [{ name: "Frame", range: "{{Step.Exprt.ParameterSpace.Frame.Range}}" }] }),
      `${R}.dependsOnSubspace[0].range`,
      /Did you mean: Step.Export.ParameterSpace.Frame.Range/,
    ],
  ])("%s", (_name, doc, path, message) => expectError(doc, path, message));

  it("an upstream step without task parameters has nothing to select", () => {
    const doc = withExtensions(
      job([
        "steps",
        [
          { name: "Sim", script: RUN },
          { name: "Render", dependencies: [{ dependsOn: "Sim", dependsOnSubspace: [{ name: "Frame", range: "1" }] }], script: RUN },
        ],
      ]),
      "TASK_DEPENDENCIES",
    );
    expectError(doc, `${R}.dependsOnSubspace[0].name`, /step 'Sim' has no task parameters/);
  });

  it("the step graph without self-dependencies must stay acyclic", () => {
    const step = (name: string, other: string) => ({
      name,
      parameterSpace: space(FRAME),
      dependencies: [
        { dependsOn: name, dependsOnSubspace: [{ name: "Frame", range: "1" }] },
        { dependsOn: other, dependsOnSubspace: frameByFrame },
      ],
      script: RUN,
    });
    expectError(withExtensions(job(["steps", [step("A", "B"), step("B", "A")]]), "TASK_DEPENDENCIES"), "steps", /step dependencies form a cycle: A -> B -> A/);
  });

  it("without the extension a self-dependency keeps the 2023-09 message", () => {
    expectError(selfChain({}, []), "steps[0].dependencies[0].dependsOn", /^step 'Sim' cannot depend on itself$/);
  });
});

describe("the contract's examples (§4)", () => {
  it.each([
    ["sim then render", SIM_THEN_RENDER],
    ["DAG over an adjacency list", ADJACENCY_DAG],
  ])("%s checks clean", (_name, text) => expectValid(text));

  it.each([
    ["sim then render", SIM_THEN_RENDER],
    ["DAG over an adjacency list", ADJACENCY_DAG],
  ])("%s: job creation resolves its task graph (job/task-graph.test.ts has the edges)", (_name, text) => {
    const checked = checkTemplateText(text, "yaml");
    if (checked.template?.kind !== "job") throw new Error("not a job template");
    const created = createJob({ template: checked.template.template });
    expect(created.ok && created.job.taskGraph?.edges.length).toBeGreaterThan(0);
  });

  it("a template that declares TASK_DEPENDENCIES without using it still creates a job", () => {
    const checked = checkTemplateText(SIM_THEN_RENDER.replace(/ {4}dependencies:\n( {6}.*\n| {8}.*\n| {10}.*\n| {12}.*\n)+/g, ""), "yaml");
    if (checked.template?.kind !== "job") throw new Error(JSON.stringify(checked.errors));
    expect(createJob({ template: checked.template.template }).ok).toBe(true);
  });
});

describe("the model", () => {
  it("keeps each subspace with its mode, entries and paths", () => {
    const checked = checkTemplateText(SIM_THEN_RENDER, "yaml");
    expect(checked.errors).toEqual([]);
    const steps = checked.template?.kind === "job" ? checked.template.template.steps : [];
    expect(steps.map((s) => s.dependencies)).toEqual([["SimulateTimeStep"], ["SimulateTimeStep"]]);
    const render = steps[1]?.taskDependencies?.[0];
    expect(render).toMatchObject({ dependsOn: "SimulateTimeStep", path: ["steps", 1, "dependencies", 0], subspace: { mode: "allOf", path: ["steps", 1, "dependencies", 0, "dependsOnSubspace"] } });
    expect(render?.subspace.entries).toMatchObject([{ name: "TimeStepNumber", range: { kind: "list", items: [{ format: { raw: "{{Task.Param.Frame * Param.TimeStepsPerFrame}}" } }] } }]);
  });

  it("records anyOf", () => {
    const checked = checkTemplateText(JSON.stringify(exportRender({ dependsOnSubspace: { anyOf: frameByFrame } })), "json");
    const step = checked.template?.kind === "job" ? checked.template.template.steps[1] : undefined;
    expect(step?.taskDependencies?.[0]?.subspace).toMatchObject({ mode: "anyOf", entries: [{ name: "Frame", range: { kind: "expression" } }] });
  });

  it("locates a rule's error at line:column of the offending value", () => {
    const text = SIM_THEN_RENDER.replace('- name: TimeStepNumber\n            range: ["{{Task.Param.Frame', '- name: TimeStepNumbr\n            range: ["{{Task.Param.Frame');
    const errors = checkTemplateText(text, "yaml").errors;
    expect(errors).toEqual([
      {
        path: "steps[1].dependencies[0].dependsOnSubspace[0].name",
        line: 24,
        column: 19,
        message: "'TimeStepNumbr' is not a task parameter of step 'SimulateTimeStep'; did you mean 'TimeStepNumber'?",
      },
    ]);
  });
});
