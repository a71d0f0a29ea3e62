import { describe, expect, it } from "vitest";
import { compressRangeValues, IntRangeExpr, RangeExprError } from "./range-expr";

const list = (text: string): string[] => [...IntRangeExpr.parse(text).values()].map(String);
const ints = (...values: number[]): string[] => values.map(String);
const span = (from: number, to: number): string[] => ints(...Array.from({ length: to - from + 1 }, (_, i) => from + i));

describe("IntRangeExpr.parse values", () => {
  it.each([
    // spec and reference-behaviour §2.6 examples
    ["1-10:2", ints(1, 3, 5, 7, 9), "1-9:2"],
    ["1-10:3", ints(1, 4, 7, 10), "1-10:3"],
    ["10-1:-1", span(1, 10), "1-10"],
    ["10-1:-3", ints(1, 4, 7, 10), "1-10:3"],
    ["1 - 5", span(1, 5), "1-5"],
    ["1\t-\t3", span(1, 3), "1-3"],
    ["01-03", span(1, 3), "1-3"],
    ["-5--1", span(-5, -1), "-5--1"],
    ["-5 - -1", span(-5, -1), "-5--1"],
    ["-1 - 1", span(-1, 1), "-1-1"],
    ["3,1,2", ints(1, 2, 3), "1-3"],
    ["5,1-3", ints(1, 2, 3, 5), "1-3,5"],
    ["1-3,4-6", span(1, 6), "1-6"],
    ["1-3 , 7", ints(1, 2, 3, 7), "1-3,7"],
    ["1-1", ints(1), "1"],
    ["3-3:-1", ints(3), "3"],
    ["1-2:5", ints(1), "1"],
    ["0", ints(0), "0"],
    [" 1 ", ints(1), "1"],
    ["1-5:2", ints(1, 3, 5), "1-5:2"],
    ["1-10:4", ints(1, 5, 9), "1-9:4"],
    ["1-100:10", ints(1, 11, 21, 31, 41, 51, 61, 71, 81, 91), "1-91:10"],
    ["10-15:2,1-5", ints(1, 2, 3, 4, 5, 10, 12, 14), "1-5,10-14:2"],
    ["7,8", ints(7, 8), "7,8"],
    ["1-3:2", ints(1, 3), "1,3"],
    ["1-2,3,4-5", span(1, 5), "1-5"],
    ["1,3,5,6,7", ints(1, 3, 5, 6, 7), "1-5:2,6,7"],
    ["1-5:2,7-11:2", ints(1, 3, 5, 7, 9, 11), "1-11:2"],
    ["1-4,6-12:2", ints(1, 2, 3, 4, 6, 8, 10, 12), "1-4,6-12:2"],
    ["- 2 - 2", span(-2, 2), "-2-2"],
  ])("%j → values and canonical %s", (text, values, canonical) => {
    const expr = IntRangeExpr.parse(text);
    expect(list(text)).toEqual(values);
    expect(expr.size).toBe(BigInt(values.length));
    expect(expr.toString()).toBe(canonical);
    // The canonical form is itself a valid expression for the same values.
    expect(list(canonical)).toEqual(values);
  });

  it("stores ranges ascending with the end on the last value produced", () => {
    expect(IntRangeExpr.parse("10-1:-3").ranges).toEqual([{ start: 1n, end: 10n, step: 3n }]);
    expect(IntRangeExpr.parse("1-100:10").ranges).toEqual([{ start: 1n, end: 91n, step: 10n }]);
    expect(IntRangeExpr.parse("20-2:-7,1").ranges).toEqual([
      { start: 1n, end: 1n, step: 1n },
      { start: 6n, end: 20n, step: 7n },
    ]);
  });
});

describe("IntRangeExpr.parse errors", () => {
  it.each([
    ["", 0, /empty range expression/],
    [" \t ", 0, /empty range expression/],
    ["a", 0, /^unexpected 'a' at offset 0/],
    ["1a", 1, /^unexpected 'a' at offset 1/],
    ["1,a", 2, /^unexpected 'a' at offset 2/],
    ["+1", 0, /unexpected '\+' at offset 0/],
    ["1-+3", 2, /unexpected '\+' at offset 2/],
    ["1.5", 1, /unexpected '\.' at offset 1.*whole numbers/],
    ["0x10", 1, /unexpected 'x' at offset 1/],
    ["1,,2", 2, /empty item at offset 2/],
    ["1,", 2, /empty item at offset 2/],
    [",1", 0, /empty item at offset 0/],
    ["1 2", 2, /unexpected '2' at offset 2/],
    ["1-3:2:1", 5, /unexpected ':' at offset 5/],
    ["1-", 2, /expected the end of the range at offset 2 but the expression ended/],
    ["1-3:", 4, /expected a step at offset 4 but the expression ended/],
    ["1-3:0", 4, /step 0 at offset 4/],
    ["1-3:-1", 0, /range 1-3:-1 at offset 0 is ascending but has a negative step/],
    ["9-1", 0, /range 9-1 at offset 0 is descending; a descending range needs a negative step, e.g. 10-1:-1/],
    ["1 - -1", 0, /descending range needs a negative step/],
    ["1, 10-1:2", 3, /range 10-1:2 at offset 3 is descending/],
    ["1-3,2-5", 4, /^ranges 1-3 and 2-5 overlap \(at offsets 0 and 4\)/],
    ["2-5,1-3", 4, /^ranges 2-5 and 1-3 overlap/],
    ["1-10:4,10-15", 7, /ranges 1-10:4 and 10-15 overlap/],
    ["10-1:-4,10", 8, /ranges 10-1:-4 and 10 overlap/],
    ["1,1", 2, /value 1 is listed twice \(at offsets 0 and 2\)/],
    ["1-10:2,4", 7, /ranges 1-10:2 and 4 overlap/],
    ["1\n", 1, /unexpected "\\n" at offset 1/],
    ["9223372036854775808", 0, /9223372036854775808 at offset 0 is outside the 64-bit integer range/],
    ["-9223372036854775809", 0, /outside the 64-bit integer range/],
    ["1-9223372036854775808", 2, /outside the 64-bit integer range/],
  ])("%j fails at offset %i", (text, offset, message) => {
    const result = IntRangeExpr.tryParse(text);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.offset).toBe(offset);
    expect(result.message).toMatch(message);
  });

  it("throws a RangeExprError carrying the offset", () => {
    let caught: unknown;
    try {
      IntRangeExpr.parse("1-3,2-5");
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(RangeExprError);
    expect((caught as RangeExprError).offset).toBe(4);
  });
});

describe("int64 boundaries", () => {
  it.each([
    ["9223372036854775807", 9223372036854775807n],
    ["-9223372036854775808", -9223372036854775808n],
  ])("%s is accepted", (text, value) => {
    const expr = IntRangeExpr.parse(text);
    expect(expr.at(0)).toBe(value);
    expect(expr.toString()).toBe(text);
  });

  it("spans the whole int64 range without materializing", () => {
    const expr = IntRangeExpr.parse("-9223372036854775808-9223372036854775807");
    expect(expr.size).toBe(1n << 64n);
    expect(expr.at((1n << 64n) - 1n)).toBe(9223372036854775807n);
    expect(expr.toString()).toBe("-9223372036854775808-9223372036854775807");
  });
});

describe("huge expressions", () => {
  it("computes size, access and text arithmetically", () => {
    const started = performance.now();
    const expr = IntRangeExpr.parse("1-9999999999");
    expect(expr.size).toBe(9999999999n);
    expect(expr.at(9999999998)).toBe(9999999999n);
    expect(expr.indexOf(5000000000n)).toBe(4999999999n);
    expect(expr.toString()).toBe("1-9999999999");
    expect(IntRangeExpr.parse("1-9999999999,10000000000-20000000000").toString()).toBe("1-20000000000");
    expect(IntRangeExpr.parse("0-9999999998:2,10000000001-20000000001:2").toString()).toBe("0-9999999998:2,10000000001-20000000001:2");
    expect(performance.now() - started).toBeLessThan(100);
  });

  it("iterates lazily", () => {
    const iterator = IntRangeExpr.parse("1-9999999999").values();
    expect([iterator.next().value, iterator.next().value]).toEqual([1n, 2n]);
  });
});

describe("random access", () => {
  it.each(["1", "5,1-3", "10-15:2,1-5", "-20--1:3,0,7-100:9", "1-4,6-12:2,100"])("at() and indexOf() agree with values() for %s", (text) => {
    const expr = IntRangeExpr.parse(text);
    const values = [...expr.values()];
    values.forEach((value, i) => {
      expect(expr.at(i)).toBe(value);
      expect(expr.indexOf(value)).toBe(BigInt(i));
    });
    expect(() => expr.at(values.length)).toThrow(RangeError);
    expect(() => expr.at(-1)).toThrow(RangeError);
    expect(() => expr.at(0.5)).toThrow(RangeError);
  });

  it.each([
    ["1-10:3", 2n],
    ["1-10:3", 11n],
    ["5,1-3", 4n],
    ["5,1-3", 0n],
  ])("indexOf of a missing value in %s (%s) is -1", (text, value) => {
    expect(IntRangeExpr.parse(text).indexOf(value)).toBe(-1n);
  });
});

describe("compressRangeValues and fromValues", () => {
  it.each([
    [[], ""],
    [[7], "7"],
    [[7, 8], "7,8"],
    [[7, 8, 9], "7-9"],
    [[1, 3, 5], "1-5:2"],
    [[1, 2, 3, 5, 7, 8, 9], "1-3,5,7-9"],
    [[1, 2, 4, 6], "1,2-6:2"],
    [[1, 2, 4, 8], "1,2,4,8"],
    [[-3, -2, -1, 0], "-3-0"],
    [[1, 2, 3, 4, 6, 8, 10, 12], "1-4,6-12:2"],
    [[1, 1, 2, 3], "1-3"],
  ])("%j → %s", (values, text) => {
    const bigints = values.map(BigInt);
    expect(compressRangeValues(bigints)).toBe(text);
    expect(IntRangeExpr.fromValues([...bigints].reverse()).toString()).toBe(text);
  });

  it("rejects descending input", () => {
    expect(() => compressRangeValues([2n, 1n])).toThrow(RangeError);
  });

  it("fromValues sorts, deduplicates and compresses into ranges", () => {
    const expr = IntRangeExpr.fromValues([9n, 1n, 5n, 3n, 3n, 7n, 20n]);
    expect(expr.ranges).toEqual([
      { start: 1n, end: 9n, step: 2n },
      { start: 20n, end: 20n, step: 1n },
    ]);
    expect(expr.size).toBe(6n);
  });

  it("toString over ranges matches compressing the values", () => {
    for (const text of ["1-3,4-6,8", "1,3,5-9", "1-5:2,6-10", "1,2,3-9:3,10", "2,4,6-7", "1-7:3,9-20:2"]) {
      const expr = IntRangeExpr.parse(text);
      expect(expr.toString(), text).toBe(compressRangeValues([...expr.values()]));
    }
  });
});
