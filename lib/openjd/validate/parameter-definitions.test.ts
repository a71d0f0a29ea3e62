/**
 * Job parameter definitions (spec §2; digest §4, §9, §15; catalogue rows 41–57). Boundaries
 * around the conformance fixtures: lengths, counts, int64, numeric (not lexical) comparison.
 */
import { describe, expect, it } from "vitest";
import { errorsOf, expectError, expectValid, job, set, withParams, type InvalidRow, type ValidRow } from "./template-test-support";

const INT64_MAX = 9223372036854775807n;
const INT64_MIN = -9223372036854775808n;
const P = "parameterDefinitions[0]";
const many = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `P${i}`, type: "INT" }));

describe("valid parameter definitions", () => {
  it.each<ValidRow>([
    ["one of each type", withParams({ name: "I", type: "INT" }, { name: "F", type: "FLOAT" }, { name: "S", type: "STRING" }, { name: "D", type: "PATH" })],
    ["50 parameters (the base maximum)", withParams(...many(50))],
    ["name of exactly 64 characters", withParams({ name: "N".repeat(64), type: "INT" })],
    ["name starting with an underscore", withParams({ name: "_x9", type: "INT" })],
    ["names differing only in case are distinct", withParams({ name: "P", type: "INT" }, { name: "p", type: "INT" })],
    ["description of 2048 characters with newline, CR and tab", withParams({ name: "P", type: "INT", description: `a\nb\r\tc${"d".repeat(2042)}` })],
    ["INT default int64 max", withParams({ name: "P", type: "INT", default: INT64_MAX })],
    ["INT default int64 min as an intstring", withParams({ name: "P", type: "INT", default: INT64_MIN.toString() })],
    ["INT minValue == maxValue == default", withParams({ name: "P", type: "INT", minValue: 3, maxValue: 3, default: 3 })],
    ["INT bounds compared numerically, not as text ('010' ≤ 15 ≤ 20)", withParams({ name: "P", type: "INT", minValue: "010", maxValue: 20, default: "15" })],
    ["INT allowedValues as intstrings match a numeric default", withParams({ name: "P", type: "INT", allowedValues: ["1", "2", "04"], default: 4 })],
    ["FLOAT accepts integers and floatstrings", withParams({ name: "P", type: "FLOAT", minValue: 0, maxValue: "2.5", default: "1.500", allowedValues: [1, 1.5, "2.5"] })],
    ["FLOAT minValue == maxValue", withParams({ name: "P", type: "FLOAT", minValue: 0.5, maxValue: "0.50" })],
    ["STRING minLength 0 with an empty default", withParams({ name: "P", type: "STRING", minLength: 0, default: "" })],
    ["STRING empty default without constraints (values are 0..1024 chars)", withParams({ name: "P", type: "STRING", default: "" })],
    ["STRING default of exactly 1024 characters", withParams({ name: "P", type: "STRING", default: "x".repeat(1024) })],
    ["STRING minLength == maxLength == default length", withParams({ name: "P", type: "STRING", minLength: 2, maxLength: 2, default: "ab" })],
    ["STRING lengths count code points, not UTF-16 units", withParams({ name: "P", type: "STRING", maxLength: 2, default: "🎬🎞" })],
    ["STRING allowedValues of 1024 characters", withParams({ name: "P", type: "STRING", allowedValues: ["x".repeat(1024)] })],
    ["PATH with every objectType/dataFlow field", withParams({ name: "P", type: "PATH", objectType: "FILE", dataFlow: "INOUT" })],
    ["PATH objectType DIRECTORY, dataFlow NONE", withParams({ name: "P", type: "PATH", objectType: "DIRECTORY", dataFlow: "NONE" })],
    ["PATH dataFlow IN and OUT", withParams({ name: "A", type: "PATH", dataFlow: "IN" }, { name: "B", type: "PATH", dataFlow: "OUT" })],
    ["PATH absolute default passes template validation (rejected at job creation)", withParams({ name: "P", type: "PATH", default: "/tmp/x" })],
  ])("%s", (_name, doc) => expectValid(doc));
});

describe("parameter list and names", () => {
  it.each<InvalidRow>([
    ["51 parameters without FEATURE_BUNDLE_1", withParams(...many(51)), "parameterDefinitions", /at most 50/],
    ["not a list", { ...withParams(), parameterDefinitions: { name: "P" } }, "parameterDefinitions", /expected a list/],
    ["a definition that is not a mapping", withParams("P" as never), P, /expected a parameter definition/],
    ["missing name", withParams({ type: "INT" }), `${P}.name`, /missing required field 'name'/],
    ["missing type", withParams({ name: "P" }), `${P}.type`, /missing required field 'type'/],
    ["name of 65 characters", withParams({ name: "N".repeat(65), type: "INT" }), `${P}.name`, /at most 64/],
    ["name with a hyphen", withParams({ name: "a-b", type: "INT" }), `${P}.name`, /letters, digits and '_'/],
    ["name with a non-latin letter", withParams({ name: "é", type: "INT" }), `${P}.name`, /letters, digits and '_'/],
    ["empty name", withParams({ name: "", type: "INT" }), `${P}.name`, /must not be empty/],
    ["duplicate names report the second one", withParams({ name: "P", type: "INT" }, { name: "P", type: "FLOAT" }), "parameterDefinitions[1].name", /duplicate parameter name 'P'/],
    ["unknown type", withParams({ name: "P", type: "NUMBER" }), `${P}.type`, /not one of INT, FLOAT, STRING, PATH/],
    ["BOOL needs EXPR", withParams({ name: "P", type: "BOOL" }), `${P}.type`, /requires extension EXPR \(add it to 'extensions'\)/],
    ["LIST[STRING] needs EXPR", withParams({ name: "P", type: "LIST[STRING]" }), `${P}.type`, /requires extension EXPR/],
    ["RANGE_EXPR needs EXPR", withParams({ name: "P", type: "RANGE_EXPR" }), `${P}.type`, /requires extension EXPR/],
    ["empty description", withParams({ name: "P", type: "INT", description: "" }), `${P}.description`, /must not be empty/],
    ["description of 2049 characters", withParams({ name: "P", type: "INT", description: "d".repeat(2049) }), `${P}.description`, /at most 2048/],
    ["description with a control character other than newline/CR/tab", withParams({ name: "P", type: "INT", description: "a\u0007b" }), `${P}.description`, /control characters/],
    ["description that is not a string", withParams({ name: "P", type: "INT", description: 12 }), `${P}.description`, /expected a string/],
  ])("%s", (_name, doc, path, message) => expectError(doc, path, message));
});

describe("INT and FLOAT constraints", () => {
  it.each<InvalidRow>([
    ["INT float default", withParams({ name: "P", type: "INT", default: 1.5 }), `${P}.default`, /expected an integer/],
    ["INT boolean default", withParams({ name: "P", type: "INT", default: true }), `${P}.default`, /expected an integer/],
    ["INT non-numeric string default", withParams({ name: "P", type: "INT", default: "nine" }), `${P}.default`, /not an integer/],
    ["INT decimal string default", withParams({ name: "P", type: "INT", default: "1.0" }), `${P}.default`, /not an integer/],
    ["INT minValue int64 min - 1 (intstring)", withParams({ name: "P", type: "INT", minValue: (INT64_MIN - 1n).toString() }), `${P}.minValue`, /64-bit/],
    ["INT maxValue int64 max + 1 (intstring)", withParams({ name: "P", type: "INT", maxValue: (INT64_MAX + 1n).toString() }), `${P}.maxValue`, /64-bit/],
    ["INT allowedValues item int64 min - 1", withParams({ name: "P", type: "INT", allowedValues: [1, INT64_MIN - 1n] }), `${P}.allowedValues[1]`, /64-bit/],
    ["INT minValue '10' > maxValue '9' (numeric, not lexical)", withParams({ name: "P", type: "INT", minValue: "10", maxValue: "9" }), `${P}.maxValue`, /greater than or equal to minValue/],
    ["INT default above maxValue", withParams({ name: "P", type: "INT", maxValue: 5, default: 6 }), `${P}.default`, /above maxValue/],
    ["INT allowedValues item below minValue", withParams({ name: "P", type: "INT", minValue: 2, allowedValues: [2, 1] }), `${P}.allowedValues[1]`, /below minValue/],
    ["INT allowedValues item above maxValue", withParams({ name: "P", type: "INT", maxValue: 2, allowedValues: [1, 3] }), `${P}.allowedValues[1]`, /above maxValue/],
    ["INT empty allowedValues", withParams({ name: "P", type: "INT", allowedValues: [] }), `${P}.allowedValues`, /must not be empty/],
    ["INT default not in allowedValues given as intstrings", withParams({ name: "P", type: "INT", allowedValues: ["1", "2"], default: 3 }), `${P}.default`, /one of allowedValues/],
    ["INT with minLength", withParams({ name: "P", type: "INT", maxLength: 3 }), `${P}.maxLength`, /unknown field 'maxLength'/],
    ["FLOAT non-numeric default", withParams({ name: "P", type: "FLOAT", default: "abc" }), `${P}.default`, /not a number/],
    ["FLOAT minValue > maxValue as floatstrings", withParams({ name: "P", type: "FLOAT", minValue: "10.0", maxValue: "9.5" }), `${P}.maxValue`, /greater than or equal to minValue/],
    ["FLOAT maxValue 'inf'", withParams({ name: "P", type: "FLOAT", maxValue: "inf" }), `${P}.maxValue`, /not a number|finite/],
    ["FLOAT default below minValue", withParams({ name: "P", type: "FLOAT", minValue: 0.5, default: 0.25 }), `${P}.default`, /below minValue/],
    ["FLOAT default not in allowedValues", withParams({ name: "P", type: "FLOAT", allowedValues: [1.5], default: 2 }), `${P}.default`, /one of allowedValues/],
    ["FLOAT with minLength", withParams({ name: "P", type: "FLOAT", minLength: 1 }), `${P}.minLength`, /unknown field 'minLength'/],
    ["FLOAT with objectType", withParams({ name: "P", type: "FLOAT", objectType: "FILE" }), `${P}.objectType`, /unknown field/],
  ])("%s", (_name, doc, path, message) => expectError(doc, path, message));
});

describe("STRING and PATH constraints", () => {
  it.each<InvalidRow>([
    ["STRING default of 1025 characters", withParams({ name: "P", type: "STRING", default: "x".repeat(1025) }), `${P}.default`, /at most 1024/],
    ["STRING allowedValues item of 1025 characters", withParams({ name: "P", type: "STRING", allowedValues: ["x".repeat(1025)] }), `${P}.allowedValues[0]`, /at most 1024/],
    ["STRING minLength -1", withParams({ name: "P", type: "STRING", minLength: -1 }), `${P}.minLength`, /zero or greater/],
    ["STRING minLength as a float", withParams({ name: "P", type: "STRING", minLength: 1.5 }), `${P}.minLength`, /expected an integer/],
    ["STRING minLength as a string", withParams({ name: "P", type: "STRING", minLength: "3" }), `${P}.minLength`, /expected an integer/],
    ["STRING minLength 5 > maxLength 2", withParams({ name: "P", type: "STRING", minLength: 5, maxLength: 2 }), `${P}.maxLength`, /greater than or equal to minLength/],
    ["STRING default longer than maxLength", withParams({ name: "P", type: "STRING", maxLength: 2, default: "abc" }), `${P}.default`, /longer than maxLength/],
    ["STRING default shorter than minLength", withParams({ name: "P", type: "STRING", minLength: 3, default: "ab" }), `${P}.default`, /shorter than minLength/],
    ["STRING allowedValues item longer than maxLength", withParams({ name: "P", type: "STRING", maxLength: 1, allowedValues: ["a", "bb"] }), `${P}.allowedValues[1]`, /longer than maxLength/],
    ["STRING allowedValues compare case-sensitively", withParams({ name: "P", type: "STRING", allowedValues: ["a"], default: "A" }), `${P}.default`, /one of allowedValues/],
    ["STRING empty allowedValues", withParams({ name: "P", type: "STRING", allowedValues: [] }), `${P}.allowedValues`, /must not be empty/],
    ["STRING default that is a number", withParams({ name: "P", type: "STRING", default: 5 }), `${P}.default`, /expected a string/],
    ["STRING with objectType", withParams({ name: "P", type: "STRING", objectType: "FILE" }), `${P}.objectType`, /unknown field 'objectType'/],
    ["STRING with maxValue", withParams({ name: "P", type: "STRING", maxValue: 1 }), `${P}.maxValue`, /unknown field 'maxValue'/],
    ["PATH with minValue", withParams({ name: "P", type: "PATH", minValue: 1 }), `${P}.minValue`, /unknown field 'minValue'/],
    ["PATH objectType is case-sensitive", withParams({ name: "P", type: "PATH", objectType: "file" }), `${P}.objectType`, /not one of FILE, DIRECTORY/],
    ["PATH dataFlow is case-sensitive", withParams({ name: "P", type: "PATH", dataFlow: "in" }), `${P}.dataFlow`, /not one of NONE, IN, OUT, INOUT/],
    ["PATH default longer than maxLength", withParams({ name: "P", type: "PATH", maxLength: 3, default: "abcd" }), `${P}.default`, /longer than maxLength/],
  ])("%s", (_name, doc, path, message) => expectError(doc, path, message));
});

describe("a definition whose type is unusable", () => {
  it.each<InvalidRow>([
    [
      "a missing type is the only error, even where the parameter is referenced",
      set(job(["parameterDefinitions", [{ name: "P" }]]), "steps[0].script.actions.onRun.args", ["{{Param.P}}"]),
      `${P}.type`,
      /missing required field 'type'/,
    ],
  ])("%s", (_name, doc, path, message) => expectError(doc, path, message));

  it("reports the unknown key as well", () => {
    expect(errorsOf(withParams({ name: "P", type: "NUMBER", colour: "red" })).map((e) => e.path)).toEqual([`${P}.type`, `${P}.colour`]);
  });
});
