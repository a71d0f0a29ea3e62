/**
 * Merging EXPR parameter definitions across environment templates and the job template (spec
 * §1.2.1, digest §3.1): the same type and LIST[PATH] objectType/dataFlow, list lengths and `item:`
 * constraints that only narrow, the last default wins and must satisfy the merged definition.
 */
import { describe, expect, it } from "vitest";
import { createErrors, createOk, envWithParameters, withParameters } from "./job-test-support";

const EXPR = "extensions: [EXPR]\n";
const job = (definition: string) => withParameters(definition, EXPR);
const env = (definition: string, name = "E") => envWithParameters(definition, name).replace("environment-2023-09\n", `environment-2023-09\n${EXPR}`);
const param = (type: string, extra = "") => `- name: V\n  type: ${type}\n${extra}`;

describe("conflicts", () => {
  it.each<[string, string, string, string]>([
    ["type names spelled differently are the same type", param("list[int]", "  default: [1]\n"), param("LIST[INT]"), ""],
    ["LIST[INT] and LIST[FLOAT] differ", param("LIST[INT]"), param("LIST[FLOAT]"), "parameter 'V' is LIST[INT] here but LIST[FLOAT] in an earlier template"],
    ["BOOL and STRING differ", param("BOOL"), param("STRING"), "parameter 'V' is BOOL here but STRING"],
    ["LIST[PATH] objectType", param("LIST[PATH]", "  objectType: FILE\n"), param("LIST[PATH]", "  objectType: DIRECTORY\n"), "LIST[PATH] parameter 'V' has objectType FILE here but DIRECTORY"],
    ["LIST[PATH] dataFlow", param("LIST[PATH]", "  dataFlow: OUT\n"), param("LIST[PATH]", "  dataFlow: IN\n"), "LIST[PATH] parameter 'V' has dataFlow OUT here but IN"],
  ])("%s", (_, jobDefinition, envDefinition, expected) => {
    if (expected === "") expect(createOk({ template: job(jobDefinition), environments: [env(envDefinition)] }).parameters.V?.value).toBe("[1]");
    else expect(createErrors({ template: job(jobDefinition), environments: [env(envDefinition)], parameterValues: { V: "[]" } }).join("\n")).toContain(`template parameterDefinitions[0]: ${expected}`);
  });
});

describe("constraints narrow", () => {
  it.each<[string, string, string, Record<string, unknown>]>([
    ["list lengths", param("LIST[STRING]", "  minLength: 1\n  maxLength: 9\n"), param("LIST[STRING]", "  minLength: 2\n  maxLength: 20\n"), { minLength: 2, maxLength: 9 }],
    [
      "LIST[STRING] item.allowedValues intersect",
      param("LIST[STRING]", "  item:\n    allowedValues: [a, b, c]\n"),
      param("LIST[STRING]", "  item:\n    allowedValues: [b, c, d]\n    maxLength: 4\n"),
      { item: { allowedValues: ["b", "c"], maxLength: 4 } },
    ],
    [
      "LIST[INT] item range",
      param("LIST[INT]", "  item:\n    minValue: 0\n    maxValue: 100\n"),
      param("LIST[INT]", "  item:\n    minValue: '10'\n    maxValue: 1000\n"),
      { item: { minValue: 10n, maxValue: 100n } },
    ],
    [
      "LIST[FLOAT] item.allowedValues intersect numerically",
      param("LIST[FLOAT]", "  item:\n    allowedValues: [0.5, 1]\n"),
      param("LIST[FLOAT]", "  item:\n    allowedValues: ['1.0', 2]\n"),
      { item: { allowedValues: [{ value: 1, text: "1" }] } },
    ],
    ["an item: on one side only", param("LIST[PATH]"), param("LIST[PATH]", "  item:\n    minLength: 3\n"), { item: { minLength: 3 } }],
    [
      "LIST[LIST[INT]] at both levels",
      param("LIST[LIST[INT]]", "  item:\n    maxLength: 4\n    item:\n      maxValue: 9\n"),
      param("LIST[LIST[INT]]", "  item:\n    maxLength: 2\n    item:\n      minValue: 1\n      maxValue: 20\n"),
      { item: { maxLength: 2, item: { minValue: 1n, maxValue: 9n } } },
    ],
    ["RANGE_EXPR lengths", param("RANGE_EXPR", "  maxLength: 10\n"), param("RANGE_EXPR", "  minLength: 2\n  maxLength: 50\n"), { minLength: 2, maxLength: 10 }],
  ])("%s", (_, jobDefinition, envDefinition, expected) => {
    const value = jobDefinition.includes("RANGE_EXPR") ? "1-5" : jobDefinition.includes("minLength: 1") ? '["a","b"]' : "[]";
    const created = createOk({ template: job(jobDefinition), environments: [env(envDefinition)], parameterValues: { V: value } });
    expect(created.parameterDefinitions[0]).toMatchObject(expected);
  });

  it.each<[string, string, string, string]>([
    [
      "item.allowedValues with nothing in common",
      param("LIST[STRING]", "  item:\n    allowedValues: [a]\n"),
      param("LIST[STRING]", "  item:\n    allowedValues: [b]\n"),
      "the merged item.allowedValues of 'V' are empty",
    ],
    [
      "item.minValue above item.maxValue",
      param("LIST[INT]", "  item:\n    minValue: 5\n"),
      param("LIST[INT]", "  item:\n    maxValue: 4\n"),
      "the merged range of 'V' is empty (item.minValue 5 > item.maxValue 4)",
    ],
    [
      "item.item range",
      param("LIST[LIST[INT]]", "  item:\n    item:\n      minValue: 5\n"),
      param("LIST[LIST[INT]]", "  item:\n    item:\n      maxValue: 4\n"),
      "(item.item.minValue 5 > item.item.maxValue 4)",
    ],
    ["list minLength above maxLength", param("LIST[BOOL]", "  minLength: 3\n"), param("LIST[BOOL]", "  maxLength: 2\n"), "the merged lengths of 'V' are impossible (minLength 3 > maxLength 2)"],
    ["inner minLength above maxLength", param("LIST[LIST[INT]]", "  item:\n    minLength: 3\n"), param("LIST[LIST[INT]]", "  item:\n    maxLength: 2\n"), "(item.minLength 3 > item.maxLength 2)"],
  ])("refuses a merge that leaves no valid value: %s", (_, jobDefinition, envDefinition, expected) => {
    const errors = createErrors({ template: job(jobDefinition), environments: [env(envDefinition)], parameterValues: { V: "[]" } });
    expect(errors).toContainEqual(expect.stringContaining(expected));
  });
});

describe("defaults", () => {
  it("an environment template's default satisfying the job template's constraints is used (conformance 2.13--list-int-merged-default-compatible)", () => {
    const created = createOk({ template: job(param("LIST[INT]", "  maxLength: 5\n")), environments: [env(param("LIST[INT]", "  default: [1, 2, 3]\n"))] });
    expect(created.parameters.V).toEqual({ type: "LIST[INT]", value: "[1,2,3]" });
  });

  it("an environment template's default breaking the job template's maxLength is refused where it was written (conformance 2.13--list-int-merged-default-violates-constraint)", () => {
    const errors = createErrors({ template: job(param("LIST[INT]", "  maxLength: 2\n")), environments: [env(param("LIST[INT]", "  default: [1, 2, 3, 4, 5]\n"))] });
    expect(errors).toEqual([
      "environment[0] parameterDefinitions[0].default: default of V: the list has 5 items; maxLength is 2 (checked against the constraints merged from the 2 templates that define it)",
    ]);
  });

  it.each<[string, string, string, string]>([
    ["the job template's BOOL default wins", param("BOOL", "  default: false\n"), param("BOOL", "  default: true\n"), "false"],
    ["an environment RANGE_EXPR default is used", param("RANGE_EXPR", "  maxLength: 10\n"), param("RANGE_EXPR", "  default: '3-1:-1'\n"), "1-3"],
  ])("%s", (_, jobDefinition, envDefinition, expected) => {
    expect(createOk({ template: job(jobDefinition), environments: [env(envDefinition)] }).parameters.V?.value).toBe(expected);
  });

  it.each<[string, string, string, string]>([
    [
      "an item outside the merged item.allowedValues",
      param("LIST[STRING]", "  item:\n    allowedValues: [a]\n"),
      param("LIST[STRING]", "  default: [a, b]\n"),
      "item [1]: 'b' is not one of item.allowedValues ('a')",
    ],
    [
      "a RANGE_EXPR longer than the merged maxLength",
      param("RANGE_EXPR", "  maxLength: 3\n"),
      param("RANGE_EXPR", "  default: '1-100'\n"),
      "the range expression is 5 characters long; maxLength allows 3",
    ],
    [
      "an inner integer above the merged item.item.maxValue",
      param("LIST[LIST[INT]]", "  item:\n    item:\n      maxValue: 2\n"),
      param("LIST[LIST[INT]]", "  default: [[1], [3]]\n"),
      "item [1][0]: 3 is above item.item.maxValue 2",
    ],
  ])("refuses %s", (_, jobDefinition, envDefinition, expected) => {
    expect(createErrors({ template: job(jobDefinition), environments: [env(envDefinition)] }).join("\n")).toContain(`environment[0] parameterDefinitions[0].default: default of V: ${expected}`);
  });
});
