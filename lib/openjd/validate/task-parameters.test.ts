/**
 * Parameter space (spec §3.4; digest §5.2, §11, §13.1, §18.6–§18.7; catalogue rows 68–95):
 * task parameter definitions and ranges, range expressions, combination, CHUNK[INT] chunks.
 */
import { describe, it } from "vitest";
import { expectError, expectValid, withExtensions, withStep, withTaskParams, type Doc, type InvalidRow, type ValidRow } from "./template-test-support";

const SPACE = "steps[0].parameterSpace";
const T = `${SPACE}.taskParameterDefinitions[0]`;
const int = (range: unknown, name = "A"): Doc => ({ name, type: "INT", range });
const one = (definition: Doc) => withTaskParams([definition]);
const ints = (...names: string[]) => names.map((n) => int([1, 2], n));
const withParams = (doc: Doc, params: Doc[]) => ({ ...doc, parameterDefinitions: params });
const chunked = (chunks: unknown, range: unknown = "1-10", combination?: string, others: Doc[] = []) =>
  withExtensions(withTaskParams([{ name: "F", type: "CHUNK[INT]", range, chunks }, ...others], combination), "TASK_CHUNKING");
const CHUNKS = { defaultTaskCount: 5, rangeConstraint: "CONTIGUOUS" };

describe("valid parameter spaces", () => {
  it.each<ValidRow>([
    ["16 task parameters", withTaskParams(Array.from({ length: 16 }, (_, i) => int([1], `P${i}`)))],
    ["task parameter name of 64 characters", one(int([1], "N".repeat(64)))],
    ["INT list mixing integers and intstrings", one(int([1, "2", "-3", "0"]))],
    ["INT list with int64 max and min", one(int([9223372036854775807n, "-9223372036854775808"]))],
    ["INT list of 1024 items", one(int(Array.from({ length: 1024 }, (_, i) => i)))],
    ["range expression with exactly 1024 values", one(int("0-1023"))],
    ["range expression spaces and tabs", one(int(" 1 - 5 ,\t7 "))],
    ["range expression out of order (sorted)", one(int("10-15:2,1-5"))],
    ["range expression negative bounds", one(int("-5--1"))],
    ["range expression descending with a negative step", one(int("10-1:-3"))],
    ["range expression step larger than the span", one(int("1-2:5"))],
    ["range expression single value int64 max", one(int("9223372036854775807"))],
    ["range expression near int64 max", one(int("9223372036854775800-9223372036854775807"))],
    ["INT range expression from a parameter", withParams(one(int("{{Param.Frames}}")), [{ name: "Frames", type: "STRING" }])],
    ["INT list item from a parameter", withParams(one(int(["{{Param.N}}"])), [{ name: "N", type: "INT" }])],
    ["FLOAT list of integers, floats and floatstrings", one({ name: "A", type: "FLOAT", range: [1, 2.5, "3.0", "-1e2"] })],
    ["STRING value of 1024 characters", one({ name: "A", type: "STRING", range: ["s".repeat(1024)] })],
    ["PATH values from RawParam of a PATH parameter", withParams(one({ name: "A", type: "PATH", range: ["{{RawParam.P}}/x"] }), [{ name: "P", type: "PATH" }])],
    ["combination with a product", withTaskParams(ints("A", "B"), "B * A")],
    ["combination with nested associations", withTaskParams(ints("A", "B", "C"), "((A, B), C)")],
    ["association of a product with a parameter", withTaskParams([int([1, 2], "A"), int([1], "B"), int([1, 2], "C")], "(A * B, C)")],
    ["combination of exactly 1280 characters", withTaskParams(ints("A"), `A${" ".repeat(1279)}`)],
    ["combination with 64-character names", withTaskParams(ints("N".repeat(64), "M".repeat(64)), `${"N".repeat(64)} * ${"M".repeat(64)}`)],
    ["CHUNK[INT] with CONTIGUOUS chunks", chunked(CHUNKS)],
    ["CHUNK[INT] with NONCONTIGUOUS, targetRuntimeSeconds 0 and a list range", chunked({ defaultTaskCount: 1, targetRuntimeSeconds: 0, rangeConstraint: "NONCONTIGUOUS" }, [1, 3, 5])],
    ["CHUNK[INT] counts as intstrings", chunked({ defaultTaskCount: "10", targetRuntimeSeconds: "60", rangeConstraint: "CONTIGUOUS" })],
    ["CHUNK[INT] count from a parameter", withParams(chunked({ defaultTaskCount: "{{Param.N}}", rangeConstraint: "CONTIGUOUS" }), [{ name: "N", type: "INT" }])],
    ["CHUNK[INT] in a product with another parameter", chunked(CHUNKS, "1-10", "A * F", ints("A"))],
    ["CHUNK[INT] beside an association", chunked(CHUNKS, "1-10", "F * (A, B)", ints("A", "B"))],
  ])("%s", (_name, doc) => expectValid(doc));
  // Deliberate deviations from two spec examples, following both reference implementations:
  // '1 - -1' and '(A)' are refused (range-expr.test.ts, combination-expr.test.ts pin the errors).
});

describe("task parameter definitions", () => {
  it.each<InvalidRow>([
    ["parameterSpace: {}", withTaskParams(undefined as never), `${SPACE}.taskParameterDefinitions`, /missing required field/],
    ["empty taskParameterDefinitions", withTaskParams([]), `${SPACE}.taskParameterDefinitions`, /must not be empty/],
    ["17 task parameters", withTaskParams(Array.from({ length: 17 }, (_, i) => int([1], `P${i}`))), `${SPACE}.taskParameterDefinitions`, /at most 16/],
    ["unknown key in parameterSpace", withStep({ parameterSpace: { taskParameterDefinitions: ints("A"), order: "A" } }), `${SPACE}.order`, /unknown field 'order'/],
    ["task parameter name of 65 characters", one(int([1], "N".repeat(65))), `${T}.name`, /at most 64/],
    ["task parameter without type", one({ name: "A", range: [1] }), `${T}.type`, /missing required field 'type'/],
    ["task parameter without range", one({ name: "A", type: "INT" }), `${T}.range`, /missing required field 'range'/],
    ["task parameter type is case-sensitive", one({ name: "A", type: "int", range: [1] }), `${T}.type`, /not one of/],
    ["task parameter type BOOL needs EXPR", one({ name: "A", type: "BOOL", range: [true] }), `${T}.type`, /requires extension EXPR/],
    ["CHUNK[INT] without TASK_CHUNKING", one({ name: "A", type: "CHUNK[INT]", range: "1-10", chunks: CHUNKS }), `${T}.type`, /requires extension TASK_CHUNKING/],
    ["chunks on an INT parameter", withExtensions(one({ ...int("1-5"), chunks: CHUNKS }), "TASK_CHUNKING"), `${T}.chunks`, /unknown field 'chunks'/],
    ["unknown key in a task parameter", one({ ...int([1]), step: 1 }), `${T}.step`, /unknown field 'step'/],
  ])("%s", (_name, doc, path, message) => expectError(doc, path, message));
});

describe("ranges", () => {
  it.each<InvalidRow>([
    ["INT empty list", one(int([])), `${T}.range`, /must not be empty/],
    ["INT list of 1025 items", one(int(Array.from({ length: 1025 }, (_, i) => i))), `${T}.range`, /at most 1024/],
    ["INT list float item", one(int([1, 2.5])), `${T}.range[1]`, /expected an integer/],
    ["INT list boolean item", one(int([true])), `${T}.range[0]`, /expected an integer/],
    ["INT list non-numeric string", one(int(["abc"])), `${T}.range[0]`, /not an integer/],
    ["INT list decimal string", one(int(["1.5"])), `${T}.range[0]`, /not an integer/],
    ["INT list int64 max + 1", one(int([9223372036854775808n])), `${T}.range[0]`, /64-bit/],
    ["INT range that is a mapping", one(int({ from: 1 })), `${T}.range`, /expected a list/],
    ["range expression int64 max + 1", one(int("9223372036854775808")), `${T}.range`, /64-bit/],
    ["range expression with 1025 values", one(int("0-1024")), `${T}.range`, /at most 1024/],
    ["empty range expression", one(int("")), `${T}.range`, /empty range expression/],
    ["whitespace-only range expression", one(int(" \t ")), `${T}.range`, /empty range expression/],
    ["range expression step 0", one(int("1-5:0")), `${T}.range`, /invalid range expression/],
    ["range expression ranges touching at one value", one(int("1-3,3-5")), `${T}.range`, /overlap/],
    ["range expression overlap judged on written intervals (spec example)", one(int("1-10:4,10-15")), `${T}.range`, /overlap/],
    ["range expression repeated single value", one(int("3,3")), `${T}.range`, /listed twice/],
    ["range expression missing end", one(int("1-")), `${T}.range`, /invalid range expression/],
    ["range expression double comma", one(int("1,,2")), `${T}.range`, /invalid range expression/],
    ["range expression with a letter", one(int("1-a")), `${T}.range`, /invalid range expression/],
    ["range expression with a decimal", one(int("1.5")), `${T}.range`, /invalid range expression/],
    ["range expression with two steps", one(int("1-9:2:1")), `${T}.range`, /invalid range expression/],
    ["FLOAT range expression", one({ name: "A", type: "FLOAT", range: "1-5" }), `${T}.range`, /must be a list of values/],
    ["FLOAT boolean item", one({ name: "A", type: "FLOAT", range: [true] }), `${T}.range[0]`, /expected a number/],
    ["FLOAT non-numeric string", one({ name: "A", type: "FLOAT", range: ["abc"] }), `${T}.range[0]`, /not a number/],
    ["STRING range that is a string", one({ name: "A", type: "STRING", range: "a" }), `${T}.range`, /must be a list of values/],
    ["STRING empty value", one({ name: "A", type: "STRING", range: ["a", ""] }), `${T}.range[1]`, /must not be empty/],
    ["STRING value of 1025 characters", one({ name: "A", type: "STRING", range: ["s".repeat(1025)] }), `${T}.range[0]`, /at most 1024/],
    ["STRING value that is a number", one({ name: "A", type: "STRING", range: [1] }), `${T}.range[0]`, /expected a string/],
    ["PATH list of 1025 items", one({ name: "A", type: "PATH", range: Array.from({ length: 1025 }, (_, i) => `/p${i}`) }), `${T}.range`, /at most 1024/],
    ["PATH value from Param of a PATH parameter", withParams(one({ name: "A", type: "PATH", range: ["{{Param.P}}"] }), [{ name: "P", type: "PATH" }]), `${T}.range[0]`, /use RawParam\.P/],
    ["range value using Session.*", one({ name: "A", type: "STRING", range: ["{{Session.WorkingDirectory}}"] }), `${T}.range[0]`, /Session\.WorkingDirectory does not exist/],
    ["range expression using Task.Param.*", one(int("{{Task.Param.A}}")), `${T}.range`, /Task\.Param\.A does not exist/],
  ])("%s", (_name, doc, path, message) => expectError(doc, path, message));
});

describe("combination", () => {
  const C = `${SPACE}.combination`;
  it.each<InvalidRow>([
    ["empty combination", withTaskParams(ints("A"), ""), C, /empty|must not be empty/],
    ["combination of 1281 characters", withTaskParams(ints("A"), `A${" ".repeat(1280)}`), C, /1280/],
    ["parameter used twice", withTaskParams(ints("A", "B"), "A * A * B"), C, /'A' appears 2 times/],
    ["parameter used twice across an association", withTaskParams(ints("A", "B"), "(A, B) * A"), C, /'A' appears 2 times/],
    ["undefined parameter", withTaskParams(ints("A"), "A * B"), C, /'B' in the combination is not a task parameter/],
    ["parameter names are case-sensitive", withTaskParams(ints("A"), "a"), C, /'a' in the combination is not a task parameter/],
    ["a tab is not allowed (only spaces)", withTaskParams(ints("A", "B"), "A\t*\tB"), C, /is not allowed/],
    ["'+' is not an operator", withTaskParams(ints("A", "B"), "A+B"), C, /unexpected '\+'|not allowed/],
    ["a comma outside parentheses", withTaskParams(ints("A", "B"), "A,B"), C, /association needs parentheses/],
    ["two operators in a row", withTaskParams(ints("A", "B"), "A * * B"), C, /unexpected '\*'/],
    ["unclosed association", withTaskParams(ints("A", "B"), "(A, B"), C, /./],
    ["combination that is a list", withTaskParams(ints("A"), ["A"] as never), C, /expected a string/],
  ])("%s", (_name, doc, path, message) => expectError(doc, path, message));
});

describe("CHUNK[INT] chunks", () => {
  const K = "steps[0].parameterSpace.taskParameterDefinitions[0].chunks";
  it.each<InvalidRow>([
    ["CHUNK[INT] list range with a float", chunked(CHUNKS, [1, 1.5]), `${T}.range[1]`, /expected an integer/],
    ["defaultTaskCount 0", chunked({ ...CHUNKS, defaultTaskCount: 0 }), `${K}.defaultTaskCount`, /at least 1/],
    ["defaultTaskCount '0'", chunked({ ...CHUNKS, defaultTaskCount: "0" }), `${K}.defaultTaskCount`, /at least 1/],
    ["defaultTaskCount 1.5", chunked({ ...CHUNKS, defaultTaskCount: 1.5 }), `${K}.defaultTaskCount`, /expected an integer/],
    ["defaultTaskCount missing", chunked({ rangeConstraint: "CONTIGUOUS" }), `${K}.defaultTaskCount`, /missing required field/],
    ["rangeConstraint missing", chunked({ defaultTaskCount: 1 }), `${K}.rangeConstraint`, /missing required field/],
    ["rangeConstraint is case-sensitive", chunked({ ...CHUNKS, rangeConstraint: "contiguous" }), `${K}.rangeConstraint`, /not one of CONTIGUOUS, NONCONTIGUOUS/],
    ["rangeConstraint is literal, not a format string", withParams(chunked({ ...CHUNKS, rangeConstraint: "{{Param.C}}" }), [{ name: "C", type: "STRING" }]), `${K}.rangeConstraint`, /not one of/],
    ["targetRuntimeSeconds '-5'", chunked({ ...CHUNKS, targetRuntimeSeconds: "-5" }), `${K}.targetRuntimeSeconds`, /zero or greater/],
    ["unknown key in chunks", chunked({ ...CHUNKS, maxTaskCount: 3 }), `${K}.maxTaskCount`, /unknown field/],
    ["defaultTaskCount from Param of a PATH parameter", withParams(chunked({ ...CHUNKS, defaultTaskCount: "{{Param.P}}" }), [{ name: "P", type: "PATH" }]), `${K}.defaultTaskCount`, /use RawParam\.P/],
    ["defaultTaskCount using Session.*", chunked({ ...CHUNKS, defaultTaskCount: "{{Session.WorkingDirectory}}" }), `${K}.defaultTaskCount`, /does not exist/],
    ["CHUNK[INT] inside an association", chunked(CHUNKS, [1, 2], "(F, A)", ints("A")), `${SPACE}.combination`, /cannot be inside an association/],
    ["CHUNK[INT] deep inside an association", chunked(CHUNKS, [1, 2, 3, 4], "(A * F, B)", [int([1], "A"), int([1, 2, 3, 4], "B")]), `${SPACE}.combination`, /cannot be inside an association/],
  ])("%s", (_name, doc, path, message) => expectError(doc, path, message));
});
