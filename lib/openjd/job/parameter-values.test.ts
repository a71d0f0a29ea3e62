/**
 * Submitted values and defaults becoming job parameter values (spec §2.1, §2.3, §2.4; digest
 * §4.1–§4.4): INT is int64 and canonical, FLOAT keeps the text as written, STRING is 0..1024
 * characters, and constraints written as strings compare numerically.
 */
import { describe, expect, it } from "vitest";
import { createErrors, createOk, withParameters as job } from "./job-test-support";

const single = (type: string, extra = "") => job(`- name: V\n  type: ${type}\n${extra}`);
const value = (template: string, v: unknown) => createOk({ template, parameterValues: { V: v as never } }).parameters.V?.value;
const problem = (template: string, v: unknown) => createErrors({ template, parameterValues: { V: v as never } });

describe("INT", () => {
  const accepted: Array<[unknown, string]> = [
    ["007", "7"],
    ["-0", "0"],
    ["+42", "42"],
    [10, "10"],
    [-3n, "-3"],
    ["9223372036854775807", "9223372036854775807"],
    ["-9223372036854775808", "-9223372036854775808"],
    [9223372036854775807n, "9223372036854775807"],
  ];
  it.each(accepted)("%s → %s", (input, expected) => expect(value(single("INT"), input)).toBe(expected));

  const rejected: Array<[unknown, string]> = [
    ["1.0", "'1.0' is not an integer"],
    [1.5, "expected an integer, got"],
    [true, "expected an integer, got a boolean"],
    ["ten", "'ten' is not an integer"],
    ["", "'' is not an integer"],
    ["0x10", "'0x10' is not an integer"],
    ["1e3", "'1e3' is not an integer"],
    ["9223372036854775808", "9223372036854775808 is outside the 64-bit integer range"],
    [-9223372036854775809n, "-9223372036854775809 is outside the 64-bit integer range"],
  ];
  it.each(rejected)("%s is rejected", (input, message) => {
    expect(problem(single("INT"), input)).toEqual([expect.stringMatching(/^parameters V: parameter V: /)]);
    expect(problem(single("INT"), input)[0]).toContain(message);
  });

  it("an intstring default is normalized like a submitted value (conformance int-param-intstring-default-resolves)", () => {
    expect(createOk({ template: single("INT", "  default: '0042'\n") }).parameters.V?.value).toBe("42");
  });

  // Conformance 1.1--int-intstring-bounds-*: '010' is ten, not a string that sorts before '9'.
  const bounds = "  minValue: '010'\n  maxValue: '100'\n";
  it.each([
    [50, true],
    [10, true],
    [100, true],
    ["9", false],
    [101, false],
  ])("intstring bounds compare numerically: %s accepted = %s", (input, ok) => {
    if (ok) expect(value(single("INT", bounds), input)).toBe(String(input));
    else expect(problem(single("INT", bounds), input)[0]).toMatch(/is (below the minimum 10|above the maximum 100)$/);
  });

  it("intstring allowedValues compare numerically", () => {
    const template = single("INT", "  allowedValues: ['1', '2', '04']\n");
    expect(value(template, 4)).toBe("4");
    expect(value(template, "004")).toBe("4");
    expect(problem(template, 3)[0]).toContain("3 is not one of the allowed values (1, 2, 4)");
  });
});

describe("FLOAT", () => {
  const accepted: Array<[unknown, string]> = [
    ["3.500", "3.500"],
    ["5", "5"],
    [5, "5"],
    [50.5, "50.5"],
    ["3.141592653589793", "3.141592653589793"],
    ["-0.25", "-0.25"],
    ["1e3", "1e3"],
    [" 2.0 ", "2.0"],
  ];
  it.each(accepted)("%s → %s (text as written)", (input, expected) => expect(value(single("FLOAT"), input)).toBe(expected));

  it.each(["inf", "-inf", "Infinity", "nan", "NaN", "1e309", "abc", "", "1.2.3", true])("%s is rejected", (input) => {
    expect(problem(single("FLOAT"), input)).toEqual([expect.stringMatching(/^parameters V: parameter V: /)]);
  });

  it("keeps a default's text as written", () => {
    expect(createOk({ template: single("FLOAT", "  default: '3.500'\n") }).parameters.V?.value).toBe("3.500");
    expect(createOk({ template: single("FLOAT", "  default: 3.500\n") }).parameters.V?.value).toBe("3.500");
  });

  // Conformance 1.1--float-floatstring-*: '010.0' < 50.5 < '100.0' numerically, not lexically.
  const bounds = "  minValue: '010.0'\n  maxValue: '100.0'\n";
  it.each([
    [50.5, null],
    ["10", null],
    ["100.000", null],
    [9.99, "9.99 is below the minimum 010.0"],
    ["100.5", "100.5 is above the maximum 100.0"],
  ])("floatstring bounds compare numerically: %s", (input, message) => {
    if (message === null) expect(value(single("FLOAT", bounds), input)).toBe(String(input));
    else expect(problem(single("FLOAT", bounds), input)[0]).toContain(message);
  });

  it("floatstring allowedValues compare numerically", () => {
    const template = single("FLOAT", "  allowedValues: ['1.50', '2']\n");
    expect(value(template, "1.5")).toBe("1.5");
    expect(value(template, 2.0)).toBe("2");
    expect(problem(template, "2.5")[0]).toContain("not one of the allowed values");
  });
});

describe("STRING", () => {
  it.each([
    ["", ""],
    ["x".repeat(1024), "x".repeat(1024)],
    ["😀".repeat(1024), "😀".repeat(1024)], // lengths count code points, not UTF-16 units
    [42, "42"],
    ["  spaced  ", "  spaced  "],
  ])("accepts %#", (input, expected) => expect(value(single("STRING"), input)).toBe(expected));

  it.each([
    ["x".repeat(1025), "the value is 1025 characters long; at most 1024 are allowed"],
    [true, "expected a string, got a boolean"],
    [null, "expected a string"],
  ])("rejects %#", (input, message) => expect(problem(single("STRING"), input)[0]).toContain(message));

  it.each([
    ["  minLength: 3\n", "ab", "'ab' is shorter than the minimum length 3"],
    ["  maxLength: 3\n", "abcd", "'abcd' is longer than the maximum length 3"],
    ["  allowedValues: [a, b]\n", "c", "'c' is not one of the allowed values ('a', 'b')"],
  ])("constraint %#", (extra, input, message) => expect(problem(single("STRING", extra), input)).toEqual([`parameters V: parameter V: ${message}`]));
});

describe("missing and unknown parameters", () => {
  const template = job(`- name: B\n  type: INT\n- name: A\n  type: STRING\n- name: C\n  type: FLOAT\n  default: 1`);

  it("lists every missing required parameter and every unknown one at once", () => {
    expect(createErrors({ template, parameterValues: { Zed: 1, Extra: "x" } })).toEqual([
      "parameters : values were given for parameters the templates do not define: Extra, Zed",
      "parameters : values are missing for required parameters: A, B",
    ]);
  });

  it("reports bad values together with missing ones", () => {
    expect(createErrors({ template, parameterValues: { B: "x", C: "y" } })).toEqual([
      "parameters B: parameter B: 'x' is not an integer",
      "parameters C: parameter C: 'y' is not a number",
      "parameters : values are missing for required parameters: A",
    ]);
  });

  it("names that are also Object.prototype members are ordinary parameters", () => {
    const template = job(`- name: __proto__\n  type: STRING\n- name: constructor\n  type: STRING\n  default: c`);
    const created = createOk({ template, parameterValues: Object.fromEntries([["__proto__", "p"]]) });
    expect(Object.entries(created.parameters)).toEqual([
      ["__proto__", { type: "STRING", value: "p" }],
      ["constructor", { type: "STRING", value: "c" }],
    ]);
    expect(createErrors({ template })).toEqual(["parameters : values are missing for required parameters: __proto__"]);
  });

  it("a parameter with a default is optional and the submitted value overrides it", () => {
    const created = createOk({ template, parameterValues: { A: "a", B: "2", C: "2.50" } });
    expect(created.parameters).toEqual({ B: { type: "INT", value: "2" }, A: { type: "STRING", value: "a" }, C: { type: "FLOAT", value: "2.50" } });
  });
});
