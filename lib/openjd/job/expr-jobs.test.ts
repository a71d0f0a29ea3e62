/**
 * Job creation for templates that declare EXPR: template-scope fields are evaluated with typed
 * parameter values, whole-field expressions keep their type (null drops a field, lists splice),
 * and step `let` values are computed once and shared by the step's fields.
 */
import { describe, expect, it } from "vitest";
import { toText } from "../expr/values";
import { createErrors, createOk } from "./job-test-support";

const template = (step: string, extensions = "[EXPR]", params = "") => `specificationVersion: jobtemplate-2023-09
extensions: ${extensions}
name: "Job {{ Param.N * 2 }}"
parameterDefinitions:
- {name: N, type: INT, default: 3}
- {name: S, type: STRING, default: "2-4"}
${params}steps:
- name: Render
${step}
  script:
    actions:
      onRun:
        command: echo
`;

const space = (range: string, type = "INT") => `  parameterSpace:\n    taskParameterDefinitions:\n    - {name: F, type: ${type}, range: ${range}}`;
const values = (yaml: string, parameterValues: Record<string, string> = {}) => {
  const job = createOk({ template: template(yaml), parameterValues });
  return [...job.steps[0]!.parameterSpace].map((set) => set.F?.value);
};

describe("EXPR job creation", () => {
  it("resolves the job name with arithmetic", () => {
    expect(createOk({ template: template(""), parameterValues: { N: "21" } }).name).toBe("Job 42");
  });

  it.each([
    ['"{{ [1, 2, Param.N] }}"', ["1", "2", "3"]],
    ['"{{ range(1, Param.N + 1) }}"', ["1", "2", "3"]],
    ['"{{ Param.N }}"', ["3"]],
    ['"{{ Param.S }}"', ["2", "3", "4"]],
    ['"{{ range_expr(Param.S) }}"', ["2", "3", "4"]],
    ['["{{ [1, 2] }}", 7, "{{ null }}"]', ["1", "2", "7"]],
  ])("an INT range %s gives %j", (range, expected) => {
    expect(values(space(range))).toEqual(expected);
  });

  it.each([
    ['"{{ [Param.N * 0.5, 2.25] }}"', "FLOAT", ["1.5", "2.25"]],
    ["\"{{ ['a', 'b' * 2] }}\"", "STRING", ["a", "bb"]],
    ["[\"{{ ['x', 'y'] }}\", z]", "STRING", ["x", "y", "z"]],
  ])("a %s range of %s gives %j", (range, type, expected) => {
    expect(values(space(range, type))).toEqual(expected);
  });

  it("evaluates step lets once and shares them with the step's fields", () => {
    const job = createOk({ template: template(`  let: ["last = Param.N * 2", "first = last - 1"]\n${space('"{{ range(first, last + 1) }}"')}`) });
    const step = job.steps[0]!;
    expect([...step.parameterSpace].map((s) => s.F?.value)).toEqual(["5", "6"]);
    expect(toText(step.letValues.get("last")!)).toBe("6");
    expect(toText(step.letValues.get("Step.Name")!)).toBe("Render");
  });

  it("gives step lets Job.Name and Step.Name", () => {
    const job = createOk({ template: template(`  let: ["label = Job.Name + '/' + Step.Name"]`) });
    expect(toText(job.steps[0]!.letValues.get("label")!)).toBe("Job 6/Render");
  });

  it("resolves host requirements from lets and splices attribute lists", () => {
    const step = `  let: ["cpus = Param.N + 1", "oses = ['linux', 'macos']"]\n  hostRequirements:\n    amounts: [{name: amount.worker.vcpu, min: "{{ cpus }}"}]\n    attributes: [{name: attr.worker.os.family, anyOf: ["{{ oses }}"]}]`;
    const job = createOk({ template: template(step, "[EXPR, FEATURE_BUNDLE_1]") });
    expect(job.steps[0]!.hostRequirements).toEqual({
      amounts: [{ name: "amount.worker.vcpu", min: 4 }],
      attributes: [{ name: "attr.worker.os.family", anyOf: ["linux", "macos"] }],
    });
  });

  it("refuses values that fail only with the submitted parameters, naming the field", () => {
    expect(createErrors({ template: template(space('"{{ range(1, 10 // (Param.N - 3)) }}"')), parameterValues: { N: "3" } })).toEqual([
      expect.stringMatching(/^template steps\[0\]\.parameterSpace\.taskParameterDefinitions\[0\]\.range: division by zero/),
    ]);
    expect(createErrors({ template: template(`  let: ["x = fail('N must be small') if Param.N > 5 else 1"]`), parameterValues: { N: "9" } })).toEqual([
      "template steps[0].let[0]: let x: N must be small",
    ]);
  });

  it("refuses a range expression that produces too many values", () => {
    expect(createErrors({ template: template(space('"{{ range(Param.N * 1000) }}"')) })).toEqual([expect.stringMatching(/range has 3000 values; a task parameter may have at most 1024/)]);
  });

  it("drops a FEATURE_BUNDLE_1 timeout that evaluates to null and checks one that does not", () => {
    const withTimeout = (timeout: string) => `specificationVersion: jobtemplate-2023-09
extensions: [EXPR, FEATURE_BUNDLE_1]
name: J
parameterDefinitions:
- {name: N, type: INT, default: 3}
steps:
- name: S
  script:
    actions:
      onRun:
        command: echo
        timeout: "${timeout}"
`;
    expect(createOk({ template: withTimeout("{{ null if Param.N > 0 else 5 }}") }).name).toBe("J");
    expect(createErrors({ template: withTimeout("{{ Param.N - 3 }}") })).toEqual(["template steps[0].script.actions.onRun.timeout: timeout resolved to 0; it must be a positive number of seconds"]);
  });
});
