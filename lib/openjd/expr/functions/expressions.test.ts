import { describe, expect, it } from "vitest";
import { evaluate } from "../evaluator";
import { parseExpression } from "../parser";
import { toText } from "../values";
import { ints } from "./function-test-support";
import { standardLibrary } from "./index";

/** Parses and evaluates, returning the text a format string would interpolate. */
function render(source: string): string {
  const parsed = parseExpression(source);
  if (!parsed.ok) throw new Error(`syntax error in ${source}: ${parsed.error.message}`);
  const symbols = new Map([
    ["Param.Ints", ints(10, 2)],
    ["Param.Values", ints(10, 20, 30)],
  ]);
  return toText(evaluate(parsed.expr, { library: standardLibrary("template"), symbols, pathFormat: "POSIX" }));
}

// Expressions and outputs taken from the EXPR conformance fixtures named in each group.
const rows: Array<[string, string]> = [
  // expr2.1.2--string-ops
  [`"hello" + " world"`, "hello world"],
  [`"ab" * 3`, "ababab"],
  [`len("ab" * 0)`, "0"],
  // A lone surrogate is one code point, as in Python and as indexing counts it.
  [`len("\\ud800a")`, "2"],
  [`len("\\U0001f600a")`, "2"],
  // expr2.1.3--list-ops
  ["[1, 2] + [3, 4]", "[1, 2, 3, 4]"],
  ["[1, 2] + [3.0, 4.0]", "[1.0, 2.0, 3.0, 4.0]"],
  ["[1, 2] * 2", "[1, 2, 1, 2]"],
  ["[1, 2] * 0", "[]"],
  [`range_expr("1-3") + range_expr("7-9")`, "[1, 2, 3, 7, 8, 9]"],
  ["[] + [1, 2]", "[1, 2]"],
  // expr1.3.3--ufcs
  [`upper("hello")`, "HELLO"],
  [`"hello".upper()`, "HELLO"],
  [`"a,b,c".split(",").join(";")`, "a;b;c"],
  // expr1.3.1--target-describes-result-not-computation, 2.13--list-int-param-runtime
  ["sorted(Param.Ints)", "[2, 10]"],
  ["Param.Ints.sorted()", "[2, 10]"],
  ["min(Param.Ints)", "2"],
  ["sum(Param.Values)", "60"],
  // 2.16--list-list-int-param-runtime, spec §1.3.7 comprehension example
  ["flatten([[1, 2], [3, 4], [5, 6]])", "[1, 2, 3, 4, 5, 6]"],
  [`flatten([['-e', e] for e in ["A=1", "B=2"]])`, `["-e", "A=1", "-e", "B=2"]`],
  // proposed/expr2.2.4--center-odd-padding, proposed/expr2.2.4--isdigit-unicode
  [`"[" + center("hi", 7) + "]"`, "[   hi  ]"],
  [`isdigit("٣")`, "true"],
  [`isdigit("३")`, "true"],
  // proposed/expr2.2.6--repr-py-newline-roundtrip; spec §2.2.2 and §2.2.4 examples
  [`repr_py("a\\nb")`, "'a\\nb'"],
  ["round(3.5, 2)", "3.50"],
  ["(42).zfill(5)", "00042"],
  ["zfill(-1, 3)", "-01"],
  [`repr_pwsh(["a", "b"])`, "@('a', 'b')"],
];

describe("library functions through the parser and evaluator", () => {
  it.each(rows)("%s", (source, expected) => expect(render(source)).toBe(expected));
});
