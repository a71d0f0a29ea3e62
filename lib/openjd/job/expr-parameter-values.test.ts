/**
 * Values of the EXPR parameter types at job creation (spec §2.9–§2.16; digest §4.5): submitted
 * nodes and command-line JSON text, the canonical text each value is stored as, LIST[PATH]
 * resolution like PATH, and `parameterValueToJson` reading the text back.
 */
import { describe, expect, it } from "vitest";
import type { PathParameterDefinition } from "../model";
import type { SourceNode } from "../source-node";
import { coerceParameterValue, parameterValueToJson } from "./parameter-values";
import { createErrors, createOk, withParameters } from "./job-test-support";
import type { ParameterValue } from "./types";

const EXPR = "extensions: [EXPR]\n";
const single = (type: string, extra = "") => withParameters(`- name: V\n  type: ${type}\n${extra}`, EXPR);
const value = (template: string, v: unknown, options: { workingDir?: string } = {}) => createOk({ template, parameterValues: { V: v as never }, ...options }).parameters.V?.value;
const problem = (template: string, v: unknown) => createErrors({ template, parameterValues: { V: v as never } }).join("\n");
const defaultOf = (type: string, extra: string, templateDir = "/jobs/t") => createOk({ template: single(type, extra), templateDir }).parameters.V?.value;
const float = (text: string): SourceNode => ({ kind: "float", value: Number(text), text, span: null });

describe("BOOL", () => {
  it.each<[unknown, string]>([
    [true, "true"],
    [false, "false"],
    ["YES", "true"],
    ["Off", "false"],
    ["on", "true"],
    ["no", "false"],
    ["1", "true"],
    ["0", "false"],
    [1, "true"],
    [0, "false"],
    [float("1.0"), "true"],
    [float("0.0"), "false"],
  ])("%j → %s", (input, expected) => expect(value(single("BOOL"), input)).toBe(expected));

  it.each<[unknown, string]>([
    ["maybe", "'maybe' is not a boolean"],
    ["", "'' is not a boolean"],
    [2, "2 is not a boolean"],
    [float("0.5"), "0.5 is not a boolean"],
    [null, "expected a boolean, got null"],
    [[true], "expected a boolean, got a list"],
  ])("%j is rejected", (input, message) => expect(problem(single("BOOL"), input)).toContain(`parameters V: parameter V: ${message}`));

  it("a default becomes true/false", () => expect(defaultOf("bool", "  default: 'ON'\n")).toBe("true"));
});

describe("RANGE_EXPR", () => {
  it.each<[unknown, string]>([
    ["1-5:2,10,20-18:-1", "1-5:2,10,18-20"],
    [" 3 - 1 : -1", "1-3"],
    ["1,2,3,7", "1-3,7"],
    [7, "7"],
    ["-9223372036854775808", "-9223372036854775808"],
  ])("%j → %s (canonical)", (input, expected) => expect(value(single("RANGE_EXPR"), input)).toBe(expected));

  it.each<[unknown, string]>([
    ["1-abc", "'1-abc' is not a range expression: unexpected 'a'"], // conformance 2.10--range-expr-supplied-value-invalid
    ["", "is not a range expression: empty range expression"],
    ["1-9223372036854775808", "outside the 64-bit integer range"],
    [float("1.5"), 'expected a range expression such as "1-10", got a number'],
    [true, "got a boolean"],
    ["1".padEnd(1025, " "), "1025 characters long; at most 1024"],
  ])("%j is rejected", (input, message) => expect(problem(single("RANGE_EXPR"), input)).toContain(message));

  it("minLength/maxLength limit the text as written, not the canonical form", () => {
    const template = single("RANGE_EXPR", "  minLength: 3\n  maxLength: 5\n");
    expect(value(template, "1,2,3")).toBe("1-3");
    expect(problem(template, "1, 2, 3")).toContain("the range expression is 7 characters long; maxLength allows 5");
    expect(problem(template, "7")).toContain("'7' is shorter than minLength 3");
  });

  it("a default is stored canonically", () => expect(defaultOf("RANGE_EXPR", "  default: '10-1:-1'\n")).toBe("1-10"));
});

describe("lists: submitted values and canonical text", () => {
  it.each<[string, unknown, string]>([
    ["LIST[STRING]", ["a", "b"], '["a","b"]'],
    ["LIST[STRING]", '[ "a" , "b" ]', '["a","b"]'],
    ["LIST[STRING]", "[]", "[]"],
    ["LIST[STRING]", ['say "hi"', "é\\n", ""], '["say \\"hi\\"","é\\\\n",""]'],
    ["LIST[INT]", "[1,2]", "[1,2]"],
    ["LIST[INT]", ["007", 8, -0], "[7,8,0]"],
    ["LIST[INT]", "[9223372036854775807, -9223372036854775808]", "[9223372036854775807,-9223372036854775808]"],
    ["LIST[FLOAT]", "[1.5, 2.0]", "[1.5,2.0]"],
    ["LIST[FLOAT]", "[1, 2.50, 1e3]", "[1,2.50,1e3]"],
    ["LIST[FLOAT]", ["3.0", float(".5"), float("1."), float("+2.5")], "[3.0,0.5,1.0,2.5]"],
    ["LIST[BOOL]", [true, "no", 1, "OFF", 0, float("1.0")], "[true,false,true,false,false,true]"],
    ["LIST[BOOL]", '[true, "yes"]', "[true,true]"],
    ["LIST[LIST[INT]]", "[[1,2],[3]]", "[[1,2],[3]]"],
    ["LIST[LIST[INT]]", [[], ["4"]], "[[],[4]]"],
  ])("%s %j → %s", (type, input, expected) => expect(value(single(type), input)).toBe(expected));

  it.each<[string, unknown, string]>([
    ["LIST[STRING]", "a,b", 'expected a list, or JSON text of one such as ["a","b"] or [1,2], got \'a,b\''],
    ["LIST[STRING]", '"a"', "expected a list, got a string"],
    ["LIST[STRING]", "{}", "expected a list, got a mapping"],
    ["LIST[STRING]", "[1]", "item [0]: expected a string, got an integer"],
    ["LIST[STRING]", '["a", null]', "item [1]: null is not allowed in a list"],
    ["LIST[STRING]", ["x".repeat(1025)], "item [0]: the item is 1025 characters long; at most 1024"],
    ["LIST[STRING]", "['a']", "expected a list, or JSON text"],
    ["LIST[INT]", "[1.0]", "item [0]: expected an integer, got a number (1.0)"],
    ["LIST[INT]", "[9223372036854775808]", "item [0]: 9223372036854775808 is outside the 64-bit integer range"],
    ["LIST[INT]", 5, "expected a list, got an integer"],
    ["LIST[FLOAT]", "[1e400]", "item [0]: '1e400' is not a finite number"],
    ["LIST[BOOL]", '["maybe", 2]', "item [0]: 'maybe' is not a boolean (true/false, yes/no, on/off or 1/0); item [1]: 2 is not a boolean; only 1 and 0"],
    ["LIST[LIST[INT]]", "[1,2]", "item [0]: expected a list, got an integer"],
    ["LIST[LIST[INT]]", "[[1],[null]]", "item [1][0]: null is not allowed in a list"],
    ["LIST[INT]", "[true,true,true,true,true]", "item [0]: expected an integer, got a boolean; item [1]: expected an integer, got a boolean; item [2]: expected an integer, got a boolean; and 2 more"],
  ])("%s %j is rejected", (type, input, message) => expect(problem(single(type), input)).toContain(`parameter V: ${message}`));

  it.each<[string, string, unknown, string]>([
    ["LIST[STRING] maxLength (conformance 2.11--list-string-supplied-value-too-long)", "  maxLength: 2\n", ["a", "b", "c"], "the list has 3 items; maxLength is 2"],
    [
      "LIST[STRING] item.allowedValues (conformance 2.11--list-string-supplied-value-item-not-in-allowed)",
      "  item:\n    allowedValues: [a, b]\n",
      ["a", "z"],
      "item [1]: 'z' is not one of item.allowedValues ('a', 'b')",
    ],
    ["LIST[INT] item.maxValue (conformance 2.13--list-int-supplied-value-item-above-max)", "  item:\n    maxValue: 10\n", [1, 2, 999], "item [2]: 999 is above item.maxValue 10"],
    ["LIST[FLOAT] item.minValue", "  item:\n    minValue: 0.5\n", "[0.25]", "item [0]: 0.25 is below item.minValue 0.5"],
    ["LIST[BOOL] minLength", "  minLength: 2\n", "[true]", "the list has 1 item; minLength is 2"],
    ["LIST[LIST[INT]] item.minLength", "  item:\n    minLength: 1\n", "[[1],[]]", "item [1]: the inner list has 0 items; item.minLength is 1"],
    ["LIST[LIST[INT]] item.item.allowedValues", "  item:\n    item:\n      allowedValues: [1, 2]\n", "[[1],[2,3]]", "item [1][1]: 3 is not one of item.item.allowedValues (1, 2)"],
  ])("%s", (name, extra, input, message) => {
    const type = name.split(" ")[0] as string;
    expect(problem(single(type, extra), input)).toContain(`parameter V: ${message}`);
  });

  it("accepts bigints from API callers", () => expect(value(single("LIST[LIST[INT]]"), [[9223372036854775807n]])).toBe("[[9223372036854775807]]"));

  it("accepts a value within the constraints (conformance 2.13--list-int-supplied-value-within-constraints)", () => {
    expect(value(single("LIST[INT]", "  maxLength: 5\n  item:\n    maxValue: 10\n"), [3, 5, 7])).toBe("[3,5,7]");
  });

  it.each<[string, string, string]>([
    ["LIST[STRING]", "  default: [a, 'b c']\n", '["a","b c"]'],
    ["LIST[INT]", "  default: [10, '20', 30]\n", "[10,20,30]"],
    ["LIST[FLOAT]", "  default: [0.5, 1.0, 2]\n", "[0.5,1.0,2]"],
    ["LIST[BOOL]", "  default: [true, 'no', 1]\n", "[true,false,true]"], // conformance 2.15--list-bool-param-interpolation
    ["LIST[LIST[INT]]", "  default: [[1, 2], [3, 4], [5, 6]]\n", "[[1,2],[3,4],[5,6]]"],
  ])("%s default → %s", (type, extra, expected) => expect(defaultOf(type, extra)).toBe(expected));
});

describe("LIST[PATH]", () => {
  const paths = single("LIST[PATH]");
  it("joins relative items with the working directory (conformance 2.12--list-path-value-relative-joined-with-cwd)", () => {
    expect(value(paths, ["rel/a.exr", "./b.exr", "../up", "/abs/c", "s3://bucket/k", ""], { workingDir: "/work/shot" })).toBe(
      '["/work/shot/rel/a.exr","/work/shot/b.exr","/work/up","/abs/c","s3://bucket/k",""]',
    );
  });

  it("joins relative default items with the template directory (conformance 2.12--list-path-default-*-within-template-dir)", () => {
    expect(defaultOf("LIST[PATH]", "  default: ['./output', 'a/../b', '..name/x', 'gs://b/k']\n")).toBe('["/jobs/t/output","/jobs/t/b","/jobs/t/..name/x","gs://b/k"]');
  });

  it.each<[string, string]>([
    ["['renders/a.exr', '/tmp/b.exr']", "item [1]: the default '/tmp/b.exr' is an absolute path"],
    ["['renders\\a.exr', 'D:\\renders\\b.exr']", "item [1]: the default 'D:\\renders\\b.exr' is an absolute path"],
    ["['inside/a.exr', 'a/../../b']", "item [1]: the default 'a/../../b' leads outside the job template's directory"],
    ["['a', 'a/..', '..']", "item [2]: the default '..' leads outside"],
  ])("refuses the default %s (conformance 2.12--list-path-default-*.invalid)", (items, message) => {
    const errors = createErrors({ template: single("LIST[PATH]", `  default: ${items}\n`), templateDir: "/jobs/t" });
    expect(errors).toEqual([expect.stringContaining(`template parameterDefinitions[0].default: default of V: ${message}`)]);
  });

  it("checks item constraints after the join (conformance 2.12--list-path-default-item-allowed-values-checked-after-join)", () => {
    const template = single("LIST[PATH]", "  default: [assets/a.blend]\n  item:\n    allowedValues: [assets/a.blend, /w/assets/b.blend]\n");
    expect(createErrors({ template, templateDir: "/jobs/t" }).join("\n")).toContain("item [0]: '/jobs/t/assets/a.blend' is not one of item.allowedValues");
    expect(value(template, '["assets/b.blend"]', { workingDir: "/w" })).toBe('["/w/assets/b.blend"]');
  });
});

describe("PATH URIs with EXPR", () => {
  const definition: PathParameterDefinition = { name: "P", type: "PATH", path: [] };
  const context = { flavor: "posix" as const, workingDir: "/work", templateDir: "/jobs/t" };
  it("a URI is not joined when the context says URIs are URIs", () => {
    expect(coerceParameterValue(definition, "s3://bucket/key", { ...context, uris: true })).toEqual({ ok: true, value: { type: "PATH", value: "s3://bucket/key" } });
    expect(coerceParameterValue(definition, "s3://bucket/key", context)).toEqual({ ok: true, value: { type: "PATH", value: "/work/s3:/bucket/key" } });
  });
});

describe("parameterValueToJson", () => {
  it.each<[ParameterValue, unknown]>([
    [{ type: "BOOL", value: "true" }, true],
    [{ type: "BOOL", value: "false" }, false],
    [{ type: "RANGE_EXPR", value: "1-3,7" }, "1-3,7"],
    [{ type: "INT", value: "9223372036854775807" }, "9223372036854775807"],
    [{ type: "FLOAT", value: "2.50" }, "2.50"],
    [{ type: "PATH", value: "/a" }, "/a"],
    [{ type: "LIST[STRING]", value: '["a","b \\"c\\""]' }, ["a", 'b "c"']],
    [{ type: "LIST[PATH]", value: "[]" }, []],
    [{ type: "LIST[INT]", value: "[1,9223372036854775807]" }, ["1", "9223372036854775807"]],
    [{ type: "LIST[FLOAT]", value: "[1.5,2.0,1e3]" }, ["1.5", "2.0", "1e3"]],
    [{ type: "LIST[BOOL]", value: "[true,false]" }, [true, false]],
    [{ type: "LIST[LIST[INT]]", value: "[[1,2],[]]" }, [["1", "2"], []]],
  ])("%j → %j", (input, expected) => expect(parameterValueToJson(input)).toEqual(expected));

  it("reads back every canonical text job creation writes", () => {
    const template = withParameters(
      ["- name: S\n  type: LIST[STRING]\n  default: ['x,y', '']", "- name: F\n  type: LIST[FLOAT]\n  default: [.5, 2.0]", "- name: M\n  type: LIST[LIST[INT]]\n  default: [[7]]"].join("\n"),
      EXPR,
    );
    const { parameters } = createOk({ template });
    expect(Object.values(parameters).map(parameterValueToJson)).toEqual([["x,y", ""], ["0.5", "2.0"], [["7"]]]);
  });
});
