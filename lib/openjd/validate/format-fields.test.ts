/**
 * Format strings (spec §7.3, §7.3.1; digest §1, §10, §18.1–§18.2; catalogue rows 9–11, 34–35,
 * 85–86, 94–95, 105; reference §2.5): syntax in every kind of format-string field, literal
 * fields that take braces as text, and which value references are visible where.
 */
import { describe, expect, it } from "vitest";
import { errorsOf, expectError, expectValid, job, withOnRun, withStep, type Doc, type InvalidRow, type ValidRow } from "./template-test-support";
import { suggest } from "./scopes";

const ARG = "steps[0].script.actions.onRun.args[0]";
const params = (doc: Doc, ...list: Doc[]) => ({ ...doc, parameterDefinitions: list });
const arg = (text: string) => withOnRun({ args: [text] });
const RUN = { actions: { onRun: { command: "echo" } } };
const frameStep = (name: string, fields: Doc) => ({ name, parameterSpace: { taskParameterDefinitions: [{ name: "Frame", type: "INT", range: "1-3" }] }, script: RUN, ...fields });

describe("format-string syntax", () => {
  it.each<ValidRow>([
    ["no spaces inside the braces", arg("{{Param.X}}")],
    ["spaces and tabs inside the braces", arg("{{ \tParam.X\t }}")],
    ["several interpolations and literal text", arg("a {{Param.X}}-{{RawParam.X}} b")],
    ["single braces are literal text", arg("{a} } { }x{")],
    ["a '}' right after an interpolation", arg("{{Param.X}}}")],
  ])("%s", (_name, doc) => expectValid(params(doc, { name: "X", type: "STRING" })));

  it.each<InvalidRow>([
    ["stray '}}' in an arg", arg("a }} b"), ARG, /'}}' without a matching '{{'/],
    ["'}}' before a valid interpolation", arg("}} {{Param.X}}"), ARG, /'}}' without a matching '{{'/],
    ["unclosed '{{' in an arg", arg("{{ Param.X"), ARG, /'{{' is never closed/],
    ["nested '{{'", arg("{{ {{Param.X}} }}"), ARG, /braces cannot nest/],
    ["empty '{{}}'", arg("{{}}"), ARG, /empty expression/],
    ["whitespace-only '{{   }}'", arg("{{   }}"), ARG, /empty expression/],
    ["arithmetic needs EXPR", arg("{{ Param.X + 1 }}"), ARG, /requires extension EXPR \(add it to 'extensions'\)/],
    ["a function call needs EXPR", arg("{{ len(Param.X) }}"), ARG, /requires extension EXPR/],
    ["a reference starting with a digit", arg("{{ 1abc }}"), ARG, /requires extension EXPR/],
    ["stray '}}' in the job name", job(["name", "J }}"]), "name", /'}}' without a matching '{{'/],
    ["unclosed '{{' in a command", withOnRun({ command: "{{Param.X" }), "steps[0].script.actions.onRun.command", /never closed/],
    [
      "stray '}}' in a STRING task range value",
      withStep({ parameterSpace: { taskParameterDefinitions: [{ name: "T", type: "STRING", range: ["a}}"] }] } }),
      "steps[0].parameterSpace.taskParameterDefinitions[0].range[0]",
      /without a matching/,
    ],
    ["a Python dict literal in embedded data", job(["steps[0].script.embeddedFiles", [{ name: "F", type: "TEXT", data: "d = {{}}" }]]), "steps[0].script.embeddedFiles[0].data", /empty expression/],
  ])("%s", (_name, doc, path, message) => expectError(params(doc, { name: "X", type: "STRING" }), path, message));

  it.each<ValidRow>([
    ["step name", withStep({ name: "a }} {{b" })],
    ["job description", job(["description", "{{ not a reference"])],
    ["environment name", job(["jobEnvironments", [{ name: "{{E}}", variables: { A: "1" } }]])],
    ["embedded file filename", job(["steps[0].script.embeddedFiles", [{ name: "F", type: "TEXT", data: "x", filename: "a{{b}}.txt" }]])],
    ["parameter default and allowedValues", params(job(), { name: "S", type: "STRING", default: "}}", allowedValues: ["}}", "{{"] })],
  ])("literal field: %s takes braces as text", (_name, doc) => expectValid(doc));
});

describe("where value references are valid", () => {
  const P = [
    { name: "Path", type: "PATH" },
    { name: "Str", type: "STRING" },
    { name: "Num", type: "INT" },
  ];
  it.each<ValidRow>([
    ["non-PATH Param and PATH RawParam in the job name", job(["name", "{{Param.Str}} {{Param.Num}} {{RawParam.Path}}"])],
    [
      "PATH Param in a command, an arg and embedded data",
      job(["steps[0].script", { actions: { onRun: { command: "{{Param.Path}}", args: ["{{Param.Path}}"] } }, embeddedFiles: [{ name: "F", type: "TEXT", data: "{{Param.Path}}" }] }]),
    ],
    ["PATH Param in environment variables and actions", job(["jobEnvironments", [{ name: "E", variables: { A: "{{Param.Path}}" }, script: { actions: { onEnter: { command: "{{Param.Path}}" } } } }]])],
    ["every Session value in a step script", withOnRun({ args: ["{{Session.WorkingDirectory}}", "{{Session.HasPathMappingRules}}", "{{Session.PathMappingRulesFile}}"] })],
    [
      "Session values in a step environment's actions",
      withStep({ stepEnvironments: [{ name: "E", script: { actions: { onEnter: { command: "{{Session.WorkingDirectory}}" }, onExit: { command: "{{Session.PathMappingRulesFile}}" } } } }] }),
    ],
    [
      "Task.Param and Task.RawParam in the step's own script",
      job(["steps", [frameStep("S", { script: { actions: { onRun: { command: "echo", args: ["{{Task.Param.Frame}}", "{{Task.RawParam.Frame}}"] } } } })]]),
    ],
  ])("%s", (_name, doc) => expectValid(params(doc, ...P)));

  it.each<InvalidRow>([
    ["PATH Param in the job name", job(["name", "{{Param.Path}}"]), "name", /PATH parameter values are path-mapped on the worker.*use RawParam\.Path/],
    ["Session value in the job name", job(["name", "{{Session.WorkingDirectory}}"]), "name", /Session\.WorkingDirectory does not exist.*Session values only exist in actions/],
    ["Task value in the job name", job(["name", "{{Task.Param.Frame}}"]), "name", /Task\.Param\.Frame does not exist.*only exist in a step's script/],
    ["undefined job parameter", arg("{{Param.Nope}}"), ARG, /Variable Param\.Nope does not exist at this location/],
    ["unknown Session value", arg("{{Session.Host}}"), ARG, /Session\.Host does not exist/],
    [
      "Task.Param of another step",
      job(["steps", [frameStep("A", {}), { name: "B", script: { actions: { onRun: { command: "{{Task.Param.Frame}}" } } } }]]),
      "steps[1].script.actions.onRun.command",
      /Task\.Param\.Frame does not exist/,
    ],
    [
      "Task.File of another step",
      job([
        "steps",
        [
          { name: "A", script: { ...RUN, embeddedFiles: [{ name: "F", type: "TEXT", data: "x" }] } },
          { name: "B", script: { actions: { onRun: { command: "{{Task.File.F}}" } } } },
        ],
      ]),
      "steps[1].script.actions.onRun.command",
      /Task\.File\.F does not exist/,
    ],
    [
      "Task.RawParam in the step's environment",
      job(["steps", [frameStep("S", { stepEnvironments: [{ name: "E", script: { actions: { onEnter: { command: "{{Task.RawParam.Frame}}" } } } }] })]]),
      "steps[0].stepEnvironments[0].script.actions.onEnter.command",
      /Task\.RawParam\.Frame does not exist/,
    ],
    ["Task.Param in a job environment", job(["jobEnvironments", [{ name: "E", variables: { A: "{{Task.Param.Frame}}" } }]]), "jobEnvironments[0].variables.A", /Task\.Param\.Frame does not exist/],
    [
      "a step environment's file in the step script",
      withStep({
        stepEnvironments: [{ name: "E", script: { actions: { onEnter: { command: "echo" } }, embeddedFiles: [{ name: "F", type: "TEXT", data: "x" }] } }],
        script: { actions: { onRun: { command: "{{Env.File.F}}" } } },
      }),
      "steps[0].script.actions.onRun.command",
      /Env\.File\.F does not exist/,
    ],
    [
      "Param of a PATH parameter in a task range",
      withStep({ parameterSpace: { taskParameterDefinitions: [{ name: "T", type: "STRING", range: ["{{Param.Path}}"] }] } }),
      "steps[0].parameterSpace.taskParameterDefinitions[0].range[0]",
      /use RawParam\.Path/,
    ],
    ["Job.Name without EXPR", arg("{{Job.Name}}"), ARG, /Job\.Name does not exist/],
  ])("%s", (_name, doc, path, message) => expectError(params(doc, ...P), path, message));
});

describe("'Did you mean' suggestions", () => {
  const step = job(["steps", [frameStep("S", { script: { actions: { onRun: { command: "echo", args: ["{{Task.Param.Fram}}"] } } } })]]);
  it.each<InvalidRow>([
    ["a misspelt task parameter", step, ARG, /Did you mean: Task\.Param\.Frame$/],
    ["a misspelt scope", params(arg("{{Params.Str}}"), { name: "Str", type: "STRING" }), ARG, /Did you mean: Param\.Str$/],
    ["ties list every candidate in order", params(arg("{{Param.Ax}}"), { name: "Ab", type: "INT" }, { name: "Ac", type: "INT" }), ARG, /Did you mean one of: Param\.Ab, Param\.Ac$/],
  ])("%s", (_name, doc, path, message) => expectError(doc, path, message));

  it("no suggestion when nothing is close", () => {
    const [error] = errorsOf(params(arg("{{Param.CompletelyDifferent}}"), { name: "X", type: "INT" }));
    expect(error?.message).not.toMatch(/Did you mean/);
  });

  it.each<[string, string[], string[]]>([
    ["Param.Fram", ["Param.Frame", "RawParam.Frame"], ["Param.Frame"]],
    ["Task.Param.X", ["Task.Param.Y", "Task.RawParam.X"], ["Task.Param.Y"]],
    ["Param.Abcdefgh", ["Param.A"], []],
  ])("suggest(%s, %j) → %j", (reference, candidates, expected) => expect(suggest(reference, candidates)).toEqual(expected));
});
