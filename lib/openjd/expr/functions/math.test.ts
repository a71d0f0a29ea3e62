import { describe, expect, it } from "vitest";
import type { ExprValue } from "../values";
import { call, float, floats, int, ints, label, list, outcome, rangeExpr, str, testContext } from "./function-test-support";

const MAX = 2n ** 63n - 1n;
const MIN = -(2n ** 63n);

// Expected values from spec §2.2.2 and, where it defers to Python, CPython's results.
const rows: Array<[string, ExprValue[], string]> = [
  ["abs", [int(-5)], "int 5"],
  ["abs", [int(5)], "int 5"],
  ["abs", [float(-2.5)], "float 2.5"],
  ["abs", [float(3.5, "3.50")], "float 3.50"],
  ["abs", [int(MIN)], "overflow error"],
  ["abs", [str("1")], "type error"],

  ["min", [int(3), int(1)], "int 1"],
  ["max", [int(3), int(1)], "int 3"],
  ["min", [int(3), int(1), int(2)], "int 1"],
  ["max", [int(3), int(7), int(2)], "int 7"],
  ["min", [float(1.5), float(0.5)], "float 0.5"],
  ["min", [int(1), float(2.5)], "float 1.0"],
  ["max", [int(1), float(2.5)], "float 2.5"],
  ["min", [ints(4, 2, 8)], "int 2"],
  ["max", [ints(4, 2, 8)], "int 8"],
  ["max", [list(float(1.25, "1.250"), float(0.5))], "float 1.250"],
  ["min", [list()], "value error"],
  ["max", [list()], "value error"],
  ["min", [rangeExpr("3-9:2")], "int 3"],
  ["max", [rangeExpr("3-9:2")], "int 9"],
  ["max", [rangeExpr("1-5,100")], "int 100"],
  ["min", [str("a"), str("b")], "type error"],
  ["min", [int(1)], "type error"],

  ["sum", [ints(10, 20, 30)], "int 60"],
  ["sum", [list()], "int 0"],
  ["sum", [floats(0.1, 0.2)], "float 0.30000000000000004"],
  ["sum", [list(int(1), float(2.5))], "float 3.5"],
  ["sum", [rangeExpr("1-10")], "int 55"],
  ["sum", [rangeExpr("1-9:2,100")], "int 125"],
  ["sum", [list(int(MAX), int(1))], "overflow error"],
  ["sum", [list(int(MAX), int(1), int(-1))], "overflow error"],
  ["sum", [list(int(MAX), int(-1), int(1))], `int ${MAX}`],
  ["sum", [rangeExpr(`${MAX - 1n}-${MAX}`)], "overflow error"],

  ["floor", [float(2.7)], "int 2"],
  ["floor", [float(-2.5)], "int -3"],
  ["floor", [int(-4)], "int -4"],
  ["ceil", [float(2.1)], "int 3"],
  ["ceil", [float(-2.5)], "int -2"],
  ["ceil", [int(7)], "int 7"],
  ["floor", [float(1e300)], "overflow error"],

  // round(x): ties to even (spec examples round(0.5) = 0, round(1.5) = 2, round(2.5) = 2).
  ["round", [float(0.5)], "int 0"],
  ["round", [float(1.5)], "int 2"],
  ["round", [float(2.5)], "int 2"],
  ["round", [float(-2.5)], "int -2"],
  ["round", [float(-0.5)], "int 0"],
  ["round", [float(2.4999)], "int 2"],
  ["round", [float(-3.7)], "int -4"],
  ["round", [int(7)], "int 7"],
  ["round", [int(MAX)], `int ${MAX}`],
  ["round", [float(1e19)], "overflow error"],
  // round(x, n > 0) keeps n digits in its text (spec: round(3.5, 2) prints "3.50").
  ["round", [float(3.5), int(2)], "float 3.50"],
  ["round", [float(3.14159), int(2)], "float 3.14"],
  ["round", [float(2.675), int(2)], "float 2.67"],
  ["round", [float(0.125), int(2)], "float 0.12"],
  ["round", [float(0.375), int(2)], "float 0.38"],
  ["round", [float(-1.005), int(1)], "float -1.0"],
  ["round", [float(-0.001), int(2)], "float 0.00"],
  ["round", [float(1e-7), int(3)], "float 0.000"],
  ["round", [float(0.1), int(20)], "float 0.10000000000000000555"],
  // round(x, n ≤ 0) is an int (spec: round(1234.5, -1) = 1230).
  ["round", [float(1234.5), int(-1)], "int 1230"],
  ["round", [float(1250.0), int(-2)], "int 1200"],
  ["round", [float(1350.0), int(-2)], "int 1400"],
  ["round", [float(2.5), int(0)], "int 2"],
  ["round", [float(1e300), int(-1000)], "int 0"],
  ["round", [float(1e300), int(-2)], "overflow error"],
  ["round", [int(1235), int(-1)], "int 1240"],
  ["round", [int(1225), int(-1)], "int 1220"],
  ["round", [int(-1250), int(-2)], "int -1200"],
  ["round", [int(1234), int(2)], "int 1234"],
  ["round", [int(1234), int(-30)], "int 0"],
  ["round", [str("1.5")], "type error"],
];

describe("math functions", () => {
  for (const [name, args, expected] of rows) {
    it(label(name, args), () => expect(outcome(name, args)).toBe(expected));
  }

  it("keeps the value of round(x, n) numerically exact", () => {
    const rounded = call("round", [float(3.14159), int(3)]);
    expect(rounded).toMatchObject({ kind: "float", value: 3.142, text: "3.142" });
  });

  it("sums a billion-value range without iterating it", () => {
    const ctx = testContext({ operations: 10 });
    expect(outcome("sum", [rangeExpr("1-1000000000")], { ctx })).toBe("int 500000000500000000");
  });

  it("refuses a round() text too large for the memory budget", () => {
    expect(outcome("round", [float(1.5), int(10n ** 12n)])).toBe("limit error");
  });
});
