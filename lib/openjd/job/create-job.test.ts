/**
 * Job creation resolves every template-scope format string and re-checks what the spec says
 * about the result: the job name (§1.1.1), host requirements (§3.3), FEATURE_BUNDLE_1 action
 * numbers (RFC 0004); steps come out in dependency order.
 */
import { describe, expect, it } from "vitest";
import { createErrors, createOk } from "./job-test-support";

const STEP = "  script:\n    actions:\n      onRun:\n        command: echo\n";

function template(options: { name?: string; parameters?: string; steps?: string; extensions?: string; environments?: string } = {}): string {
  return `specificationVersion: jobtemplate-2023-09
${options.extensions ? `extensions: [${options.extensions}]\n` : ""}name: "${options.name ?? "{{Param.N}}"}"
parameterDefinitions:
- name: N
  type: STRING
  default: Job
${options.parameters ?? ""}${options.environments ?? ""}steps:
${options.steps ?? `- name: S\n${STEP}`}`;
}

describe("job name", () => {
  const cases: Array<[string, string | undefined, string, string | null]> = [
    ["resolved from parameters", undefined, "Shot 010 — take 2", "Shot 010 — take 2"],
    ["128 characters", undefined, "A".repeat(128), "A".repeat(128)],
    ["129 characters", undefined, "A".repeat(129), "the job name resolved to 129 characters; at most 128 are allowed"],
    ["128 code points, 256 UTF-16 units", undefined, "😀".repeat(128), "😀".repeat(128)],
    ["512 characters with FEATURE_BUNDLE_1", "FEATURE_BUNDLE_1", "A".repeat(512), "A".repeat(512)],
    ["513 characters with FEATURE_BUNDLE_1", "FEATURE_BUNDLE_1", "A".repeat(513), "the job name resolved to 513 characters; at most 512 are allowed"],
    ["empty", undefined, "", "the job name resolved to an empty string"],
    ["a tab", undefined, "a\tb", "the job name resolved to text with control characters"],
    ["a newline", undefined, "a\nb", "the job name resolved to text with control characters"],
    ["a C1 control", undefined, "a\u0085b", "the job name resolved to text with control characters"],
  ];
  it.each(cases)("%s", (_, extensions, name, expected) => {
    const input = { template: template(extensions ? { extensions } : {}), parameterValues: { N: name } };
    if (expected === name) expect(createOk(input).name).toBe(name);
    else expect(createErrors(input)).toEqual([`template name: ${expected}`]);
  });

  it("a literal name needs no parameters", () => {
    expect(createOk({ template: template({ name: "Plain" }) }).name).toBe("Plain");
  });
});

describe("steps are ordered by dependency", () => {
  const step = (name: string, ...deps: string[]) => `- name: ${name}\n${deps.length ? `  dependencies:\n${deps.map((d) => `  - dependsOn: ${d}\n`).join("")}` : ""}${STEP}`;
  // The last column: the dependencies each job step carries, as written in the template.
  it.each([
    [[step("C", "B"), step("B", "A"), step("A")], ["A", "B", "C"], { A: [], B: ["A"], C: ["B"] }],
    [[step("Encode", "Render"), step("Render"), step("Preview")], ["Render", "Encode", "Preview"], { Render: [], Encode: ["Render"], Preview: [] }],
    [[step("D", "B", "C"), step("C", "A"), step("B", "A"), step("A")], ["A", "C", "B", "D"], { A: [], C: ["A"], B: ["A"], D: ["B", "C"] }],
    [[step("X"), step("Y"), step("Z")], ["X", "Y", "Z"], { X: [], Y: [], Z: [] }],
  ])("%#", (steps, expected, dependencies) => {
    const job = createOk({ template: template({ steps: steps.join("") }) });
    expect(job.steps.map((s) => s.name)).toEqual(expected);
    expect(Object.fromEntries(job.steps.map((s) => [s.name, s.dependencies]))).toEqual(dependencies);
  });
});

describe("host requirements", () => {
  const parameters = ["AN: amount.custom.a", "TN: attr.worker.os.family", "V: linux"]
    .map((p) => p.split(": "))
    .map(([n, d]) => `- name: ${n}\n  type: STRING\n  default: ${d}\n`)
    .join("");
  const steps = `- name: S
  hostRequirements:
    amounts:
    - name: "{{Param.AN}}"
      min: 1
    - name: amount.custom.b
      max: 2
    attributes:
    - name: "{{Param.TN}}"
      anyOf: ["{{Param.V}}", macos]
    - name: attr.custom.features
      allOf: ["{{Param.V}}_x"]
${STEP}`;
  const input = (values: Record<string, string>) => ({ template: template({ parameters, steps }), parameterValues: values });

  it("resolves names and values", () => {
    expect(createOk(input({})).steps[0]?.hostRequirements).toEqual({
      amounts: [
        { name: "amount.custom.a", min: 1 },
        { name: "amount.custom.b", max: 2 },
      ],
      attributes: [
        { name: "attr.worker.os.family", anyOf: ["linux", "macos"] },
        { name: "attr.custom.features", allOf: ["linux_x"] },
      ],
    });
  });

  const rejected: Array<[string, Record<string, string>, string]> = [
    ["amount names equal after resolution, case-insensitively", { AN: "AMOUNT.Custom.B" }, "amounts[1].name: duplicate amount requirement"],
    ["attribute names equal after resolution", { TN: "attr.custom.features" }, "attributes[1].name: duplicate attribute requirement"],
    ["a reserved scope", { AN: "amount.worker.licenses" }, "amounts[0].name: resolved name 'amount.worker.licenses'"],
    ["the wrong prefix", { TN: "amount.custom.x" }, "attributes[0].name: resolved name 'amount.custom.x'"],
    ["a malformed name", { AN: "amount..x" }, "amounts[0].name: resolved name 'amount..x'"],
    ["a name over 100 characters", { AN: `amount.custom.${"a".repeat(87)}` }, "amounts[0].name: resolved name"],
    ["a bad standard value", { V: "solaris" }, "attributes[0].anyOf[0]: resolved value: 'solaris' is not a valid value for attr.worker.os.family"],
    ["a value outside the attribute charset", { TN: "attr.custom.os", V: "not valid!" }, "attributes[0].anyOf[0]: resolved value: 'not valid!' is not a valid attribute value"],
    ["an allOf value outside the charset", { V: "9lives" }, "attributes[1].allOf[0]: resolved value"],
  ];
  it.each(rejected)("refuses %s", (_, values, expected) => {
    const errors = createErrors(input(values));
    expect(errors).toContainEqual(expect.stringContaining(`template steps[0].hostRequirements.${expected}`));
  });

  it("accepts a resolved name of exactly 100 characters", () => {
    expect(createOk(input({ AN: `amount.custom.${"a".repeat(86)}` })).steps[0]?.hostRequirements?.amounts[0]?.name).toHaveLength(100);
  });

  // FEATURE_BUNDLE_1: amount min/max may be strings and format strings, compared as numbers.
  const fb1 = (min: string, max: string) => ({
    template: template({
      extensions: "FEATURE_BUNDLE_1",
      parameters: `- name: Min\n  type: STRING\n  default: "${min}"\n- name: Max\n  type: STRING\n  default: "${max}"\n`,
      steps: `- name: S\n  hostRequirements:\n    amounts:\n    - name: amount.worker.memory\n      min: "{{Param.Min}}"\n      max: "{{Param.Max}}"\n${STEP}`,
    }),
  });
  it.each([
    ["2.5", "016", { min: 2.5, max: 16 }],
    ["0", "1e3", { min: 0, max: 1000 }],
    ["8", "8.0", { min: 8, max: 8 }],
  ])("FEATURE_BUNDLE_1 amount min %s max %s", (min, max, expected) => {
    expect(createOk(fb1(min, max)).steps[0]?.hostRequirements?.amounts[0]).toEqual({ name: "amount.worker.memory", ...expected });
  });
  it.each([
    ["010.0", "5.0", "amounts[0].max: max (5) must be greater than or equal to min (10)"],
    ["-1", "5", "amounts[0].min: min resolved to -1; it must be zero or greater"],
    ["1", "0", "amounts[0].max: max resolved to 0; it must be greater than zero"],
    ["lots", "5", "amounts[0].min: '{{Param.Min}}' resolved to 'lots' is not a number"],
    ["1", "inf", "amounts[0].max: '{{Param.Max}}' resolved to 'inf' is not a number"],
  ])("FEATURE_BUNDLE_1 amount min %s max %s is refused", (min, max, expected) => {
    expect(createErrors(fb1(min, max))).toContainEqual(`template steps[0].hostRequirements.${expected}`);
  });
});

describe("FEATURE_BUNDLE_1 timeouts and notify periods from format strings", () => {
  const steps = `- name: S
  script:
    actions:
      onRun:
        command: echo
        timeout: "{{Param.T}}"
        cancelation:
          mode: NOTIFY_THEN_TERMINATE
          notifyPeriodInSeconds: "{{Param.NP}}"
- name: Simple
  bash:
    script: echo hi
    timeout: "{{Param.T}}"
`;
  const environments = `jobEnvironments:\n- name: JE\n  script:\n    actions:\n      onEnter:\n        command: echo\n        timeout: "{{Param.T}}"\n`;
  const parameters = `- name: T\n  type: STRING\n  default: "10"\n- name: NP\n  type: INT\n  default: 30\n`;
  const input = (values: Record<string, string | number>) => ({ template: template({ extensions: "FEATURE_BUNDLE_1", parameters, steps, environments }), parameterValues: values });

  it.each([[{}], [{ T: "010" }], [{ NP: 600 }], [{ NP: 1, T: "1" }]])("accepts %j", (values) => {
    expect(createOk(input(values)).steps.map((s) => s.name)).toEqual(["S", "Simple"]);
  });

  const where = ["jobEnvironments[0].script.actions.onEnter.timeout", "steps[0].script.actions.onRun.timeout", "steps[1].bash.timeout"];
  it.each([
    ["0", "timeout resolved to 0; it must be a positive number of seconds"],
    ["-5", "timeout resolved to -5; it must be a positive number of seconds"],
    ["1.5", "'{{Param.T}}' resolved to '1.5' is not an integer"],
    ["soon", "'{{Param.T}}' resolved to 'soon' is not an integer"],
  ])("timeout %s is refused wherever it is used", (t, message) => {
    expect(createErrors(input({ T: t }))).toEqual(where.map((w) => `template ${w}: ${message}`));
  });

  it.each([0, 601, -1])("notifyPeriodInSeconds %s is refused", (np) => {
    expect(createErrors(input({ NP: np }))).toEqual([
      `template steps[0].script.actions.onRun.cancelation.notifyPeriodInSeconds: notifyPeriodInSeconds resolved to ${np}; it must be between 1 and 600`,
    ]);
  });

  it("an environment template's timeout is reported in the environment template", () => {
    const env = `specificationVersion: environment-2023-09
extensions: [FEATURE_BUNDLE_1]
parameterDefinitions:
- name: ET
  type: STRING
  default: "5"
environment:
  name: EE
  script:
    actions:
      onExit:
        command: echo
        timeout: "{{Param.ET}}"
`;
    expect(createErrors({ ...input({ ET: "0" }), environments: [env] })).toEqual([
      "environment[0] environment.script.actions.onExit.timeout: timeout resolved to 0; it must be a positive number of seconds",
    ]);
  });
});
