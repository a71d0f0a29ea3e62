import { describe, expect, it } from "vitest";
import type { ExprValue } from "../values";
import { int, ints, label, list, outcome, posixPath, str, strs, testContext } from "./function-test-support";

// Expected values from spec §2.2.4 (examples and notes) and CPython's str.split/rsplit.
const rows: Array<[string, ExprValue[], string]> = [
  ["split", [str("a,b,c"), str(",")], 'list[string] ["a", "b", "c"]'],
  ["split", [str(""), str(",")], 'list[string] [""]'],
  ["split", [str("a,,b,"), str(",")], 'list[string] ["a", "", "b", ""]'],
  ["split", [str("a::b::c"), str("::")], 'list[string] ["a", "b", "c"]'],
  ["split", [str("abc"), str("")], "value error"],
  ["split", [str("  a  b\tc\n ")], 'list[string] ["a", "b", "c"]'],
  ["split", [str("a\x1cb\u3000c\x85d")], 'list[string] ["a", "b", "c", "d"]'],
  ["split", [str("")], "list[string] []"],
  ["split", [str("   ")], "list[string] []"],
  ["split", [str("a,b,c"), str(","), int(1)], 'list[string] ["a", "b,c"]'],
  ["split", [str("a,b,c"), str(","), int(0)], 'list[string] ["a,b,c"]'],
  ["split", [str("a,b,c"), str(","), int(-1)], 'list[string] ["a", "b", "c"]'],
  ["split", [str("a,b,c"), str(","), int(10)], 'list[string] ["a", "b", "c"]'],
  ["split", [str("a,b"), str(""), int(1)], "value error"],
  ["rsplit", [str("a,b,c"), str(",")], 'list[string] ["a", "b", "c"]'],
  ["rsplit", [str("  a  b ")], 'list[string] ["a", "b"]'],
  ["rsplit", [str("a,b,c"), str(","), int(1)], 'list[string] ["a,b", "c"]'],
  ["rsplit", [str("a,b,c"), str(","), int(0)], 'list[string] ["a,b,c"]'],
  ["rsplit", [str(",a,"), str(","), int(5)], 'list[string] ["", "a", ""]'],
  ["rsplit", [str("aaa"), str("aa"), int(1)], 'list[string] ["a", ""]'],
  ["split", [str("aaa"), str("aa"), int(1)], 'list[string] ["", "a"]'],
  ["rsplit", [str(""), str(","), int(1)], 'list[string] [""]'],
  ["rsplit", [str("abc"), str("")], "value error"],
  ["split", [int(1), str(",")], "type error"],

  ["join", [strs("a", "b", "c"), str(",")], 'string "a,b,c"'],
  ["join", [strs("a"), str(", ")], 'string "a"'],
  ["join", [list(), str(",")], 'string ""'],
  ["join", [strs("", ""), str("-")], 'string "-"'],
  ["join", [strs(".tar", ".gz"), str("")], 'string ".tar.gz"'],
  ["join", [list(posixPath("/a"), posixPath("/b")), str(":")], 'string "/a:/b"'],
  ["join", [ints(1, 2), str(",")], "type error"],
  ["join", [str(","), strs("a", "b")], "type error"],
];

describe("split, rsplit and join", () => {
  for (const [name, args, expected] of rows) {
    it(label(name, args), () => expect(outcome(name, args)).toBe(expected));
  }

  it('chains through UFCS: "a,b,c".split(",").join(";") (conformance expr1.3.3--ufcs)', () => {
    const ctx = testContext();
    const parts = outcome("split", [str("a,b,c"), str(",")], { method: true, ctx });
    expect(parts).toBe('list[string] ["a", "b", "c"]');
    expect(outcome("join", [strs("a", "b", "c"), str(";")], { method: true })).toBe('string "a;b;c"');
  });

  it("charges one operation per piece and checks memory first", () => {
    const ctx = testContext();
    outcome("split", [str("a,".repeat(99) + "a"), str(",")], { ctx });
    expect(ctx.budget.operations).toBe(100);
    expect(outcome("split", [str(",".repeat(10_000)), str(",")], { ctx: testContext({ memoryBytes: 100_000 }) })).toBe("limit error");
    expect(outcome("join", [strs("x".repeat(1000), "y".repeat(1000)), str(",")], { ctx: testContext({ memoryBytes: 1000 }) })).toBe("limit error");
  });
});
