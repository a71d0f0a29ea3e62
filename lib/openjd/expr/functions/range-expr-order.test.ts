/**
 * `range_expr(string)` and `list(range_expr)` keep the spec's set semantics: the values come out
 * ascending whatever order or direction they were written in. Expression Language §2.1.8 says a
 * negative-step slice of a range_expr is a list[int] "because `range_expr` cannot represent
 * descending sequences", and `<IntRangeExpr>` (Template Schemas §3.4.1.1.1, spec digest §11) lists
 * its values in increasing order regardless of element order. openjd-rs specs/expr/range-expr.md
 * agrees: `"10-1:-1"` is normalised to ascending form and its direction is not retained. A
 * descending sequence is written `range_expr(...)[::-1]` or `range(5, 0, -1)`.
 */
import { describe, expect, it } from "vitest";
import { failure, text } from "../expr-test-support";

describe("range_expr(string): values ascend whatever the written order", () => {
  it.each([
    ["1-5", "[1, 2, 3, 4, 5]", "1-5"],
    ["5-1:-1", "[1, 2, 3, 4, 5]", "1-5"],
    ["10-1:-3", "[1, 4, 7, 10]", "1-10:3"],
    ["10-1:-1", "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]", "1-10"],
    ["-1--5:-2", "[-5, -3, -1]", "-5--1:2"],
    ["1-3,10,5", "[1, 2, 3, 5, 10]", "1-3,5,10"],
    ["10-15:2,1-5", "[1, 2, 3, 4, 5, 10, 12, 14]", "1-5,10-14:2"],
    ["20-18:-1,1-5:2,10", "[1, 3, 5, 10, 18, 19, 20]", "1-5:2,10,18-20"],
    ["3-3:-1", "[3]", "3"],
  ])("range_expr('%s') lists %s and prints %s", (written, values, canonical) => {
    expect(text(`list(range_expr('${written}'))`)).toBe(values);
    expect(text(`range_expr('${written}')`)).toBe(canonical);
  });

  it.each([
    ["range_expr('5-1:-1')[0]", "1"],
    ["range_expr('5-1:-1')[-1]", "5"],
    ["range_expr('5-1:-1') == [1, 2, 3, 4, 5]", "true"],
    ["range_expr('5-1:-1') == range_expr('1-5')", "true"],
    ["range_expr('5-1:-1')[::-1]", "[5, 4, 3, 2, 1]"],
    ["range(5, 0, -1)", "[5, 4, 3, 2, 1]"],
  ])("%s = %s", (source, expected) => {
    expect(text(source)).toBe(expected);
  });

  it.each([
    ["5-1", /^value: '5-1' is not a range expression: range 5-1 at offset 0 is descending; a descending range needs a negative step, e.g\. 10-1:-1$/],
    ["1-5:-1", /^value: '1-5:-1' is not a range expression: range 1-5:-1 at offset 0 is ascending but has a negative step/],
    ["1,5-1:2", /^value: '1,5-1:2' is not a range expression: range 5-1:2 at offset 2 is descending/],
    ["5-1:0", /^value: '5-1:0' is not a range expression: step 0 at offset 4; a step must not be zero$/],
    ["1-3,4-2:-1", /^value: '1-3,4-2:-1' is not a range expression: ranges 1-3 and 4-2:-1 overlap \(at offsets 0 and 4\)$/],
    ["5-1:-1,3", /^value: '5-1:-1,3' is not a range expression: ranges 5-1:-1 and 3 overlap \(at offsets 0 and 7\)$/],
    ["1,,2", /^value: '1,,2' is not a range expression: empty item at offset 2/],
    ["5-1:-", /^value: '5-1:-' is not a range expression: expected a step at offset 5 but the expression ended$/],
  ])("range_expr('%s') fails with a located message", (written, error) => {
    expect(failure(`range_expr('${written}')`)).toMatch(error);
  });
});
