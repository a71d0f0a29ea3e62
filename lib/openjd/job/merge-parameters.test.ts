/**
 * Spec §1.2.1 (digest §3.1): the job template and the environment templates share one parameter
 * namespace. Same type (and PATH objectType/dataFlow) or the submission is refused; constraints
 * only narrow; the last default wins (job template last); the merged definition, default
 * included, must be consistent. Errors name the document they are in.
 */
import { describe, expect, it } from "vitest";
import { createErrors, createOk, envWithParameters as env, withParameters as job } from "./job-test-support";

const int = (extra = "") => `- name: C\n  type: INT\n${extra}`;
const str = (extra = "") => `- name: Q\n  type: STRING\n${extra}`;
const path = (extra = "") => `- name: P\n  type: PATH\n${extra}`;

describe("conflicting definitions are refused, blamed on the later template", () => {
  const cases: Array<[string, string, string[], string]> = [
    ["type", int(), [env(str().replace("Q", "C"))], "template parameterDefinitions[0]: parameter 'C' is INT here but STRING in an earlier template"],
    ["objectType", path("  objectType: FILE\n"), [env(path("  objectType: DIRECTORY\n"))], "template parameterDefinitions[0]: PATH parameter 'P' has objectType FILE here but DIRECTORY"],
    ["dataFlow", path("  dataFlow: OUT\n"), [env(path("  dataFlow: IN\n"))], "template parameterDefinitions[0]: PATH parameter 'P' has dataFlow OUT here but IN"],
    [
      "between two environment templates",
      job(`- name: Z\n  type: INT\n  default: 1`),
      [env(int("  default: 1\n")), env(`- name: C\n  type: FLOAT\n  default: 1`)],
      "environment[1] parameterDefinitions[0]: parameter 'C' is FLOAT here but INT",
    ],
  ];
  it.each(cases)("%s", (_, template, environments, expected) => {
    const errors = createErrors({ template: template.startsWith("- ") ? job(template) : template, environments, parameterValues: {} });
    expect(errors.join("\n")).toContain(expected);
  });

  it("accepts PATH definitions where only one side sets objectType or dataFlow", () => {
    const created = createOk({ template: job(path("  objectType: FILE\n  default: a\n")), environments: [env(path("  dataFlow: IN\n"))] });
    expect(created.parameterDefinitions[0]).toMatchObject({ objectType: "FILE", dataFlow: "IN" });
  });
});

describe("constraints narrow", () => {
  const cases: Array<[string, string, string, Record<string, unknown>]> = [
    [
      "INT range (conformance constraint-narrowing-int-range)",
      int("  minValue: 10\n  maxValue: 100\n  default: 50\n"),
      int("  minValue: 0\n  maxValue: 1000\n  default: 0\n"),
      { minValue: 10n, maxValue: 100n, default: 50n },
    ],
    ["INT range, env template narrower", int("  minValue: 0\n  maxValue: 1000\n  default: 50\n"), int("  minValue: 10\n  maxValue: 100\n"), { minValue: 10n, maxValue: 100n }],
    [
      "FLOAT range",
      `- name: C\n  type: FLOAT\n  minValue: 1.5\n  default: 2\n`,
      `- name: C\n  type: FLOAT\n  minValue: '0.5'\n  maxValue: '9.5'\n`,
      { minValue: { value: 1.5, text: "1.5" }, maxValue: { value: 9.5, text: "9.5" } },
    ],
    ["STRING lengths", str("  minLength: 2\n  default: abcde\n"), str("  minLength: 5\n  maxLength: 50\n"), { minLength: 5, maxLength: 50 }],
    ["STRING allowedValues intersect", str("  allowedValues: [low, medium, high, ultra]\n  default: high\n"), str("  allowedValues: [medium, high, extreme]\n"), { allowedValues: ["medium", "high"] }],
    ["INT allowedValues intersect numerically", int("  allowedValues: [1, 2, 3]\n  default: 2\n"), int("  allowedValues: ['02', '03', '4']\n"), { allowedValues: [2n, 3n] }],
  ];
  it.each(cases)("%s", (_, jobDefinition, envDefinition, expected) => {
    const created = createOk({ template: job(jobDefinition), environments: [env(envDefinition)] });
    expect(created.parameterDefinitions[0]).toMatchObject(expected);
  });

  it("a submitted value is checked against the narrowed constraints", () => {
    const errors = createErrors({ template: job(int("  minValue: 0\n  maxValue: 1000\n")), environments: [env(int("  minValue: 10\n  maxValue: 100\n"))], parameterValues: { C: 500 } });
    expect(errors).toEqual([expect.stringMatching(/^parameters C: parameter C: 500 is above the maximum 100/)]);
  });

  const impossible: Array<[string, string, string, string]> = [
    ["allowedValues with nothing in common", str("  allowedValues: [a, b]\n"), str("  allowedValues: [c]\n"), "the merged allowedValues of 'Q' are empty"],
    ["min above max", int("  minValue: 50\n"), int("  maxValue: 10\n"), "the merged range of 'C' is empty (minValue 50 > maxValue 10)"],
    ["FLOAT min above max", `- name: C\n  type: FLOAT\n  minValue: '5.0'\n`, `- name: C\n  type: FLOAT\n  maxValue: 1\n`, "the merged range of 'C' is empty (minValue 5.0 > maxValue 1)"],
    ["minLength above maxLength", str("  minLength: 6\n"), str("  maxLength: 5\n"), "the merged lengths of 'Q' are impossible"],
  ];
  it.each(impossible)("refuses a merge that leaves no valid value: %s", (_, jobDefinition, envDefinition, expected) => {
    const name = jobDefinition.includes("name: Q") ? "Q" : "C";
    const errors = createErrors({ template: job(jobDefinition), environments: [env(envDefinition)], parameterValues: { [name]: name === "Q" ? "a" : 7 } });
    expect(errors).toContainEqual(expect.stringContaining(`template parameterDefinitions[0]: ${expected}`));
  });
});

describe("defaults: the last one wins and must satisfy the merged constraints", () => {
  it.each([
    ["job template's default wins over the environment template's", str("  default: job\n"), [str("  default: env\n")], "job"],
    ["environment default used when the job template has none", str("  allowedValues: [low, medium, high]\n"), [str("  default: medium\n  allowedValues: [low, medium, high]\n")], "medium"],
    ["the later environment template's default wins", str(), [str("  default: first\n"), str("  default: second\n")], "second"],
  ])("%s", (_, jobDefinition, envDefinitions, expected) => {
    const created = createOk({ template: job(jobDefinition), environments: envDefinitions.map((d, i) => env(d, `E${i}`)) });
    expect(created.parameters.Q).toEqual({ type: "STRING", value: expected });
  });

  it("parameters defined only in environment templates are job parameters (conformance two-env-templates-only)", () => {
    const created = createOk({
      template: job(`- name: Z\n  type: INT\n  default: 1`),
      environments: [env(int("  minValue: 1\n  default: 5\n") + str("  minLength: 5\n  default: hello-world\n")), env(int("  maxValue: 10\n") + str("  maxLength: 50\n"), "E2")],
    });
    expect(created.parameterDefinitions.map((d) => d.name)).toEqual(["C", "Q", "Z"]);
    expect(created.parameters).toMatchObject({ C: { value: "5" }, Q: { value: "hello-world" } });
    expect(createErrors({ template: job(`- name: Z\n  type: INT\n  default: 1`), environments: [env(int())] })).toEqual(["parameters : values are missing for required parameters: C"]);
  });

  // Each default satisfies its own template; only the merged constraints make it invalid. The
  // error is placed at the default that won, in the document that wrote it.
  const cases: Array<[string, string, string[], string]> = [
    [
      "INT below the merged minValue (conformance merged-default-below-merged-minvalue)",
      int("  minValue: 0\n  maxValue: 1000\n  default: 5\n"),
      [int("  minValue: 10\n  maxValue: 100\n")],
      "template parameterDefinitions[0].default: default of C: 5 is below the minimum 10",
    ],
    [
      "FLOAT below the merged minValue",
      `- name: C\n  type: FLOAT\n  default: 0.5\n`,
      [`- name: C\n  type: FLOAT\n  minValue: '1.0'\n`],
      "template parameterDefinitions[0].default: default of C: 0.5 is below the minimum 1.0",
    ],
    [
      "STRING shorter than the merged minLength",
      str("  minLength: 2\n  default: abc\n"),
      [str("  minLength: 5\n")],
      "template parameterDefinitions[0].default: default of Q: 'abc' is shorter than the minimum length 5",
    ],
    [
      "STRING outside the merged allowedValues",
      str("  default: ultra\n  allowedValues: [low, high, ultra]\n"),
      [str("  allowedValues: [low, high]\n")],
      "template parameterDefinitions[0].default: default of Q: 'ultra' is not one of the allowed values ('low', 'high')",
    ],
    [
      "INT outside the merged allowedValues",
      int("  default: 4\n  allowedValues: [1, 2, 3, 4]\n"),
      [int("  allowedValues: [1, 2, 3]\n")],
      "template parameterDefinitions[0].default: default of C: 4 is not one of the allowed values (1, 2, 3)",
    ],
    [
      "environment default outside the job template's range",
      int("  minValue: 10\n"),
      [int("  default: 0\n")],
      "environment[0] parameterDefinitions[0].default: default of C: 0 is below the minimum 10",
    ],
    [
      "default of the first environment template, range of the second",
      str("  default: x\n").replace("Q", "Other"),
      [int("  default: 0\n"), int("  minValue: 1\n")],
      "environment[0] parameterDefinitions[0].default: default of C: 0 is below the minimum 1",
    ],
  ];
  it.each(cases)("%s", (_, jobDefinition, envDefinitions, expected) => {
    const errors = createErrors({ template: job(jobDefinition), environments: envDefinitions.map((d, i) => env(d, `E${i}`)) });
    expect(errors).toEqual([expect.stringContaining(expected)]);
  });

  it("an inconsistent merge of environment-only definitions is reported in the environment template", () => {
    const errors = createErrors({ template: job(`- name: Z\n  type: INT\n  default: 1`), environments: [env(int("  minValue: 10\n  default: 10\n")), env(int("  maxValue: 5\n"), "E2")] });
    expect(errors).toEqual([
      "environment[1] parameterDefinitions[0]: the merged range of 'C' is empty (minValue 10 > maxValue 5)",
      expect.stringMatching(/^environment\[0\] parameterDefinitions\[0\]\.default: default of C: 10 is above the maximum 5/),
    ]);
  });
});
