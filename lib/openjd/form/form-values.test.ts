import { describe, expect, it } from "vitest";
import { createJob } from "../job/create-job";
import { checkTemplateText } from "../template";
import { fieldError, initialValues, parameterInputs } from "./form-values";
import { definitions, field } from "./form-test-support";
import { buildParameterForm } from "./parameter-form";

describe("fieldError: lib/openjd's checks as the artist types", () => {
  it.each([
    ["INT in range", "- {name: A, type: INT, minValue: -100, maxValue: 100}", "25", null],
    ["INT above max", "- {name: A, type: INT, minValue: -100, maxValue: 100}", "101", /above the maximum 100/],
    ["INT below min, written as a string bound", "- {name: A, type: INT, minValue: '010'}", "9", /below the minimum 10/],
    ["INT not a number", "- {name: A, type: INT}", "4.5", /not an integer/],
    ["INT beyond int64", "- {name: A, type: INT}", "9223372036854775808", /64-bit/],
    ["INT empty without default", "- {name: A, type: INT}", "", /required/],
    ["INT cleared default", "- {name: A, type: INT, default: 3}", "", /not an integer/],
    ["FLOAT compared numerically", "- {name: A, type: FLOAT, maxValue: '10.0'}", "9.99", null],
    ["FLOAT above max", "- {name: A, type: FLOAT, maxValue: 10}", "10.5", /above the maximum 10/],
    ["FLOAT text", "- {name: A, type: FLOAT}", "abc", /not a number/],
    ["STRING allowed value", "- {name: A, type: STRING, allowedValues: [a, b]}", "b", null],
    ["STRING too short", "- {name: A, type: STRING, minLength: 3}", "ab", /shorter than the minimum length 3/],
    ["STRING length counts code points", "- {name: A, type: STRING, maxLength: 2}", "😀😀", null],
    ["STRING too long", "- {name: A, type: STRING, maxLength: 2}", "abc", /longer than the maximum length 2/],
    ["STRING empty without default", "- {name: A, type: STRING}", "  ", /required/],
    ["STRING empty with a default is a value", "- {name: A, type: STRING, default: x}", "", null],
    ["PATH max length", "- {name: A, type: PATH, maxLength: 5}", "/scenes/a.blend", /longer than the maximum length 5/],
    ["PATH filters are only hints", "- {name: A, type: PATH, objectType: FILE, userInterface: {fileFilters: [{label: B, patterns: ['*.blend']}]}}", "/a.txt", null],
    ["unchanged default is not rechecked", "- {name: A, type: INT, default: 5, maxValue: 10}", "5", null],
  ])("%s", (_case, yaml, text, expected) => {
    const problem = fieldError(field(yaml), text);
    if (expected === null) expect(problem).toBeNull();
    else expect(problem).toMatch(expected);
  });

  it.each([
    ["BOOL word", "- {name: A, type: BOOL}", "yes", null],
    ["BOOL nonsense", "- {name: A, type: BOOL}", "maybe", /not a boolean/],
    ["LIST[INT] one per line", "- {name: A, type: 'LIST[INT]', item: {maxValue: 10}}", "1\n2\n\n3", null],
    ["LIST[INT] item too big", "- {name: A, type: 'LIST[INT]', item: {maxValue: 10}}", "1\n20", /20/],
    ["LIST[STRING] too few items", "- {name: A, type: 'LIST[STRING]', minLength: 2}", "one", /minLength is 2/],
    ["RANGE_EXPR", "- {name: A, type: RANGE_EXPR}", "1-10:2", null],
    ["RANGE_EXPR broken", "- {name: A, type: RANGE_EXPR}", "1-", /not a range expression/],
  ])("EXPR %s", (_case, yaml, text, expected) => {
    const problem = fieldError(field(yaml, "extensions: [EXPR]\n"), text);
    if (expected === null) expect(problem).toBeNull();
    else expect(problem).toMatch(expected);
  });
});

describe("parameterInputs", () => {
  const yaml = [
    "- {name: I, type: INT, default: 1}",
    "- {name: S, type: STRING}",
    "- {name: P, type: PATH, default: scenes/a.blend}",
    "- {name: H, type: STRING, default: h, userInterface: {control: HIDDEN}}",
  ].join("\n");

  it.each([
    ["defaults are left to the template", {}, { S: "" }],
    ["changed values are sent as typed", { I: "007", P: "/abs/b.blend", S: "x" }, { I: "007", P: "/abs/b.blend", S: "x" }],
    ["an unchanged PATH default is not sent (it joins the template's folder)", { P: "scenes/a.blend", S: "x" }, { S: "x" }],
  ])("%s", (_case, changes, expected) => {
    const form = buildParameterForm(definitions(yaml));
    expect(parameterInputs(form, { ...initialValues(form), ...changes })).toEqual(expected);
  });

  it("gives values that job creation accepts with the same meaning", () => {
    const text = `specificationVersion: jobtemplate-2023-09\nextensions: [EXPR]\nname: J\nparameterDefinitions:\n- {name: N, type: INT, default: 1}\n- {name: L, type: 'LIST[FLOAT]'}\n- {name: B, type: BOOL, default: false}\nsteps:\n- name: S\n  script:\n    actions:\n      onRun: {command: echo}\n`;
    const checked = checkTemplateText(text, "yaml", "job");
    if (checked.template?.kind !== "job") throw new Error("template");
    const form = buildParameterForm(checked.template.template.parameterDefinitions ?? []);
    const values = { ...initialValues(form), N: "42", L: "1.50\n2", B: "true" };
    const job = createJob({ template: checked.template.template, parameterValues: parameterInputs(form, values) });
    if (!job.ok) throw new Error(job.errors.map((e) => e.message).join("; "));
    expect(job.job.parameters).toMatchObject({ N: { value: "42" }, L: { value: "[1.50,2]" }, B: { value: "true" } });
  });
});
