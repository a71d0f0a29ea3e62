import { describe, expect, it } from "vitest";
import { isWholeFieldExpression, scanExprFormatString, type ExprFormatSegment } from "./format-string-expr";

type Shape = string | { source: string; sourceOffset: number; start: number; end: number };

/** Literal segments as their text, expression segments as their located source. */
function shapes(raw: string): Shape[] {
  const result = scanExprFormatString(raw);
  if (!result.ok) throw new Error(`${result.message} at ${result.offset}`);
  return result.segments.map((s) => (s.kind === "literal" ? s.text : { source: s.source, sourceOffset: s.sourceOffset, start: s.start, end: s.end }));
}

describe("scanExprFormatString", () => {
  it.each<[string, Shape[]]>([
    ["", []],
    ["plain text", ["plain text"]],
    ["single { and } braces", ["single { and } braces"]],
    ["{{Param.X}}", [{ source: "Param.X", sourceOffset: 2, start: 0, end: 11 }]],
    ["a {{ x + 1 }} b", ["a ", { source: "x + 1", sourceOffset: 5, start: 2, end: 13 }, " b"]],
    [
      "{{A}}{{B}}",
      [
        { source: "A", sourceOffset: 2, start: 0, end: 5 },
        { source: "B", sourceOffset: 7, start: 5, end: 10 },
      ],
    ],
    ["{{ '{{' }}", [{ source: "'{{'", sourceOffset: 3, start: 0, end: 10 }]],
    ["{{ '}}' }}", [{ source: "'}}'", sourceOffset: 3, start: 0, end: 10 }]],
    ["x{{ \"}}\" + '{{' }}y", ["x", { source: `"}}" + '{{'`, sourceOffset: 4, start: 1, end: 18 }, "y"]],
    ["{{ '''a}}b''' }}", [{ source: "'''a}}b'''", sourceOffset: 3, start: 0, end: 16 }]],
    ["{{ 'it\\'s }}' }}", [{ source: "'it\\'s }}'", sourceOffset: 3, start: 0, end: 16 }]],
    ["{{ r'\\' }}'}}", [{ source: "r'\\' }}'", sourceOffset: 3, start: 0, end: 13 }]],
    ["{{ x }}}", [{ source: "x", sourceOffset: 3, start: 0, end: 7 }, "}"]],
    ["{{\n  [\n    x * 2\n    for x in y\n  ]\n}}", [{ source: "[\n    x * 2\n    for x in y\n  ]", sourceOffset: 5, start: 0, end: 38 }]],
    ["print(r'{{ Param.X }}')", ["print(r'", { source: "Param.X", sourceOffset: 11, start: 8, end: 21 }, "')"]],
  ])("%j", (raw, expected) => {
    expect(shapes(raw)).toEqual(expected);
  });

  it("parses each expression, with spans relative to sourceOffset", () => {
    const result = scanExprFormatString("n = {{  Param.Count + 1 }}!");
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const segment = result.segments[1] as ExprFormatSegment & { kind: "expression" };
    expect(segment.expr).toMatchObject({ kind: "binary", operator: "+", span: { start: 0, end: 15 } });
    expect(result.segments[0]).toEqual({ kind: "literal", text: "n = " });
    expect(segment.sourceOffset + segment.expr.span.start).toBe(8);
  });

  it.each([
    ["}}", "'}}' without a matching '{{' (write {{ '}}' }} for literal braces)", 0],
    ["a }} {{B}}", "'}}' without a matching '{{' (write {{ '}}' }} for literal braces)", 2],
    ["{{A}} }}", "'}}' without a matching '{{' (write {{ '}}' }} for literal braces)", 6],
    ["${a}}", "'}}' without a matching '{{' (write {{ '}}' }} for literal braces)", 3],
    ["{{ Param.X", "'{{' is never closed with '}}'", 0],
    ["ab {{ x }} {{ y", "'{{' is never closed with '}}'", 11],
    ["x {{ a {{ b }} }}", "'{{' inside an expression (braces cannot nest)", 7],
    ["{{}}", "empty expression '{{ }}'", 0],
    ["a {{ \n }}", "empty expression '{{ }}'", 2],
    ["{{ 'abc }}", "unterminated string literal", 3],
    ["{{ 'a\n' }}", "unterminated string literal (a line break needs a triple-quoted string or '\\n')", 3],
    ["x{{ 1 + }}", "unexpected end of expression", 7],
    ["ab {{ (1, 2) }}", "tuple literals are not supported; use a list instead", 8],
    ["{{ a }} {{  b & c }}", "'&' (bitwise operators) is not supported", 14],
    ["{{ f(x=1) }}", "keyword arguments are not supported", 5],
    ["{{\n  1 +\n  )\n}}", "unexpected ')' (no matching opening bracket)", 11],
    ["{{ {'a': 1} }}", "dict and set literals ('{') are not supported", 3],
    ["{{ '\\x4' }}", "truncated \\x escape: expected 2 hexadecimal digits", 4],
  ])("refuses %j: %s at %i", (raw, message, offset) => {
    expect(scanExprFormatString(raw)).toEqual({ ok: false, message, offset });
  });

  it("applies the parser's limits to each expression and caps length and interpolations", () => {
    expect(scanExprFormatString("{{ ((x)) }}", { maxDepth: 1 })).toEqual({
      ok: false,
      message: "expression is nested too deeply (the limit is 1 levels)",
      offset: 4,
    });
    expect(scanExprFormatString("{{x}}".repeat(1000)).ok).toBe(true);
    expect(scanExprFormatString("{{x}}".repeat(1001))).toEqual({
      ok: false,
      message: "too many '{{ … }}' expressions in one format string (the limit is 1000)",
      offset: 5000,
    });
    expect(scanExprFormatString("{{x}}".repeat(3), { maxSegments: 2 }).ok).toBe(false);
    expect(scanExprFormatString("a".repeat(1_000_001))).toMatchObject({ ok: false, message: expect.stringMatching(/format string is too long/) });
  });

  it("scans a large string with many expressions in linear time", () => {
    const raw = `${"text ".repeat(20_000)}${"{{ [x for x in range(3)] }} and ".repeat(1000)}`;
    const started = Date.now();
    const result = scanExprFormatString(raw);
    expect(result.ok && result.segments.length).toBe(2001);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe("isWholeFieldExpression", () => {
  const segments = (raw: string): ExprFormatSegment[] => {
    const result = scanExprFormatString(raw);
    if (!result.ok) throw new Error(result.message);
    return result.segments;
  };

  it.each([
    ["{{ Param.X }}", true],
    ["{{\n  [1, 2]\n}}", true],
    [" {{ Param.X }}", false],
    ["{{ Param.X }} ", false],
    ["{{ a }}{{ b }}", false],
    ["text", false],
    ["", false],
  ])("%j → %s", (raw, expected) => {
    expect(isWholeFieldExpression(segments(raw))).toBe(expected);
  });
});
