import { describe, expect, it } from "vitest";
import type { ExprValue } from "../values";
import { bool, float, floats, int, ints, label, list, outcome, posixPath, rangeExpr, str, strs, testContext } from "./function-test-support";

const bools = (...vs: boolean[]) => list(...vs.map(bool));

// Expected values from spec §2.2.3 / §2.1.3 examples and conformance expr2.1.3--list-ops.
const rows: Array<[string, ExprValue[], string]> = [
  ["range", [int(5)], "list[int] [0, 1, 2, 3, 4]"],
  ["range", [int(1), int(5)], "list[int] [1, 2, 3, 4]"],
  ["range", [int(0), int(10), int(2)], "list[int] [0, 2, 4, 6, 8]"],
  ["range", [int(5), int(0), int(-1)], "list[int] [5, 4, 3, 2, 1]"],
  ["range", [int(0), int(10), int(3)], "list[int] [0, 3, 6, 9]"],
  ["range", [int(0)], "list[int] []"],
  ["range", [int(-3)], "list[int] []"],
  ["range", [int(5), int(1)], "list[int] []"],
  ["range", [int(1), int(5), int(-1)], "list[int] []"],
  ["range", [int(-2), int(2)], "list[int] [-2, -1, 0, 1]"],
  ["range", [int(0), int(5), int(0)], "value error"],
  ["range", [float(5)], "type error"],

  ["flatten", [list(ints(1, 2), ints(3))], "list[int] [1, 2, 3]"],
  ["flatten", [list(ints(1, 2), list())], "list[int] [1, 2]"],
  ["flatten", [list(ints(1), floats(2.5))], "list[float] [1.0, 2.5]"],
  ["flatten", [list(strs("-e", "A=1"), strs("-e", "B=2"))], 'list[string] ["-e", "A=1", "-e", "B=2"]'],
  ["flatten", [ints(1, 2)], "list[int] [1, 2]"],
  ["flatten", [list()], "list[nulltype] []"],
  ["flatten", [list(list(), list())], "list[nulltype] []"],

  ["sorted", [ints(3, 1, 2)], "list[int] [1, 2, 3]"],
  ["sorted", [strs("b", "a", "c")], 'list[string] ["a", "b", "c"]'],
  ["sorted", [ints(10, 2)], "list[int] [2, 10]"],
  ["sorted", [list(int(2), float(1.5), int(1))], "list[float] [1.0, 1.5, 2.0]"],
  ["sorted", [list(float(2.0, "2.00"), float(1.0, "1.0"))], "list[float] [1.0, 2.00]"],
  ["sorted", [bools(true, false)], "list[bool] [false, true]"],
  ["sorted", [list(ints(2), ints(1, 5), ints(1))], "list[list[int]] [[1], [1, 5], [2]]"],
  ["sorted", [strs("é", "z", "a")], 'list[string] ["a", "z", "é"]'],
  ["sorted", [list()], "list[nulltype] []"],
  ["sorted", [rangeExpr("1-3")], "list[int] [1, 2, 3]"],
  ["sorted", [int(3)], "type error"],

  ["reversed", [ints(1, 2, 3)], "list[int] [3, 2, 1]"],
  ["reversed", [strs("a")], 'list[string] ["a"]'],
  ["reversed", [list()], "list[nulltype] []"],

  ["unique", [ints(3, 1, 3, 2, 1)], "list[int] [3, 1, 2]"],
  ["unique", [strs("b", "a", "b")], 'list[string] ["b", "a"]'],
  ["unique", [list(float(1, "1.0"), float(1, "1.00"), float(2))], "list[float] [1.0, 2.0]"],
  ["unique", [list(ints(1, 2), ints(1, 2), ints(2, 1))], "list[list[int]] [[1, 2], [2, 1]]"],
  ["unique", [list(posixPath("/a"), str("/a"))], 'list[string] ["/a"]'],
  ["unique", [list()], "list[nulltype] []"],
  ["unique", [list(rangeExpr("1-3"), rangeExpr("1,2,3"), rangeExpr("4"))], "list[range_expr] [1-3, 4]"],

  ["any", [bools(false, true)], "bool true"],
  ["any", [bools(false, false)], "bool false"],
  ["any", [list()], "bool false"],
  ["all", [bools(true, true)], "bool true"],
  ["all", [bools(true, false)], "bool false"],
  ["all", [list()], "bool true"],
  ["any", [ints(1)], "type error"],

  ["__add__", [ints(1, 2), ints(3, 4)], "list[int] [1, 2, 3, 4]"],
  ["__add__", [ints(1, 2), floats(3, 4)], "list[float] [1.0, 2.0, 3.0, 4.0]"],
  ["__add__", [list(), ints(1, 2)], "list[int] [1, 2]"],
  ["__add__", [ints(1, 2), list()], "list[int] [1, 2]"],
  ["__add__", [list(), list()], "list[nulltype] []"],
  ["__add__", [list(posixPath("/a")), strs("b")], 'list[string] ["/a", "b"]'],
  ["__add__", [list(ints(1)), list(floats(2))], "list[list[float]] [[1.0], [2.0]]"],
  ["__add__", [rangeExpr("1-3"), rangeExpr("7-9")], "list[int] [1, 2, 3, 7, 8, 9]"],
  ["__add__", [rangeExpr("1-2"), ints(5)], "list[int] [1, 2, 5]"],
  ["__add__", [ints(5), rangeExpr("1-2")], "list[int] [5, 1, 2]"],
  ["__add__", [rangeExpr("1-2"), floats(0.5)], "list[float] [1.0, 2.0, 0.5]"],
  ["__add__", [rangeExpr("1-2"), list()], "list[int] [1, 2]"],
  ["__add__", [strs("a"), ints(1)], "type error"],
  ["__add__", [rangeExpr("1-2"), strs("a")], "type error"],
  ["__add__", [ints(1), int(2)], "type error"],

  ["__mul__", [ints(1, 2), int(2)], "list[int] [1, 2, 1, 2]"],
  ["__mul__", [ints(1, 2), int(0)], "list[int] []"],
  ["__mul__", [ints(1, 2), int(-3)], "list[int] []"],
  ["__mul__", [strs("a"), int(3)], 'list[string] ["a", "a", "a"]'],
  ["__mul__", [list(), int(5)], "list[nulltype] []"],
  ["__mul__", [rangeExpr("1-2"), int(2)], "list[int] [1, 2, 1, 2]"],
  ["__mul__", [ints(1), float(2)], "type error"],
];

describe("list functions and operators", () => {
  for (const [name, args, expected] of rows) {
    it(label(name, args), () => expect(outcome(name, args)).toBe(expected));
  }

  it("charges range() one operation per value (spec §1.3.10)", () => {
    const ctx = testContext();
    outcome("range", [int(117600)], { ctx });
    expect(ctx.budget.operations).toBe(117600);
  });

  it("refuses oversized results before building them", () => {
    expect(outcome("range", [int(10n ** 15n)])).toBe("limit error");
    expect(outcome("range", [int(-(2n ** 63n)), int(2n ** 63n - 1n)])).toBe("limit error");
    expect(outcome("__mul__", [ints(1, 2, 3), int(10n ** 12n)])).toBe("limit error");
    expect(outcome("__mul__", [strs("x".repeat(1000)), int(100_000)], { ctx: testContext({ operations: 1e12 }) })).toBe("limit error");
    expect(outcome("__add__", [rangeExpr("1-9999999999"), ints(1)])).toBe("limit error");
    expect(outcome("__mul__", [rangeExpr("1-9999999999"), int(2)])).toBe("limit error");
    expect(outcome("range", [int(1000)], { ctx: testContext({ memoryBytes: 1000 }) })).toBe("limit error");
  });

  it("sorts stably", () => {
    const sorted = outcome("sorted", [list(float(1, "1.0"), float(0.5), float(1, "1.00"), float(1, "1.000"))]);
    expect(sorted).toBe("list[float] [0.5, 1.0, 1.00, 1.000]");
  });
});
