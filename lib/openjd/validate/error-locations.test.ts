/**
 * Every independent problem of a template is reported in one pass (digest §18.12; conventions
 * "Template errors carry { path, line, column, message }"), each at the line:column of the
 * offending value — or of the key, for an unknown field — in YAML and in JSON.
 */
import { describe, expect, it } from "vitest";
import { checkTemplateText } from "../template";
import { errorsOf, job, withExtensions, withStep, type Doc } from "./template-test-support";

/**
 * 1-based line and column of the `occurrence`-th `needle` in `text`, found independently of the
 * validator; a `^` in the needle marks the character meant (default: the needle's first).
 */
function at(text: string, needle: string, occurrence = 1): { line: number; column: number } {
  const mark = Math.max(needle.indexOf("^"), 0);
  const plain = needle.replace("^", "");
  let offset = -1;
  for (let i = 0; i < occurrence; i++) offset = text.indexOf(plain, offset + 1);
  if (offset < 0) throw new Error(`'${plain}' not found`);
  const before = text.slice(0, offset + mark).split("\n");
  return { line: before.length, column: (before[before.length - 1] ?? "").length + 1 };
}

function located(text: string, format: "yaml" | "json") {
  return checkTemplateText(text, format).errors.map((e) => ({ path: e.path, line: e.line, column: e.column, message: e.message }));
}

const YAML = `specificationVersion: jobtemplate-2023-09
name: ""
parameterDefinitions:
- name: a-b
  type: INT
  default: nine
- name: Frames
  type: INT
  minValue: 10
  maxValue: 1
steps:
- name: Render
  hostRequirements: {}
  parameterSpace:
    taskParameterDefinitions:
    - name: Frame
      type: INT
      range: "1-5,3-7"
  script:
    actions:
      onRun:
        command: render
        args: ["-f", "{{Task.Param.Fram}}"]
        timeout: 0
- name: Render
  bogus: 1
  script:
    actions: {}
`;

const JSON_TEXT = `{
  "specificationVersion": "jobtemplate-2023-09",
  "name": "J",
  "extensions": ["WRAP_ACTIONS", "NOPE_NOPE"],
  "steps": [
    {"name": "S", "script": {"actions": {"onRun": {"command": "", "args": ["a }}"]}}}},
    {"name": "T", "dependencies": [{"dependsOn": "Z"}], "script": {"actions": {"onRun": {"command": "x"}}}, "extra": true}
  ]
}`;

describe("all independent errors at once", () => {
  it("YAML: reports each problem at its value (or key), in document order", () => {
    expect(located(YAML, "yaml")).toEqual([
      { path: "name", ...at(YAML, '""'), message: expect.stringMatching(/must not be empty/) },
      { path: "parameterDefinitions[0].name", ...at(YAML, "a-b"), message: expect.stringMatching(/letters, digits and '_'/) },
      { path: "parameterDefinitions[0].default", ...at(YAML, "nine"), message: expect.stringMatching(/not an integer/) },
      { path: "parameterDefinitions[1].maxValue", ...at(YAML, "maxValue: ^1"), message: expect.stringMatching(/greater than or equal to minValue/) },
      { path: "steps[0].hostRequirements", ...at(YAML, "hostRequirements: ^{}"), message: expect.stringMatching(/amounts, attributes, or both/) },
      { path: "steps[0].parameterSpace.taskParameterDefinitions[0].range", ...at(YAML, '"1-5,3-7"'), message: expect.stringMatching(/overlap/) },
      { path: "steps[0].script.actions.onRun.args[1]", ...at(YAML, '"{{Task'), message: expect.stringMatching(/Did you mean: Task\.Param\.Frame/) },
      { path: "steps[0].script.actions.onRun.timeout", ...at(YAML, "timeout: ^0"), message: expect.stringMatching(/positive/) },
      { path: "steps[1].name", ...at(YAML, "Render", 2), message: expect.stringMatching(/duplicate step name 'Render'/) },
      { path: "steps[1].bogus", ...at(YAML, "bogus"), message: expect.stringMatching(/unknown field 'bogus'/) },
      { path: "steps[1].script.actions.onRun", ...at(YAML, "actions: ^{}"), message: expect.stringMatching(/missing required field 'onRun'/) },
    ]);
  });

  it("JSON: same rules, columns inside one-line objects", () => {
    expect(located(JSON_TEXT, "json")).toEqual([
      { path: "extensions[0]", ...at(JSON_TEXT, '"WRAP_ACTIONS"'), message: expect.stringMatching(/'WRAP_ACTIONS' requires extension EXPR/) },
      { path: "extensions[1]", ...at(JSON_TEXT, '"NOPE_NOPE"'), message: expect.stringMatching(/unknown extension/) },
      { path: "steps[0].script.actions.onRun.command", ...at(JSON_TEXT, '""'), message: expect.stringMatching(/must not be empty/) },
      { path: "steps[0].script.actions.onRun.args[0]", ...at(JSON_TEXT, '"a }}"'), message: expect.stringMatching(/'}}' without a matching '{{'/) },
      { path: "steps[1].dependencies[0].dependsOn", ...at(JSON_TEXT, '"Z"'), message: expect.stringMatching(/unknown step 'Z'/) },
      { path: "steps[1].extra", ...at(JSON_TEXT, '"extra"'), message: expect.stringMatching(/unknown field 'extra'/) },
    ]);
  });

  it("CRLF line endings do not shift lines or columns", () => {
    const crlf = located(YAML.replace(/\n/g, "\r\n"), "yaml").map(({ line, column }) => ({ line, column }));
    expect(crlf).toEqual(located(YAML, "yaml").map(({ line, column }) => ({ line, column })));
  });

  it("a syntax error is located and stops validation", () => {
    const text = "specificationVersion: jobtemplate-2023-09\nname: J\nsteps: [\n";
    const errors = located(text, "yaml");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ path: "", message: expect.stringMatching(/not valid YAML/) });
    const json = located('{"specificationVersion": "jobtemplate-2023-09",\n "name": "J",}', "json");
    expect(json).toEqual([{ path: "", line: 2, column: expect.any(Number), message: expect.stringMatching(/not valid JSON/) }]);
  });

  it("a duplicate key in YAML is a syntax error", () => {
    const errors = located("specificationVersion: jobtemplate-2023-09\nname: J\nname: K\nsteps: []\n", "yaml");
    expect(errors).toEqual([{ path: "", line: 3, column: 1, message: expect.stringMatching(/not valid YAML/) }]);
  });
});

describe("a problem inside one item does not hide rules about the list", () => {
  const space = (taskParameterDefinitions: Doc[], combination?: string) =>
    withStep({ parameterSpace: combination === undefined ? { taskParameterDefinitions } : { taskParameterDefinitions, combination } });
  const chunk = (name: string, range: string) => ({ name, type: "CHUNK[INT]", range, chunks: { defaultTaskCount: 1, rangeConstraint: "CONTIGUOUS" } });
  const T = "steps[0].parameterSpace.taskParameterDefinitions";
  it.each<[string, Doc, string[]]>([
    [
      "a job/step environment name clash in a step with a bad command",
      { ...withStep({ stepEnvironments: [{ name: "E", variables: { A: "1" } }], script: { actions: { onRun: { command: "" } } } }), jobEnvironments: [{ name: "E", variables: { A: "1" } }] },
      ["steps[0].stepEnvironments[0].name", "steps[0].script.actions.onRun.command"],
    ],
    [
      "an undefined name in the combination beside a bad range",
      space(
        [
          { name: "A", type: "INT", range: "1-" },
          { name: "B", type: "INT", range: [1] },
        ],
        "A * B * C",
      ),
      [`${T}[0].range`, "steps[0].parameterSpace.combination"],
    ],
    [
      "a duplicate task parameter with a bad range",
      space([
        { name: "A", type: "INT", range: [1] },
        { name: "A", type: "INT", range: "x" },
      ]),
      [`${T}[1].name`, `${T}[1].range`],
    ],
    ["two CHUNK[INT] parameters, one with a bad range", withExtensions(space([chunk("A", "1-"), chunk("B", "1-2")]), "TASK_CHUNKING"), [T, `${T}[0].range`]],
    [
      "a duplicate embedded file with empty data",
      job([
        "steps[0].script.embeddedFiles",
        [
          { name: "F", type: "TEXT", data: "x" },
          { name: "F", type: "TEXT", data: "" },
        ],
      ]),
      ["steps[0].script.embeddedFiles[1].name", "steps[0].script.embeddedFiles[1].data"],
    ],
    [
      "a duplicate amount with a negative min",
      withStep({
        hostRequirements: {
          amounts: [
            { name: "amount.custom.a", min: 1 },
            { name: "amount.custom.A", min: -1 },
          ],
        },
      }),
      ["steps[0].hostRequirements.amounts[1].name", "steps[0].hostRequirements.amounts[1].min"],
    ],
    [
      "a bad parameter name beside a bad default and an unknown key",
      { ...job(), parameterDefinitions: [{ name: "a-b", type: "INT", default: "x", bogus: 1 }] },
      ["parameterDefinitions[0].name", "parameterDefinitions[0].default", "parameterDefinitions[0].bogus"],
    ],
  ])("%s", (_name, doc, paths) => {
    expect(
      errorsOf(doc)
        .map((e) => e.path)
        .sort(),
    ).toEqual([...paths].sort());
  });
});
