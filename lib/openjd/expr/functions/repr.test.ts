import { describe, expect, it } from "vitest";
import type { ExprValue } from "../values";
import { bool, float, floats, int, ints, label, list, outcome, posixPath, rangeExpr, str, strs, testContext, textOf } from "./function-test-support";

const NULL: ExprValue = { kind: "null" };

// Expected text from spec §2.2.6 examples, the conformance fixtures, and — where the spec says
// "follows Python" — CPython's repr(), json.dumps() and shlex.quote()/shlex.join().
const rows: Array<[string, ExprValue, string]> = [
  ["repr_py", str("hello\nworld"), "'hello\\nworld'"],
  ["repr_py", str("a\nb"), "'a\\nb'"],
  ["repr_py", str("it's"), `"it's"`],
  ["repr_py", str('say "hi"'), `'say "hi"'`],
  ["repr_py", str(`both ' and "`), `'both \\' and "'`],
  ["repr_py", str("tab\there\r"), "'tab\\there\\r'"],
  ["repr_py", str("back\\slash"), "'back\\\\slash'"],
  ["repr_py", str("\x00\x1f\x7f"), "'\\x00\\x1f\\x7f'"],
  ["repr_py", str("\x85\xa0\xad"), "'\\x85\\xa0\\xad'"],
  ["repr_py", str("é日本😀"), "'é日本😀'"],
  ["repr_py", str("\u2028\ufeff"), "'\\u2028\\ufeff'"],
  ["repr_py", str("\u{e0001}"), "'\\U000e0001'"],
  ["repr_py", str(""), "''"],
  ["repr_py", posixPath("/tmp/it's"), `"/tmp/it's"`],
  ["repr_py", NULL, "None"],
  ["repr_py", bool(true), "True"],
  ["repr_py", bool(false), "False"],
  ["repr_py", int(-42), "-42"],
  ["repr_py", float(3.5, "3.50"), "3.50"],
  ["repr_py", float(1e16), "1e+16"],
  ["repr_py", rangeExpr("1-10"), "'1-10'"],
  ["repr_py", strs("python", "-c", "print('x')"), `['python', '-c', "print('x')"]`],
  ["repr_py", list(strs("a", "b"), strs("c")), "[['a', 'b'], ['c']]"],
  ["repr_py", list(bool(true), bool(false)), "[True, False]"],
  ["repr_py", floats(1.5, 2), "[1.5, 2.0]"],
  ["repr_py", list(), "[]"],

  ["repr_json", ints(1, 2, 3), "[1, 2, 3]"],
  ["repr_json", NULL, "null"],
  ["repr_json", bool(true), "true"],
  ["repr_json", float(2.5, "2.50"), "2.50"],
  ["repr_json", list(floats(1.5), floats(2)), "[[1.5], [2.0]]"],
  ["repr_json", str("hello\nworld"), '"hello\\nworld"'],
  ["repr_json", str('say "hi"'), '"say \\"hi\\""'],
  ["repr_json", str("back\\slash\t"), '"back\\\\slash\\t"'],
  ["repr_json", str("\x00\x1f\x7f\b\f"), '"\\u0000\\u001f\\u007f\\b\\f"'],
  ["repr_json", str("é日本😀"), '"\\u00e9\\u65e5\\u672c\\ud83d\\ude00"'],
  ["repr_json", posixPath("/a b/c"), '"/a b/c"'],
  ["repr_json", rangeExpr("1-10"), '"1-10"'],
  ["repr_json", list(), "[]"],

  ["repr_sh", str("hello world"), "'hello world'"],
  ["repr_sh", str("it's"), `'it'"'"'s'`],
  ["repr_sh", str("a@b%c+d=e:f,g./h-i_j"), "a@b%c+d=e:f,g./h-i_j"],
  ["repr_sh", str("x*"), "'x*'"],
  ["repr_sh", str("$HOME"), "'$HOME'"],
  ["repr_sh", str("é"), "'é'"],
  ["repr_sh", str(""), "''"],
  ["repr_sh", posixPath("/render/out file.exr"), "'/render/out file.exr'"],
  ["repr_sh", strs("echo", "hello world"), "echo 'hello world'"],
  ["repr_sh", strs("echo", "hello world", "it's", "", "x*"), `echo 'hello world' 'it'"'"'s' '' 'x*'`],
  ["repr_sh", list(posixPath("/a"), posixPath("/b c")), "/a '/b c'"],
  ["repr_sh", list(), ""],

  ["repr_cmd", str("a & b"), '"a & b"'],
  ["repr_cmd", str("a ^ b"), '"a ^^ b"'],
  ["repr_cmd", str('say "hi"'), '"say ^"hi^""'],
  ["repr_cmd", str("100%"), '"100%%"'],
  ["repr_cmd", str("wow!"), '"wow!"'],
  ["repr_cmd", str("(paren)"), '"(paren)"'],
  ["repr_cmd", str("less<more>"), '"less<more>"'],
  ["repr_cmd", str("a|b"), '"a|b"'],
  ["repr_cmd", str("has space"), '"has space"'],
  ["repr_cmd", str("tab\there"), '"tab\there"'],
  ["repr_cmd", str("plain"), "plain"],
  ["repr_cmd", str("..\\..\\etc"), "..\\..\\etc"],
  ["repr_cmd", str("--rm"), "--rm"],
  ["repr_cmd", str(""), '""'],
  ["repr_cmd", posixPath("C:/out dir"), '"C:/out dir"'],
  ["repr_cmd", strs("render", "-o", "out file.exr"), 'render -o "out file.exr"'],
  ["repr_cmd", list(), ""],

  ["repr_pwsh", str("a"), "'a'"],
  ["repr_pwsh", str("it's"), "'it''s'"],
  ["repr_pwsh", str("it\u2019s"), "'it\u2019\u2019s'"],
  ["repr_pwsh", str('$env:PATH `n "x"'), "'$env:PATH `n \"x\"'"],
  ["repr_pwsh", str("line\nbreak"), "'line\nbreak'"],
  ["repr_pwsh", posixPath("/a/b c"), "'/a/b c'"],
  ["repr_pwsh", int(-3), "-3"],
  ["repr_pwsh", float(2.5, "2.50"), "2.50"],
  ["repr_pwsh", bool(true), "$true"],
  ["repr_pwsh", bool(false), "$false"],
  ["repr_pwsh", NULL, "$null"],
  ["repr_pwsh", rangeExpr("1-10"), "'1-10'"],
  ["repr_pwsh", strs("a", "b"), "@('a', 'b')"],
  ["repr_pwsh", ints(1, 2), "@(1, 2)"],
  ["repr_pwsh", list(ints(1, 2), ints(3)), "@(@(1, 2), @(3))"],
  ["repr_pwsh", list(ints(1, 2)), "@(,@(1, 2))"],
  ["repr_pwsh", list(), "@()"],
];

describe("repr functions", () => {
  for (const [name, value, expected] of rows) {
    it(label(name, [value]), () => expect(textOf(name, [value])).toBe(expected));
  }

  it.each([
    ["repr_sh", int(1)],
    ["repr_sh", list(strs("a"))],
    ["repr_sh", ints(1)],
    ["repr_cmd", list(strs("a"))],
    ["repr_cmd", bool(true)],
  ])("rejects %s of an unsupported type", (name, value) => expect(outcome(name, [value])).toBe("type error"));

  it("refuses a line break in repr_cmd, which cmd.exe cannot carry", () => {
    expect(outcome("repr_cmd", [str("a\nb")])).toBe("value error");
    expect(outcome("repr_cmd", [strs("ok", "a\r\nb")])).toBe("value error");
  });

  it("works as a method on a path receiver", () => {
    expect(outcome("repr_sh", [posixPath("/a b")], { method: true })).toBe(`string "'/a b'"`);
    expect(outcome("repr_cmd", [posixPath("/a b")], { method: true })).toBe('string "\\"/a b\\""');
  });

  it("charges nested items and text, and checks memory before rendering", () => {
    const ctx = testContext();
    outcome("repr_py", [list(strs("a".repeat(512), "b"), strs("c"))], { ctx });
    expect(ctx.budget.operations).toBe(3 + 3);
    expect(outcome("repr_py", [str("\x00".repeat(10_000))], { ctx: testContext({ memoryBytes: 100_000 }) })).toBe("limit error");
  });
});
