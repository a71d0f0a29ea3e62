import { describe, expect, it } from "vitest";
import { evaluateWithMetrics } from "./evaluator";
import { failure, text, typeOfResult } from "./expr-test-support";
import { standardLibrary } from "./functions";
import { parseExpression } from "./parser";
import { floatValue, intValue, stringValue, pathValue } from "./values";

describe("arithmetic (spec digest §14.4)", () => {
  it.each([
    ["1 + 2 * 3", "7"],
    ["(1 + 2) * 3", "9"],
    ["2 ** 3 ** 2", "512"],
    ["-2 ** 2", "-4"],
    ["2 ** -1", "0.5"],
    ["7 // 2", "3"],
    ["-7 // 3", "-3"],
    ["7 // -3", "-3"],
    ["-7 % 3", "2"],
    ["7 % -3", "-2"],
    ["7.5 % 2.0", "1.5"],
    ["-7.5 // 2", "-4"],
    ["7.0 // 2.0", "3"],
    ["10 / 4", "2.5"],
    ["10 / 5", "2.0"],
    ["1 + 2.5", "3.5"],
    ["0.1 + 0.2", "0.30000000000000004"],
    ["1.5 + 2.5", "4.0"],
    ["3.500", "3.500"],
    ["1e16 * 1", "1e+16"],
    ["1.5e-7 * 1", "1.5e-07"],
    ["-0.0 * 1", "0.0"],
    ["9223372036854775807", "9223372036854775807"],
    ["-9223372036854775808", "-9223372036854775808"],
    ["2 ** 62 + (2 ** 62 - 1)", "9223372036854775807"],
  ])("%s = %s", (source, expected) => {
    expect(text(source)).toBe(expected);
  });

  it.each([
    ["9223372036854775807 + 1", /^overflow: /],
    ["-9223372036854775807 - 2", /^overflow: /],
    ["2 ** 63", /^overflow: /],
    ["2 ** 100000000", /^overflow: /],
    ["3037000500 * 3037000500", /^overflow: /],
    ["1 / 0", /^zero-division: /],
    ["1 // 0", /^zero-division: /],
    ["1 % 0", /^zero-division: /],
    ["1.0 / 0.0", /^zero-division: /],
    ["0 ** -1", /^zero-division: /],
    ["(-8.0) ** 0.5", /^value: /],
    ["1e308 * 10", /^overflow: float result is infinite/],
    ["1e300 // 1e-300", /^overflow: .* is too large to be an integer/],
    ["'a' + 1", /^type: '\+' does not accept \(string, int\)/],
    ["true + 1", /^type: /],
  ])("%s fails", (source, error) => {
    expect(failure(source)).toMatch(error);
  });
});

describe("comparison and logic", () => {
  it.each([
    ["1 < 2 < 3", "true"],
    ["1 < 3 < 2", "false"],
    ["1 == 1.0", "true"],
    ["'a' == 1", "false"],
    ["[1, 2] == [1.0, 2.0]", "true"],
    ["[] == []", "true"],
    ["null == null", "true"],
    ["true == 1", "false"],
    ["'b' > 'a'", "true"],
    ["[1, 2] < [1, 3]", "true"],
    ["false < true", "true"],
    ["2 in [1, 2]", "true"],
    ["3 not in [1, 2]", "true"],
    ["'ell' in 'hello'", "true"],
    ["not true", "false"],
    ["null or 'fallback'", "fallback"],
    ["'' or 'fallback'", ""],
    ["0 or 5", "0"],
    ["false or 5", "5"],
    ["false and (1 / 0 == 1)", "false"],
    ["true and 7", "7"],
    ["'x' if 1 > 2 else 'y'", "y"],
    ["1 if true else 1 / 0", "1"],
  ])("%s → %s", (source, expected) => {
    expect(text(source)).toBe(expected);
  });

  it.each([
    ["1 < 'a'", /^type: /],
    ["not 1", /^type: 'not' does not accept \(int\)/],
    ["1 if 1 else 2", /^type: a condition must be a bool, got int/],
    ["[1] < ['a']", /^type: cannot order int and string/],
  ])("%s fails", (source, error) => {
    expect(failure(source)).toMatch(error);
  });
});

describe("names, lists, indexing, comprehensions", () => {
  const symbols = { item: intValue(1n), "Param.N": intValue(5n), "Param.F": floatValue(2.5, "2.50"), "Param.S": stringValue("héllo"), "Param.P": pathValue("/a/b.exr", "POSIX") };

  it.each([
    ["Param.N * 2", "10"],
    ["Param.F", "2.50"],
    ["Param.F * 2", "5.0"],
    ["Param.S[1]", "é"],
    ["Param.S[-1]", "o"],
    ["Param.S[1:3]", "él"],
    ["Param.S[::-1]", "olléh"],
    ["[1, 2, 3][-1]", "3"],
    ["[1, 2, 3][1:]", "[2, 3]"],
    ["[1, 2, 3][10:]", "[]"],
    ["[1, 2.5]", "[1.0, 2.5]"],
    ["['a', 'b']", '["a", "b"]'],
    ["[[1], [2.5]]", "[[1.0], [2.5]]"],
    ["[x * 2 for x in [1, 2, 3] if x > 1]", "[4, 6]"],
    ["[]", "[]"],
    ["len(Param.S)", "5"],
    ["int('42')", "42"],
    ["int(3.0)", "3"],
    ["float('2.50')", "2.5"], // Python float(): the written text is not kept
    ["string(null)", "null"],
    ["string([1, 2])", "[1, 2]"],
    ["bool('Yes')", "true"],
    ["range_expr('3,1-2')", "1-3"],
    ["list(range_expr('1-3'))", "[1, 2, 3]"],
    ["range_expr('1-10')[2:5]", "3-5"],
    ["range_expr('1-10')[::-3]", "[10, 7, 4, 1]"],
    ["5 in range_expr('1-10:2')", "true"],
    ["range_expr('1-9223372036854775807')[-1]", "9223372036854775807"],
    ["range_expr('-9223372036854775808-9223372036854775807')[0]", "-9223372036854775808"],
  ])("%s → %s", (source, expected) => {
    expect(text(source, { symbols })).toBe(expected);
  });

  it.each([
    ["Param.X", /^name: unknown name 'Param\.X'; did you mean .*Param\.N/],
    ["nosuch(1)", /^name: unknown function 'nosuch'/],
    ["__add__(1, 2)", /^name: '__add__' cannot be called directly/],
    ["[1, 2][2]", /^index: index 2 is out of range for a list of length 2/],
    ["'abc'[-4]", /^index: /],
    ["[1, 2][::0]", /^value: slice step cannot be zero/],
    ["[1, 'a']", /^type: a list cannot mix int and string values/],
    ["[1, null]", /^type: lists cannot contain null/],
    ["[[[1]]]", /^type: lists nest at most two levels deep/],
    ["Param.P[0]", /^type: a path cannot be indexed; use its \.parts/],
    ["Param.P[1:]", /^type: a path cannot be sliced; use its \.parts/],
    ["int(3.5)", /^value: 3\.5 is not a whole number/],
    ["int('3.1')", /^value: /],
    ["bool('maybe')", /^value: /],
    ["range_expr('')", /^value: /],
    ["fail('custom message')", /^failed: custom message$/],
    ["[x for x in [1, 2] if x]", /^type: a comprehension filter must be a bool, got int/],
    ["[item for item in [1]]", /^name: the loop variable 'item' shadows/],
  ])("%s fails", (source, error) => {
    expect(failure(source, { symbols })).toMatch(error);
  });
});

describe("target types (coercion of a whole-field result)", () => {
  it.each([
    ["42", "string", "42"],
    ["true", "string", "true"],
    ["'7'", "int", "7"],
    ["3.0", "int", "3"],
    ["'2.50'", "float", "2.50"],
    ["1", "float", "1.0"],
    ["range_expr('1-3')", "list[int]", "[1, 2, 3]"],
    ["range_expr('1-3')", "string", "1-3"],
    ["[1, 2]", "list[float]", "[1.0, 2.0]"],
    ["null", "int?", "null"],
    ["['a', 'b']", "string? | list[string]", '["a", "b"]'],
    ["'/a/b'", "path", "/a/b"],
  ])("%s as %s → %s", (source, target, expected) => {
    expect(text(source, { target })).toBe(expected);
  });

  it.each([
    ["3.5", "int"],
    ["'abc'", "int"],
    ["[1]", "string"],
    ["null", "string"],
    ["'x'", "list[string]"],
  ])("%s cannot become %s", (source, target) => {
    expect(failure(source, { target })).toMatch(/^type: expected /);
  });
});

describe("static type checking with unresolved symbols", () => {
  const types = { "Param.N": "int", "Param.S": "string", "Param.L": "list[int]", "Param.R": "range_expr", "Param.O": "string?" };

  it.each([
    ["Param.N + 1", "int"],
    ["Param.N + 1.5", "float"],
    ["Param.N / 2", "float"],
    ["Param.N > 3", "bool"],
    ["Param.L[0]", "int"],
    ["len(Param.S)", "int"],
    ["Param.S if Param.N > 1 else 'x'", "string"],
    ["Param.N if Param.N > 1 else 'x'", "int | string"],
    ["[x * 2 for x in Param.L]", "list[int]"],
    ["[x for x in Param.R if x > 2]", "list[int]"],
    ["Param.O or 'fallback'", "string"],
    ["1 if Param.N > 0 else fail('negative')", "int"],
  ])("%s : %s", (source, type) => {
    expect(typeOfResult(source, { types })).toBe(type);
  });

  it.each([
    ["Param.N + Param.S", /^type: '\+' does not accept \(int, string\)/],
    ["Param.S if Param.N else 'x'", /^type: a condition must be a bool, got int/],
    ["not Param.S", /^type: 'not' does not accept \(string\)/],
    ["Param.L[Param.S]", /^type: indexing does not accept/],
    ["len(Param.N)", /^type: len\(\) does not accept \(int\)/],
    ["Param.Missing", /^name: unknown name 'Param\.Missing'/],
    ["(1 / 0) if Param.N > 0 else (1 // 0)", /^zero-division: /],
  ])("%s is refused at validation", (source, error) => {
    expect(failure(source, { types })).toMatch(error);
  });

  it("a branch that always fails is tolerated when the other branch works", () => {
    expect(typeOfResult("Param.N if Param.N > 0 else fail('negative')", { types })).toBe("int");
  });
});

describe("operation counting (spec §1.3.10, conformance expr1.3.10)", () => {
  const operations = (source: string) => {
    const parsed = parseExpression(source);
    if (!parsed.ok) throw new Error(parsed.error.message);
    return evaluateWithMetrics(parsed.expr, { library: standardLibrary("template"), symbols: new Map(), pathFormat: "POSIX" }).operations;
  };

  it.each([
    ["'a' * 10000", 41],
    ["('a' * 10000).upper()", 82],
    ["len(('a' * 10000).upper())", 83],
    ["[i for i in range(10)]", 21],
    ["len([len(('a' * 10000).upper()) for i in range(100)])", 100 * 84 + 101 + 1],
  ])("%s costs %i operations", (source, expected) => {
    expect(operations(source)).toBe(expected);
  });
});

describe("limits", () => {
  it.each([
    ["[x for x in range_expr('1-100000')]", { operations: 1000 }, /^limit: the expression needs more than 1000 operations/],
    ["'x' * 1", { memoryBytes: 10 }, /^limit: /],
    ["-(-(-(-(-(-(-1))))))", { depth: 5 }, /^limit: the expression is nested deeper than 5 levels/],
    ["len(list(range_expr('1-20000000')))", {}, /^limit: /],
  ])("%s with %j ends in a limit error", (source, limits, error) => {
    expect(failure(source, { limits })).toMatch(error);
  });
});
