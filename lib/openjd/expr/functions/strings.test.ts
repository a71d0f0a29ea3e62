import { describe, expect, it } from "vitest";
import type { ExprValue } from "../values";
import { float, int, label, outcome, posixPath, rangeExpr, str, testContext } from "./function-test-support";

// Expected values from spec §2.2.4 / §2.1.2, conformance fixtures (expr2.1.2--string-ops,
// proposed/expr2.2.4--*) and, where the spec defers to Python's str, CPython 3.
const rows: Array<[string, ExprValue[], string]> = [
  ["upper", [str("hello")], 'string "HELLO"'],
  ["upper", [str("straße")], 'string "STRASSE"'],
  ["lower", [str("HeLLo")], 'string "hello"'],
  ["lower", [str("ΟΔΟΣ")], 'string "οδος"'],
  ["lower", [str("")], 'string ""'],
  ["capitalize", [str("hello WORLD")], 'string "Hello world"'],
  ["capitalize", [str("ǆemal")], 'string "ǅemal"'],
  ["capitalize", [str("ßa")], 'string "Ssa"'],
  ["capitalize", [str("ΑΣ")], 'string "Ας"'],
  ["capitalize", [str("")], 'string ""'],
  ["title", [str("hello world")], 'string "Hello World"'],
  ["title", [str("they're bill's")], `string "They'Re Bill'S"`],
  ["title", [str("1st place")], 'string "1St Place"'],
  ["title", [str("HELLO wORLD")], 'string "Hello World"'],
  ["title", [str("ǉubljana")], 'string "ǈubljana"'],
  ["upper", [int(1)], "type error"],
  ["upper", [posixPath("/a")], 'string "/A"'],

  ["strip", [str("  hi \n")], 'string "hi"'],
  ["strip", [str("\u3000\x1chi\x85")], 'string "hi"'],
  ["strip", [str("\ufeffhi")], 'string "\ufeffhi"'],
  ["lstrip", [str("  hi  ")], 'string "hi  "'],
  ["rstrip", [str("  hi  ")], 'string "  hi"'],
  ["strip", [str("xxhixy"), str("xy")], 'string "hi"'],
  ["lstrip", [str("www.example.com"), str("w.")], 'string "example.com"'],
  ["rstrip", [str("file.txt~~"), str("~")], 'string "file.txt"'],
  ["strip", [str("  hi  "), str("")], 'string "  hi  "'],
  ["strip", [str("😀hi😀"), str("😀")], 'string "hi"'],
  ["strip", [str("   ")], 'string ""'],

  ["removeprefix", [str("render_001"), str("render_")], 'string "001"'],
  ["removeprefix", [str("render_001"), str("x")], 'string "render_001"'],
  ["removesuffix", [str("backup.tar.gz"), str(".tar.gz")], 'string "backup"'],
  ["removesuffix", [str("abc"), str("")], 'string "abc"'],
  ["startswith", [str("/projects/a"), str("/projects")], "bool true"],
  ["startswith", [str("abc"), str("")], "bool true"],
  ["endswith", [str("a.exr"), str(".png")], "bool false"],
  ["startswith", [posixPath("/a/b"), str("/a")], "bool true"],

  ["isdigit", [str("0123")], "bool true"],
  ["isdigit", [str("12a")], "bool false"],
  ["isdigit", [str("")], "bool false"],
  ["isdigit", [str("٣")], "bool true"],
  ["isdigit", [str("३")], "bool true"],
  ["isdigit", [str("²")], "bool true"],
  ["isdigit", [str("½")], "bool false"],
  ["isdigit", [str("-1")], "bool false"],
  ["isalpha", [str("abcÉ")], "bool true"],
  ["isalpha", [str("ab1")], "bool false"],
  ["isalpha", [str("")], "bool false"],
  ["isalpha", [str("日本")], "bool true"],
  ["isalnum", [str("abc123")], "bool true"],
  ["isalnum", [str("½Ⅻ")], "bool true"],
  ["isalnum", [str("a_b")], "bool false"],
  ["isspace", [str(" \t\n")], "bool true"],
  ["isspace", [str("\x1c\x85\u3000")], "bool true"],
  ["isspace", [str("\ufeff")], "bool false"],
  ["isspace", [str("")], "bool false"],
  ["isupper", [str("ABC1")], "bool true"],
  ["isupper", [str("ABc")], "bool false"],
  ["isupper", [str("123")], "bool false"],
  ["isupper", [str("ǅ")], "bool false"],
  ["islower", [str("abc_1")], "bool true"],
  ["islower", [str("aBc")], "bool false"],
  ["islower", [str("ª")], "bool true"],
  ["isascii", [str("abc~\x7f")], "bool true"],
  ["isascii", [str("")], "bool true"],
  ["isascii", [str("é")], "bool false"],

  ["count", [str("banana"), str("an")], "int 2"],
  ["count", [str("aaaa"), str("aa")], "int 2"],
  ["count", [str("abc"), str("x")], "int 0"],
  ["count", [str("abc"), str("")], "value error"],
  ["find", [str("hello"), str("l")], "int 2"],
  ["find", [str("hello"), str("z")], "int -1"],
  ["find", [str("😀😀ab"), str("a")], "int 2"],
  ["rfind", [str("hello"), str("l")], "int 3"],
  ["rfind", [str("a😀a"), str("a")], "int 2"],
  ["find", [str("abc"), str("")], "value error"],
  ["index", [str("hello"), str("lo")], "int 3"],
  ["index", [str("hello"), str("z")], "value error"],
  ["rindex", [str("abcabc"), str("bc")], "int 4"],
  ["rindex", [str("abc"), str("")], "value error"],
  ["replace", [str("frame_###.exr"), str("###"), str("001")], 'string "frame_001.exr"'],
  ["replace", [str("a.b.c"), str("."), str("")], 'string "abc"'],
  ["replace", [str("aaa"), str("a"), str("$&")], 'string "$&$&$&"'],
  ["replace", [str("abc"), str("x"), str("y")], 'string "abc"'],
  ["replace", [str("abc"), str(""), str("-")], "value error"],

  ["ljust", [str("ab"), int(5)], 'string "ab   "'],
  ["rjust", [str("ab"), int(5)], 'string "   ab"'],
  ["ljust", [str("abcdef"), int(3)], 'string "abcdef"'],
  ["rjust", [str("ab"), int(-4)], 'string "ab"'],
  ["ljust", [str("é😀"), int(4)], 'string "é😀  "'],
  ["center", [str("hi"), int(7)], 'string "   hi  "'],
  ["center", [str("hi"), int(6)], 'string "  hi  "'],
  ["center", [str("abc"), int(6)], 'string " abc  "'],
  ["center", [str("abc"), int(8)], 'string "  abc   "'],
  ["center", [str("abc"), int(2)], 'string "abc"'],
  ["zfill", [int(42), int(5)], 'string "00042"'],
  ["zfill", [int(-1), int(3)], 'string "-01"'],
  ["zfill", [str("-10"), int(4)], 'string "-010"'],
  ["zfill", [str("+7"), int(3)], 'string "+07"'],
  ["zfill", [float(3.14, "3.14"), int(8)], 'string "00003.14"'],
  ["zfill", [float(-2.5), int(6)], 'string "-002.5"'],
  ["zfill", [str("abc"), int(2)], 'string "abc"'],
  ["zfill", [str(""), int(3)], 'string "000"'],
  ["zfill", [str("-"), int(3)], 'string "-00"'],

  ["__add__", [str("hello"), str(" world")], 'string "hello world"'],
  ["__add__", [str("frames "), rangeExpr("1-10:1")], 'string "frames 1-10"'],
  ["__add__", [rangeExpr("1,3,5"), str("!")], 'string "1-5:2!"'],
  ["__add__", [str("a"), int(1)], "type error"],
  ["__mul__", [str("ab"), int(3)], 'string "ababab"'],
  ["__mul__", [str("ab"), int(0)], 'string ""'],
  ["__mul__", [str("ab"), int(-2)], 'string ""'],
  ["__mul__", [str(""), int(10n ** 18n)], 'string ""'],
];

describe("string functions and operators", () => {
  for (const [name, args, expected] of rows) {
    it(label(name, args), () => expect(outcome(name, args)).toBe(expected));
  }

  it("never coerces a method receiver: path('/a').startswith('/a') is an error", () => {
    expect(outcome("startswith", [posixPath("/a"), str("/a")], { method: true })).toBe("type error");
    expect(outcome("zfill", [int(42), int(5)], { method: true })).toBe('string "00042"');
  });

  it("leaves charging the produced text to the evaluator (it charges every call's string result)", () => {
    const ctx = testContext();
    outcome("__mul__", [str("a"), int(10000)], { ctx });
    expect(ctx.budget.operations).toBe(0);
  });

  it("refuses oversized results before building them", () => {
    expect(outcome("__mul__", [str("ab"), int(10n ** 12n)])).toBe("limit error");
    expect(outcome("__mul__", [str("ab"), int(2n ** 63n - 1n)])).toBe("limit error");
    expect(outcome("ljust", [str("a"), int(10n ** 12n)])).toBe("limit error");
    expect(outcome("zfill", [int(1), int(2n ** 62n)])).toBe("limit error");
    expect(outcome("replace", [str("a".repeat(1000)), str("a"), str("b".repeat(100))], { ctx: testContext({ memoryBytes: 100_000 }) })).toBe("limit error");
  });
});
