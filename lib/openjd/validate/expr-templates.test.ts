/**
 * Templates that declare EXPR (spec digest §13.4, §14, §5.4, §10.1): expressions are parsed and
 * type-checked in the scope of each field, let bindings follow their scoping rules, and each
 * field's target type decides what a whole-field expression may produce.
 */
import { describe, it } from "vitest";
import { expectError, expectValid, job, withExtensions, type Doc, type InvalidRow, type ValidRow } from "./template-test-support";

const expr = (...changes: Array<[string, unknown]>): Doc => withExtensions(job(...changes), "EXPR");
const N = { name: "N", type: "INT", default: 3 };
const S = { name: "S", type: "STRING", default: "x" };
const P = { name: "P", type: "PATH", default: "in/scene.exr" };
const ARG = "steps[0].script.actions.onRun.args[0]";
const withArg = (arg: string, ...more: Array<[string, unknown]>) => expr(["parameterDefinitions", [N, S, P]], ["steps[0].script.actions.onRun.args", [arg]], ...more);

describe("expressions in format strings", () => {
  it.each<ValidRow>([
    ["arithmetic on parameters", withArg("{{ Param.N * 2 + 1 }}")],
    ["a conditional", withArg("{{ 'big' if Param.N > 2 else 'small' }}")],
    ["path properties of a PATH parameter on the worker", withArg("{{ Param.P.stem }}{{ Param.P.suffix }}")],
    ["path building with / and +", withArg("{{ Param.P.parent / 'out' / (Param.P.stem + '.mov') }}")],
    ["RawParam of a PATH is a string", withArg("{{ RawParam.P.upper() }}")],
    ["literal braces through a string literal", withArg("{{ '{{' }} not an expression {{ '}}' }}")],
    ["a list splices into args", withArg("{{ ['-n', string(Param.N)] }}")],
    ["null drops an arg", withArg("{{ null if Param.N > 0 else '-x' }}")],
    ["Job.Name in a step script", withArg("{{ Job.Name }}")],
    ["Step.Name in a step script", withArg("{{ Step.Name.lower() }}")],
    ["Session values are typed (path, bool)", withArg("{{ Session.WorkingDirectory / 'x' if Session.HasPathMappingRules else 'none' }}")],
    ["apply_path_mapping in a host field", withArg("{{ apply_path_mapping('/mnt/x') }}")],
    ["a multi-line expression", withArg("{{\n  Param.N\n  + 1\n}}")],
    ["an expression in the job name", expr(["parameterDefinitions", [N]], ["name", "Render {{ Param.N * 2 }}"])],
    ["repr_sh for safe shell quoting", withArg("{{ repr_sh(Param.S) }}")],
  ])("%s", (_name, doc) => expectValid(doc));

  it.each<InvalidRow>([
    ["a type error", withArg("{{ Param.N + Param.S }}"), ARG, /'\+' does not accept \(int, string\) .*at character 4/],
    ["an unknown name", withArg("{{ Param.Nope }}"), ARG, /unknown name 'Param\.Nope'/],
    ["an unknown function", withArg("{{ nosuch(1) }}"), ARG, /unknown function 'nosuch'/],
    ["a syntax error, located in the field", withArg("x {{ 1 + }}"), ARG, /at character/],
    ["a non-bool condition", withArg("{{ 1 if Param.S else 2 }}"), ARG, /a condition must be a bool, got string/],
    ["a constant division by zero is found early", withArg("{{ 1 // 0 }}"), ARG, /division by zero/],
    ["a list where a command needs a string", expr(["steps[0].script.actions.onRun.command", "{{ [1, 2] }}"]), "steps[0].script.actions.onRun.command", /expected string, got list\[int\]/],
    ["Job.Name inside the job name", expr(["name", "{{ Job.Name }}"]), "name", /unknown name 'Job\.Name'/],
    ["Step.Name in a job environment", expr(["jobEnvironments", [{ name: "E", variables: { V: "{{ Step.Name }}" } }]]), "jobEnvironments[0].variables.V", /unknown name 'Step\.Name'/],
    ["Param of a PATH in a template-scope field", expr(["parameterDefinitions", [P]], ["name", "{{ Param.P.stem }}"]), "name", /unknown name 'Param\.P\.stem'|Param\.P/],
    ["apply_path_mapping in a template field", expr(["name", "{{ apply_path_mapping('/x') }}"]), "name", /unknown function 'apply_path_mapping'/],
    ["Session values in a template field", expr(["name", "{{ Session.WorkingDirectory }}"]), "name", /unknown name 'Session\.WorkingDirectory'/],
    ["Task values outside the step script", expr(["name", "{{ Task.Param.F }}"]), "name", /unknown name 'Task\.Param\.F'/],
  ])("%s", (_name, doc, path, message) => expectError(doc, path, message));
});

describe("let bindings", () => {
  const stepLet = (lets: string[], arg = "{{ x }}") => withArg(arg, ["steps[0].let", lets]);
  const scriptLet = (lets: string[], arg = "{{ y }}") => withArg(arg, ["steps[0].script.let", lets]);

  it.each<ValidRow>([
    ["a step let used in the script", stepLet(["x = Param.N * 2"])],
    ["later bindings see earlier ones", stepLet(["a = 2", "x = a * Param.N"])],
    ["a script let sees task-time values", scriptLet(["y = Session.WorkingDirectory / 'out'"])],
    ["a script let sees the step's lets", withArg("{{ y }}", ["steps[0].let", ["x = 1"]], ["steps[0].script.let", ["y = x + 1"]])],
    ["an environment let", expr(["jobEnvironments", [{ name: "E", script: { let: ["d = Session.WorkingDirectory / 'env'"], actions: { onEnter: { command: "echo", args: ["{{ d }}"] } } } }]])],
    [
      "a step let in host requirements",
      withExtensions(job(["steps[0].let", ["n = 4"]], ["steps[0].hostRequirements", { amounts: [{ name: "amount.worker.vcpu", min: "{{ n }}" }] }]), "EXPR", "FEATURE_BUNDLE_1"),
    ],
    [
      "a step let in the parameter space",
      expr(["steps[0].let", ["last = 3"]], ["steps[0].parameterSpace", { taskParameterDefinitions: [{ name: "F", type: "INT", range: "{{ range(1, last + 1) }}" }] }]),
    ],
  ])("%s", (_name, doc) => expectValid(doc));

  it.each<InvalidRow>([
    ["let without EXPR", job(["steps[0].let", ["x = 1"]]), "steps[0].let", /requires extension EXPR/],
    ["an upper-case name", stepLet(["X = 1"], "a"), "steps[0].let[0]", /invalid let binding/],
    ["a missing '='", stepLet(["x 1"], "a"), "steps[0].let[0]", /invalid let binding/],
    ["a duplicate name", stepLet(["x = 1", "x = 2"]), "steps[0].let[1]", /'x' is bound twice/],
    ["a self-reference", stepLet(["x = x + 1"], "a"), "steps[0].let[0]", /refers to itself/],
    ["shadowing a step let in the script", withArg("a", ["steps[0].let", ["x = 1"]], ["steps[0].script.let", ["x = 2"]]), "steps[0].script.let[0]", /'x' would shadow/],
    ["a step let cannot see Session values", stepLet(["x = Session.WorkingDirectory"]), "steps[0].let[0]", /unknown name 'Session\.WorkingDirectory'/],
    ["a step let cannot see Task values", stepLet(["x = Task.Param.F"]), "steps[0].let[0]", /unknown name 'Task\.Param\.F'/],
    ["a type error in a let", stepLet(["x = 1 + 'a'"]), "steps[0].let[0]", /'\+' does not accept/],
    ["an empty let list", stepLet([], "a"), "steps[0].let", /must not be empty/],
    [
      "51 bindings",
      stepLet(
        Array.from({ length: 51 }, (_, i) => `v${i} = ${i}`),
        "a",
      ),
      "steps[0].let",
      /at most 50/,
    ],
  ])("%s", (_name, doc, path, message) => expectError(doc, path, message));
});

describe("typed fields", () => {
  const space = (range: unknown, type = "INT") => expr(["parameterDefinitions", [N, S]], ["steps[0].parameterSpace", { taskParameterDefinitions: [{ name: "F", type, range }] }]);
  const RANGE = "steps[0].parameterSpace.taskParameterDefinitions[0].range";

  it.each<ValidRow>([
    ["an INT range from a list expression", space("{{ [1, 2, Param.N] }}")],
    ["an INT range from range()", space("{{ range(1, Param.N + 1) }}")],
    ["an INT range from an int", space("{{ Param.N }}")],
    ["an INT range from a string parameter", space("{{ Param.S }}")],
    ["a STRING range from one list expression", space("{{ ['a', Param.S] }}", "STRING")],
    ["a FLOAT range from one list expression", space("{{ [Param.N * 0.5, 2.0] }}", "FLOAT")],
    ["list items that splice", space(["{{ [1, 2] }}", 3])],
    ["a FEATURE_BUNDLE_1 timeout expression", withExtensions(job(["parameterDefinitions", [N]], ["steps[0].script.actions.onRun.timeout", "{{ Param.N * 60 }}"]), "EXPR", "FEATURE_BUNDLE_1")],
  ])("%s", (_name, doc) => expectValid(doc));

  it.each<InvalidRow>([
    ["an INT range from a bool", space("{{ true }}"), RANGE, /expected/],
    ["a STRING range expression with text around it", space("a{{ Param.S }}", "STRING"), RANGE, /must be a list of values/],
    [
      "a timeout that cannot be an int",
      withExtensions(job(["steps[0].script.actions.onRun.timeout", "{{ 'soon' }}"]), "EXPR", "FEATURE_BUNDLE_1"),
      "steps[0].script.actions.onRun.timeout",
      /expected int\?/,
    ],
  ])("%s", (_name, doc, path, message) => expectError(doc, path, message));
});
