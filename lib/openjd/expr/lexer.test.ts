import { describe, expect, it } from "vitest";
import { lookupCharacterName } from "./lexer-literals";
import { tokenize, type Token } from "./lexer";

function tokens(source: string): Token[] {
  const result = tokenize(source);
  if (!result.ok) throw new Error(`${result.error.message} at ${result.error.span.start}`);
  return result.tokens;
}

function only(source: string): Token {
  const all = tokens(source);
  expect(all).toHaveLength(2);
  return all[0] as Token;
}

function refused(source: string): { message: string; start: number; end: number } {
  const result = tokenize(source);
  if (result.ok) throw new Error(`expected ${JSON.stringify(source)} to be refused`);
  return { message: result.error.message, start: result.error.span.start, end: result.error.span.end };
}

describe("tokenize", () => {
  it("splits operators, names and literals with spans, ignoring whitespace and line breaks", () => {
    expect(tokens("a.b(1,\n\t'x')[0:2] ** -3 // 4").map((t) => [t.kind, "text" in t ? t.text : "value" in t ? t.value : "", t.span.start, t.span.end])).toEqual([
      ["name", "a", 0, 1],
      ["op", ".", 1, 2],
      ["name", "b", 2, 3],
      ["op", "(", 3, 4],
      ["int", "1", 4, 5],
      ["op", ",", 5, 6],
      ["string", "x", 8, 11],
      ["op", ")", 11, 12],
      ["op", "[", 12, 13],
      ["int", "0", 13, 14],
      ["op", ":", 14, 15],
      ["int", "2", 15, 16],
      ["op", "]", 16, 17],
      ["op", "**", 18, 20],
      ["op", "-", 21, 22],
      ["int", "3", 22, 23],
      ["op", "//", 24, 26],
      ["int", "4", 27, 28],
      ["eof", "", 28, 28],
    ]);
  });

  it.each(["<=", ">=", "==", "!=", "<", ">", "+", "-", "*", "/", "%", ":=", "="])("lexes %s as one operator", (op) => {
    expect(only(op)).toMatchObject({ kind: "op", text: op });
  });

  it("lexes keywords as plain names (the parser decides their role)", () => {
    expect(
      tokens("if else not in True null")
        .slice(0, -1)
        .map((t) => t.kind),
    ).toEqual(Array(6).fill("name"));
  });
});

describe("number literals", () => {
  it.each([
    ["0", 0n],
    ["00", 0n],
    ["0_0", 0n],
    ["42", 42n],
    ["1_000_000", 1000000n],
    ["0x2A", 42n],
    ["0X2a", 42n],
    ["0o52", 42n],
    ["0O52", 42n],
    ["0b101010", 42n],
    ["0B101010", 42n],
    ["0xFF_FF", 65535n],
    ["0b1010_1010", 170n],
    ["0x_ff", 255n],
    ["9223372036854775807", 9223372036854775807n],
    ["9223372036854775808", 9223372036854775808n],
    ["0x8000000000000000", 2n ** 63n],
  ])("int %s", (source, value) => {
    expect(only(source)).toEqual({ kind: "int", value, text: source, span: { start: 0, end: source.length } });
  });

  it.each([
    ["3.14", 3.14, "3.14"],
    [".5", 0.5, ".5"],
    ["1.", 1, "1."],
    ["1e10", 1e10, "1e10"],
    ["1E10", 1e10, "1E10"],
    ["1.5e-3", 0.0015, "1.5e-3"],
    ["1.5e+3", 1500, "1.5e+3"],
    ["1_000.5", 1000.5, "1000.5"],
    ["1_000.000_001", 1000.000001, "1000.000001"],
    ["00.5", 0.5, "00.5"],
    ["007e1", 70, "007e1"],
    ["0.0", 0, "0.0"],
    ["1e-400", 0, "1e-400"],
    ["9223372036854775808.0", 2 ** 63, "9223372036854775808.0"],
  ])("float %s", (source, value, text) => {
    expect(only(source)).toEqual({ kind: "float", value, text, span: { start: 0, end: source.length } });
  });

  it.each([
    ["007", /leading zeros .* use an 0o prefix/, 0, 3],
    ["0_7", /leading zeros/, 0, 3],
    ["1__0", /'_' in a number must be between two digits/, 1, 2],
    ["1_", /between two digits/, 1, 2],
    ["1_.5", /between two digits/, 1, 2],
    ["1._5", /between two digits/, 2, 3],
    ["1e_5", /exponent has no digits/, 0, 2],
    ["1e", /exponent has no digits/, 0, 2],
    ["1e+", /exponent has no digits/, 0, 3],
    ["0x", /invalid hexadecimal literal: no digits after '0x'/, 0, 2],
    ["0b", /invalid binary literal/, 0, 2],
    ["0x1g", /invalid digit 'g' in hexadecimal literal/, 3, 4],
    ["0o78", /invalid digit '8' in octal literal/, 3, 4],
    ["0b102", /invalid digit '2' in binary literal/, 4, 5],
    ["0x__1", /between two digits/, 2, 3],
    ["0x1_", /between two digits/, 3, 4],
    ["12abc", /invalid number literal '12abc'/, 0, 5],
    ["1if", /invalid number literal/, 0, 3],
    ["42.zfill(5)", /method calls on number literals need parentheses: \(42\)\.zfill/, 0, 8],
    ["x + 9223372036854775809", /out of the 64-bit range/, 4, 23],
    ["123456789012345678901234567890", /out of the 64-bit range/, 0, 30],
    ["0x1_0000_0000_0000_0001", /out of the 64-bit range/, 0, 23],
    ["1e400", /float literal is too large/, 0, 5],
  ])("refuses %j: %s at %i", (source, message, start, end) => {
    expect(refused(source)).toEqual({ message: expect.stringMatching(message), start, end });
  });

  it("keeps the literal as written, without underscores, so a copied float prints its digits", () => {
    expect(only("3.500")).toMatchObject({ kind: "float", text: "3.500", value: 3.5 });
  });

  it("reads `1 .real` as an int followed by an attribute", () => {
    expect(tokens("1 .real").map((t) => t.kind)).toEqual(["int", "op", "name", "eof"]);
  });
});

describe("string literals", () => {
  it.each([
    [`'hello'`, "hello"],
    [`"hello"`, "hello"],
    [`''`, ""],
    [`"it's"`, "it's"],
    [`'say "hi"'`, 'say "hi"'],
    [`'''triple\nsingle'''`, "triple\nsingle"],
    [`"""triple\ndouble"""`, "triple\ndouble"],
    [`'''a'b''c'''`, "a'b''c"],
    [`"""a""b"""`, 'a""b'],
    [`'''a\r\nb\rc'''`, "a\nb\nc"],
    [String.raw`'a\\b'`, "a\\b"],
    [String.raw`'\''`, "'"],
    [String.raw`"\""`, '"'],
    [String.raw`'a\nb'`, "a\nb"],
    [String.raw`'\r\t'`, "\r\t"],
    [String.raw`'\a\b\f\v'`, "\x07\b\f\v"],
    [String.raw`'\x41\x42'`, "AB"],
    [String.raw`"\u0043\u0044"`, "CD"],
    [String.raw`"\U00000045\U00000046"`, "EF"],
    [String.raw`"\U0001F600"`, "😀"],
    [String.raw`'\0'`, "\0"],
    [String.raw`'\101\1012'`, "AA2"],
    [String.raw`"\N{LATIN SMALL LETTER Z}"`, "z"],
    [String.raw`"\N{latin capital letter q}"`, "Q"],
    [String.raw`"\N{EM DASH}\N{DIGIT SEVEN}\N{SPACE}"`, "—7 "],
    [String.raw`'\d+'`, "\\d+"],
    [String.raw`'C:\Windows'`, "C:\\Windows"],
    ["'a\\\nb'", "ab"],
    [String.raw`r'hello\n'`, "hello\\n"],
    [String.raw`R"a\nb"`, "a\\nb"],
    [String.raw`r'\''`, "\\'"],
    [String.raw`r"C:\Users\test"`, "C:\\Users\\test"],
    [String.raw`r"""raw\ntriple"""`, "raw\\ntriple"],
    [String.raw`r'''raw\ntriple'''`, "raw\\ntriple"],
    [`'{{ }}'`, "{{ }}"],
  ])("%s", (source, value) => {
    expect(only(source)).toEqual({ kind: "string", value, span: { start: 0, end: source.length } });
  });

  it.each([
    [`'abc`, /unterminated string literal/, 0, 4],
    [`x + "abc\ndef"`, /unterminated string literal \(a line break needs a triple-quoted string/, 4, 8],
    [`'''abc''`, /unterminated string literal/, 0, 8],
    [String.raw`'abc\'`, /unterminated/, 0, 6],
    [String.raw`r'abc\'`, /unterminated/, 0, 7],
    [String.raw`'\x4'`, /truncated \\x escape: expected 2 hexadecimal digits/, 1, 4],
    [String.raw`'ab\u12'`, /truncated \\u escape/, 3, 7],
    [String.raw`'\U0000004'`, /truncated \\U escape/, 1, 10],
    [String.raw`'\U00110000'`, /not a valid Unicode character/, 1, 11],
    [String.raw`'\N'`, /malformed \\N\{…\} escape/, 1, 3],
    [String.raw`'\N{LATIN SMALL LETTER Z'`, /malformed/, 1, 3],
    [String.raw`'x\N{SNOWMAN}'`, /\\N\{SNOWMAN\} is not supported: only a small table of character names is known/, 2, 13],
    [`f'x'`, /f-strings are not supported/, 0, 2],
    [`rf"x"`, /f-strings are not supported/, 0, 3],
    [`b'x'`, /bytes literals are not supported/, 0, 2],
    [`u'x'`, /the 'u' string prefix is not supported/, 0, 2],
  ])("refuses %j: %s at %i", (source, message, start, end) => {
    expect(refused(source)).toEqual({ message: expect.stringMatching(message), start, end });
  });

  it("knows printable ASCII and a few common characters by name, and nothing else", () => {
    expect(lookupCharacterName("TILDE")).toBe(0x7e);
    expect(lookupCharacterName("REVERSE SOLIDUS")).toBe(0x5c);
    expect(lookupCharacterName("low line")).toBe(0x5f);
    expect(lookupCharacterName("NO-BREAK SPACE")).toBe(0xa0);
    expect(lookupCharacterName("LINE FEED")).toBe(0x0a);
    expect(lookupCharacterName("KLINGON LETTER A")).toBeUndefined();
  });
});

describe("refused characters", () => {
  it.each([
    ["a & b", "'&' (bitwise operators) is not supported", 2, 3],
    ["a | b", "'|' (bitwise operators) is not supported", 2, 3],
    ["a ^ b", "'^' (bitwise operators) is not supported", 2, 3],
    ["~a", "'~' (bitwise operators) is not supported", 0, 1],
    ["a << 2", "'<<' (bitwise operators) is not supported", 2, 4],
    ["a >> 2", "'>>' (bitwise operators) is not supported", 2, 4],
    ["x += 1", "augmented assignment ('+=') is not supported", 2, 4],
    ["x **= 2", "augmented assignment ('**=') is not supported", 2, 5],
    ["x <<= 2", "augmented assignment ('<<=') is not supported", 2, 5],
    ["a @ b", "'@' (matrix multiplication) is not supported", 2, 3],
    ["{'a': 1}", "dict and set literals ('{') are not supported", 0, 1],
    ["x }", "dict and set literals ('}') are not supported", 2, 3],
    ["1 # one", "comments ('#') are not supported", 2, 3],
    ["a; b", "';' (multiple statements) is not supported", 1, 2],
    ["1 + \\\n 2", "'\\' line continuation is not supported: an expression may span lines without it", 4, 5],
    ["!a", "unexpected character '!' (use 'not' for logical negation)", 0, 1],
    ["a $ b", "unexpected character '$'", 2, 3],
    ["a ? b", "unexpected character '?'", 2, 3],
    ["`a`", "unexpected character '`'", 0, 1],
    ["café", "unexpected character 'é' (U+00E9)", 3, 4],
    ["a\u00a0b", "unexpected character U+00A0", 1, 2],
    ["x + 😀", "unexpected character '😀' (U+1F600)", 4, 6],
    ["Task.Param.1Frame", "'1Frame' is not a valid attribute name (names cannot start with a digit)", 11, 17],
    ["x.5", "'5' is not a valid attribute name (names cannot start with a digit)", 2, 3],
  ])("%j: %s", (source, message, start, end) => {
    expect(refused(source)).toEqual({ message, start, end });
  });

  it("reports the first problem in source order", () => {
    expect(refused("1 & 2 | 3").start).toBe(2);
  });
});
