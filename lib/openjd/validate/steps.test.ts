/**
 * Steps (spec §3, §3.1, §3.2, §3.5; digest §5, §7.2, §13.3; catalogue rows 13–18, 36–40):
 * names, required fields, dependencies and cycles, and FEATURE_BUNDLE_1 simple actions.
 */
import { describe, it } from "vitest";
import { expectError, expectValid, job, minimalJob, withExtensions, withStep, type Doc, type InvalidRow, type ValidRow } from "./template-test-support";

const RUN = { actions: { onRun: { command: "echo" } } };
const step = (name: string, dependsOn: string[] = []): Doc => (dependsOn.length === 0 ? { name, script: RUN } : { name, dependencies: dependsOn.map((d) => ({ dependsOn: d })), script: RUN });
const steps = (...list: Doc[]) => job(["steps", list]);
const fb1 = (doc: Doc) => withExtensions(doc, "FEATURE_BUNDLE_1");

describe("valid steps", () => {
  it.each<ValidRow>([
    ["step name of exactly 64 characters", withStep({ name: "s".repeat(64) })],
    ["step name with spaces and non-latin letters", withStep({ name: "Render — étape 1" })],
    ["step names differing only in case", steps(step("S"), step("s"))],
    ["step with a description", withStep({ description: "multi\nline" })],
    ["a diamond of dependencies", steps(step("A"), step("B", ["A"]), step("C", ["A"]), step("D", ["B", "C"]))],
    ["a dependency on a later step", steps(step("B", ["A"]), step("A"))],
    [
      "simple action bash with args, timeout and cancelation",
      fb1(
        withStep({
          script: undefined,
          bash: { script: "echo {{Task.Param.F}}", args: ["x"], timeout: 10, cancelation: { mode: "NOTIFY_THEN_TERMINATE" } },
          parameterSpace: { taskParameterDefinitions: [{ name: "F", type: "INT", range: [1] }] },
        }),
      ),
    ],
    [
      "simple action python with a format-string timeout",
      fb1({ ...withStep({ script: undefined, python: { script: "print(1)", timeout: "{{Param.T}}" } }), parameterDefinitions: [{ name: "T", type: "INT" }] }),
    ],
  ])("%s", (_name, doc) => expectValid(doc));
});

describe("step fields", () => {
  it.each<InvalidRow>([
    ["no steps", job(["steps", undefined]), "steps", /missing required field 'steps'/],
    ["empty steps", job(["steps", []]), "steps", /must not be empty/],
    ["steps that is a mapping", job(["steps", { name: "S" }]), "steps", /expected a list/],
    ["step name of 65 characters", withStep({ name: "s".repeat(65) }), "steps[0].name", /at most 64/],
    ["step name with a newline", withStep({ name: "a\nb" }), "steps[0].name", /control characters/],
    ["step name that is a number", withStep({ name: 5 }), "steps[0].name", /expected a string/],
    ["duplicate step names (second reported)", steps(step("S"), step("S")), "steps[1].name", /duplicate step name 'S'/],
    ["unknown key in a step", withStep({ foo: 1 }), "steps[0].foo", /unknown field 'foo'/],
    ["step 'let' needs EXPR", withStep({ let: ["x = 1"] }), "steps[0].let", /requires extension EXPR \(add it to 'extensions'\)/],
    ["no script", withStep({ script: undefined }), "steps[0].script", /missing required field 'script'/],
    ["script: {}", withStep({ script: {} }), "steps[0].script.actions", /missing required field 'actions'/],
    ["actions: {}", withStep({ script: { actions: {} } }), "steps[0].script.actions.onRun", /missing required field 'onRun'/],
    ["script 'let' needs EXPR", withStep({ script: { ...RUN, let: ["x = 1"] } }), "steps[0].script.let", /requires extension EXPR/],
    [
      "unknown key in actions (onEnter on a step)",
      withStep({ script: { actions: { onRun: { command: "echo" }, onEnter: { command: "echo" } } } }),
      "steps[0].script.actions.onEnter",
      /unknown field 'onEnter'/,
    ],
    ["empty step description", withStep({ description: "" }), "steps[0].description", /must not be empty/],
  ])("%s", (_name, doc, path, message) => expectError(doc, path, message));
});

describe("dependencies", () => {
  it.each<InvalidRow>([
    ["dependsOn an unknown step", steps(step("A"), step("B", ["Z"])), "steps[1].dependencies[0].dependsOn", /unknown step 'Z'/],
    ["dependsOn is case-sensitive", steps(step("A"), step("B", ["a"])), "steps[1].dependencies[0].dependsOn", /unknown step 'a'/],
    ["self dependency", steps(step("A", ["A"])), "steps[0].dependencies[0].dependsOn", /cannot depend on itself/],
    ["duplicate dependency", steps(step("A"), step("B", ["A", "A"])), "steps[1].dependencies[1].dependsOn", /duplicate dependency on 'A'/],
    ["dependency without dependsOn", withStep({ dependencies: [{}] }), "steps[0].dependencies[0].dependsOn", /missing required field 'dependsOn'/],
    ["dependency with an unknown key", steps(step("A"), { ...step("B", ["A"]), dependencies: [{ dependsOn: "A", kind: "all" }] }), "steps[1].dependencies[0].kind", /unknown field 'kind'/],
    ["dependsOn that is a number", withStep({ dependencies: [{ dependsOn: 1 }] }), "steps[0].dependencies[0].dependsOn", /expected a string/],
    ["dependencies that is a string", withStep({ dependencies: "A" }), "steps[0].dependencies", /expected a list/],
    ["two-step cycle", steps(step("A", ["B"]), step("B", ["A"])), "steps", /cycle: .*A.*B.*|cycle: .*B.*A.*/],
    ["three-step cycle A→C→B→A", steps(step("A", ["C"]), step("B", ["A"]), step("C", ["B"])), "steps", /form a cycle/],
    ["cycle beside an acyclic step", steps(step("X"), step("A", ["X", "B"]), step("B", ["A"])), "steps", /form a cycle/],
  ])("%s", (_name, doc, path, message) => expectError(doc, path, message));
});

describe("simple actions (FEATURE_BUNDLE_1)", () => {
  const simple = (fields: Doc) => fb1(withStep({ script: undefined, ...fields }));
  it.each<InvalidRow>([
    ["two simple actions on one step", simple({ bash: { script: "a" }, python: { script: "b" } }), "steps[0].python", /at most one simple action/],
    ["simple action together with script", fb1(withStep({ bash: { script: "a" } })), "steps[0].bash", /either 'script' or one simple action/],
    ["simple action with a command", simple({ bash: { script: "a", command: "sh" } }), "steps[0].bash.command", /unknown field 'command'/],
    ["simple action with an empty script", simple({ node: { script: "" } }), "steps[0].node.script", /must not be empty/],
    ["simple action script that is not a string", simple({ cmd: { script: ["a"] } }), "steps[0].cmd.script", /expected a string/],
    ["simple action that is not a mapping", simple({ powershell: "echo" }), "steps[0].powershell", /expected a mapping/],
    ["simple action timeout 0", simple({ bash: { script: "a", timeout: 0 } }), "steps[0].bash.timeout", /positive/],
    ["simple action 'let' needs EXPR", simple({ bash: { script: "a", let: ["x = 1"] } }), "steps[0].bash.let", /requires extension EXPR/],
    ["simple action script using Env.File", simple({ bash: { script: "{{Env.File.X}}" } }), "steps[0].bash.script", /Env\.File\.X does not exist/],
    ["simple action timeout using Session.*", simple({ bash: { script: "a", timeout: "{{Session.WorkingDirectory}}" } }), "steps[0].bash.timeout", /Session\.WorkingDirectory does not exist/],
    ["simple action without FEATURE_BUNDLE_1", withStep({ script: undefined, python: { script: "a" } }), "steps[0].python", /requires extension FEATURE_BUNDLE_1/],
  ])("%s", (_name, doc, path, message) => expectError(doc, path, message));

  it.each(["bash", "cmd", "node", "powershell", "python"])("%s is a valid simple action key", (kind) => {
    expectValid(simple({ [kind]: { script: "x" } }));
  });

  it("the base template stays valid with FEATURE_BUNDLE_1 declared", () => expectValid(fb1(minimalJob())));
});
