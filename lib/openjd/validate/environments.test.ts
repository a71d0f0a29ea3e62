/**
 * Environments (spec §4; digest §6, §8; catalogue rows 96–105): names and their uniqueness
 * across job and step environments, script actions, variables, and WRAP_ACTIONS / EXPR gates.
 */
import { describe, it } from "vitest";
import { expectError, expectValid, job, withStep, type Doc, type InvalidRow, type ValidRow } from "./template-test-support";

const ENTER = { actions: { onEnter: { command: "echo" } } };
const env = (name: string, fields: Doc = { script: ENTER }): Doc => ({ name, ...fields });
const jobEnvs = (...list: Doc[]) => job(["jobEnvironments", list]);
const stepEnvs = (...list: Doc[]) => withStep({ stepEnvironments: list });
const E = "jobEnvironments[0]";
const vars = (variables: unknown) => jobEnvs(env("E", { variables }));

describe("valid environments", () => {
  it.each<ValidRow>([
    ["script with onEnter and onExit", jobEnvs(env("E", { script: { actions: { onEnter: { command: "a" }, onExit: { command: "b" } } } }))],
    ["variables only", vars({ A: "1", _b: "" })],
    ["script, variables and a description", jobEnvs(env("E", { script: ENTER, variables: { A: "x" }, description: "d" }))],
    ["name of 64 characters", jobEnvs(env("e".repeat(64)))],
    ["name with spaces", jobEnvs(env("Render env 1"))],
    ["variable name of 256 characters", vars({ ["V".repeat(256)]: "x" })],
    ["variable value of 2048 characters", vars({ A: "v".repeat(2048) })],
    ["variable value with control characters (any character is allowed)", vars({ A: "l1\nl2\t\u0001" })],
    [
      "variables using Param (PATH mapped), RawParam and Session values",
      { ...vars({ A: "{{Param.P}}", B: "{{RawParam.P}}", C: "{{Session.WorkingDirectory}}" }), parameterDefinitions: [{ name: "P", type: "PATH" }] },
    ],
    ["the same step environment name in two steps", job(["steps", ["A", "B"].map((name) => ({ name, stepEnvironments: [env("E")], script: { actions: { onRun: { command: "a" } } } }))])],
    ["job and step environments with different names", { ...stepEnvs(env("S")), jobEnvironments: [env("J")] }],
    [
      "environment files used in both onEnter and onExit",
      jobEnvs(
        env("E", {
          script: {
            actions: { onEnter: { command: "{{Env.File.F}}" }, onExit: { command: "{{Env.File.F}}" } },
            embeddedFiles: [{ name: "F", type: "TEXT", data: "{{Env.File.F}}" }],
          },
        }),
      ),
    ],
  ])("%s", (_name, doc) => expectValid(doc));
});

describe("environment fields", () => {
  it.each<InvalidRow>([
    ["empty jobEnvironments", job(["jobEnvironments", []]), "jobEnvironments", /must not be empty/],
    ["empty stepEnvironments", stepEnvs(), "steps[0].stepEnvironments", /must not be empty/],
    ["environment that is a string", jobEnvs("E" as never), E, /expected a mapping/],
    ["missing name", jobEnvs({ script: ENTER }), `${E}.name`, /missing required field 'name'/],
    ["empty name", jobEnvs(env("")), `${E}.name`, /must not be empty/],
    ["name of 65 characters", jobEnvs(env("e".repeat(65))), `${E}.name`, /at most 64/],
    ["name with a newline", jobEnvs(env("a\nb")), `${E}.name`, /control characters/],
    ["neither script nor variables", jobEnvs(env("E", {})), E, /needs a script, variables, or both/],
    ["unknown key", jobEnvs(env("E", { script: ENTER, actions: {} })), `${E}.actions`, /unknown field 'actions'/],
    ["empty description", jobEnvs(env("E", { script: ENTER, description: "" })), `${E}.description`, /must not be empty/],
    ["duplicate job environment names", jobEnvs(env("E"), env("E")), "jobEnvironments[1].name", /duplicate environment name 'E'/],
    ["duplicate step environment names", stepEnvs(env("E"), env("E")), "steps[0].stepEnvironments[1].name", /duplicate environment name 'E'/],
    ["step environment named like a job environment", { ...stepEnvs(env("E")), jobEnvironments: [env("E")] }, "steps[0].stepEnvironments[0].name", /same name as a job environment/],
  ])("%s", (_name, doc, path, message) => expectError(doc, path, message));
});

describe("environment scripts", () => {
  const script = (s: unknown) => jobEnvs(env("E", { script: s }));
  const S = `${E}.script`;
  it.each<InvalidRow>([
    ["script without actions", script({}), `${S}.actions`, /missing required field 'actions'/],
    ["actions: {}", script({ actions: {} }), `${S}.actions`, /onEnter, onExit, or both/],
    ["onRun in an environment", script({ actions: { onEnter: { command: "a" }, onRun: { command: "b" } } }), `${S}.actions.onRun`, /unknown field 'onRun'/],
    ["onEnter with an empty command", script({ actions: { onEnter: { command: "" } } }), `${S}.actions.onEnter.command`, /must not be empty/],
    [
      "onWrapTaskRun needs WRAP_ACTIONS",
      script({ actions: { onEnter: { command: "a" }, onWrapTaskRun: { command: "b" } } }),
      `${S}.actions.onWrapTaskRun`,
      /requires extension WRAP_ACTIONS \(add it to 'extensions'\)/,
    ],
    ["onWrapEnvEnter needs WRAP_ACTIONS", script({ actions: { onEnter: { command: "a" }, onWrapEnvEnter: { command: "b" } } }), `${S}.actions.onWrapEnvEnter`, /requires extension WRAP_ACTIONS/],
    ["script 'let' needs EXPR", script({ ...ENTER, let: ["x = 1"] }), `${S}.let`, /requires extension EXPR \(add it to 'extensions'\)/],
    ["empty embeddedFiles", script({ ...ENTER, embeddedFiles: [] }), `${S}.embeddedFiles`, /must not be empty/],
    [
      "Task.File in an environment",
      script({ actions: { onEnter: { command: "{{Task.File.F}}" } }, embeddedFiles: [{ name: "F", type: "TEXT", data: "x" }] }),
      `${S}.actions.onEnter.command`,
      /Task\.File\.F does not exist.*Task values only exist in a step's script/,
    ],
    [
      "another environment's file",
      jobEnvs(env("A", { script: { ...ENTER, embeddedFiles: [{ name: "F", type: "TEXT", data: "x" }] } }), env("B", { script: { actions: { onEnter: { command: "{{Env.File.F}}" } } } })),
      "jobEnvironments[1].script.actions.onEnter.command",
      /Env\.File\.F does not exist/,
    ],
  ])("%s", (_name, doc, path, message) => expectError(doc, path, message));
});

describe("variables", () => {
  const V = `${E}.variables`;
  it.each<InvalidRow>([
    ["variables: {}", vars({}), V, /must not be empty/],
    ["variables that is a list", vars([{ A: "1" }]), V, /expected a mapping/],
    ["name starting with a digit", vars({ "1A": "x" }), `${V}.1A`, /not a valid environment variable name/],
    ["name with a hyphen", vars({ "A-B": "x" }), `${V}.A-B`, /not a valid environment variable name/],
    ["name with a non-latin letter", vars({ É: "x" }), `${V}.É`, /not a valid environment variable name/],
    ["name of 257 characters", vars({ ["V".repeat(257)]: "x" }), `${V}.${"V".repeat(257)}`, /not a valid environment variable name/],
    ["value of 2049 characters", vars({ A: "v".repeat(2049) }), `${V}.A`, /at most 2048/],
    ["value that is a list", vars({ A: ["x"] }), `${V}.A`, /expected a string/],
    ["value using Task.Param in a step environment", stepEnvs(env("E", { variables: { A: "{{Task.Param.X}}" } })), "steps[0].stepEnvironments[0].variables.A", /Task\.Param\.X does not exist/],
    [
      "value using the environment's own file",
      jobEnvs(env("E", { variables: { A: "{{Env.File.F}}" }, script: { ...ENTER, embeddedFiles: [{ name: "F", type: "TEXT", data: "x" }] } })),
      `${V}.A`,
      /Env\.File\.F does not exist/,
    ],
    ["value with an unclosed '{{'", vars({ A: "{{ Param.X" }), `${V}.A`, /never closed/],
  ])("%s", (_name, doc, path, message) => expectError(doc, path, message));
});
