import { describe, expect, it } from "vitest";
import { parseFormatString, resolveFormatString, referenceFormatString, literalFormatString } from "./format-string";

describe("parseFormatString", () => {
  it.each([
    ["plain text", [{ kind: "literal", text: "plain text" }]],
    ["", []],
    ["{{Param.X}}", [{ kind: "expression", source: "Param.X", start: 0, reference: "Param.X" }]],
    [
      "a {{ Task.Param.Frame }} b",
      [
        { kind: "literal", text: "a " },
        { kind: "expression", source: "Task.Param.Frame", start: 2, reference: "Task.Param.Frame" },
        { kind: "literal", text: " b" },
      ],
    ],
    [
      "{{A}}{{B}}",
      [
        { kind: "expression", source: "A", start: 0, reference: "A" },
        { kind: "expression", source: "B", start: 5, reference: "B" },
      ],
    ],
    ["{{\n  Param.X\n}}", [{ kind: "expression", source: "Param.X", start: 0, reference: "Param.X" }]],
    ["single { and } braces", [{ kind: "literal", text: "single { and } braces" }]],
  ])("%j", (raw, segments) => {
    const parsed = parseFormatString(raw);
    expect(parsed).toEqual({ ok: true, value: { raw, segments } });
  });

  it.each([
    // Expressions that are not a dotted reference parse, with reference null (EXPR decides later).
    ["{{ Param.X + 1 }}", "Param.X + 1"],
    ["{{ 1abc }}", "1abc"],
    ["{{ Param..X }}", "Param..X"],
    ["{{ f(x) }}", "f(x)"],
  ])("%j is an expression but not a reference", (raw, source) => {
    const parsed = parseFormatString(raw);
    expect(parsed.ok && parsed.value.segments[0]).toMatchObject({ kind: "expression", source, reference: null });
  });

  it.each([
    ["}}", 0, /without a matching/],
    ["a }} {{B}}", 2, /without a matching/],
    ["{{ Param.X", 0, /never closed/],
    ["x {{ a {{ b }} }}", 7, /cannot nest/],
    ["{{}}", 0, /empty expression/],
    ["{{   }}", 0, /empty expression/],
    ["{{A}} }}", 6, /without a matching/],
    ["${a}}", 3, /without a matching/],
  ])("%j is refused at offset %i", (raw, offset, message) => {
    const parsed = parseFormatString(raw);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.offset).toBe(offset);
      expect(parsed.message).toMatch(message);
    }
  });
});

describe("resolveFormatString", () => {
  const symbols = new Map([
    ["Param.X", "1"],
    ["Task.Param.Frame", "42"],
  ]);

  it("replaces every reference", () => {
    const parsed = parseFormatString("x={{Param.X}} f={{ Task.Param.Frame }}!");
    expect(parsed.ok && resolveFormatString(parsed.value, symbols)).toBe("x=1 f=42!");
  });

  it("names the missing symbol", () => {
    const parsed = parseFormatString("{{Param.Y}}");
    expect(() => parsed.ok && resolveFormatString(parsed.value, symbols)).toThrow(/'Param.Y' has no value/);
  });

  it("builds literal and reference strings in code", () => {
    expect(resolveFormatString(literalFormatString("a{b}"), symbols)).toBe("a{b}");
    expect(resolveFormatString(referenceFormatString("Param.X"), symbols)).toBe("1");
  });
});
