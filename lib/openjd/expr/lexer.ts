/**
 * Tokens of the EXPR language (spec digest §14.2). Whitespace, line breaks included, separates
 * tokens and is otherwise ignored (implicit line continuation). Keywords are not tokens of their
 * own: they are names, and the parser decides from context whether `if` is a keyword or, after
 * a `.`, an attribute name. Python syntax outside the language (bitwise operators, augmented
 * assignment, braces, comments, f-strings) is refused here, at the characters that use it.
 */
import type { ExprSyntaxError, Span } from "./ast";
import { isNameChar, isNameStart, scanNumber, scanString } from "./lexer-literals";

/** Punctuation the parser understands; `=` and `:=` exist so it can refuse them with a clear message. */
export const OPERATORS = ["**", "//", "<=", ">=", "==", "!=", ":=", "+", "-", "*", "/", "%", "<", ">", "(", ")", "[", "]", ",", ".", ":", "="] as const;
export type Operator = (typeof OPERATORS)[number];

export type Token =
  | { kind: "int"; value: bigint; text: string; span: Span }
  | { kind: "float"; value: number; text: string; span: Span }
  | { kind: "string"; value: string; span: Span }
  | { kind: "name"; text: string; span: Span }
  | { kind: "op"; text: Operator; span: Span }
  | { kind: "eof"; span: Span };

/** Python keywords: never a bare name (`Param.if` is fine, it is an attribute). */
export const KEYWORDS: ReadonlySet<string> = new Set(
  (
    "False None True and as assert async await break class continue def del elif else except finally for from " + "global if import in is lambda nonlocal not or pass raise return try while with yield"
  ).split(" "),
);
/** `True`/`False`/`None` and their JSON/YAML aliases (spec §1.1.4). */
export const LITERAL_NAMES: ReadonlyMap<string, boolean | null> = new Map([
  ["True", true],
  ["true", true],
  ["False", false],
  ["false", false],
  ["None", null],
  ["null", null],
]);
/** True for names that cannot be user identifiers: Python keywords and the literal aliases. */
export function isReservedName(name: string): boolean {
  return KEYWORDS.has(name) || LITERAL_NAMES.has(name);
}

/** A token as error messages name it: `'+'`, `keyword 'else'`, `number 12`, `end of expression`. */
export function describeToken(token: Token): string {
  switch (token.kind) {
    case "eof":
      return "end of expression";
    case "op":
      return `'${token.text}'`;
    case "name":
      return `${KEYWORDS.has(token.text) ? "keyword" : "name"} '${token.text}'`;
    case "int":
    case "float":
      return `number ${token.text}`;
    case "string":
      return "string literal";
  }
}

/** Thrown inside the lexer and parser, and turned into a typed result at their public entry points. */
export class ExprSyntaxFailure extends Error {
  constructor(readonly detail: ExprSyntaxError) {
    super(detail.message);
  }
}

const BITWISE = "(bitwise operators) is not supported";
const AUGMENTED = ["**=", "//=", "<<=", ">>=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@="];
/** Python punctuation outside the language, longest first so `<<` wins over `<`. */
const REFUSED: ReadonlyArray<readonly [string, string]> = [
  ...AUGMENTED.map((op) => [op, `augmented assignment ('${op}') is not supported`] as const),
  ["<<", `'<<' ${BITWISE}`],
  [">>", `'>>' ${BITWISE}`],
  ["&", `'&' ${BITWISE}`],
  ["|", `'|' ${BITWISE}`],
  ["^", `'^' ${BITWISE}`],
  ["~", `'~' ${BITWISE}`],
  ["@", "'@' (matrix multiplication) is not supported"],
  ["{", "dict and set literals ('{') are not supported"],
  ["}", "dict and set literals ('}') are not supported"],
  ["#", "comments ('#') are not supported"],
  [";", "';' (multiple statements) is not supported"],
  ["\\", "'\\' line continuation is not supported: an expression may span lines without it"],
  ["!", "unexpected character '!' (use 'not' for logical negation)"],
];
const SORTED_OPERATORS = [...OPERATORS].sort((a, b) => b.length - a.length);
const WHITESPACE = /[ \t\n\r\f]/;

/** String prefixes Python has but the language does not, by lowercased prefix. */
const REFUSED_PREFIXES: Readonly<Record<string, string>> = {
  f: "f-strings are not supported; use '+' or format functions",
  rf: "f-strings are not supported; use '+' or format functions",
  fr: "f-strings are not supported; use '+' or format functions",
  b: "bytes literals are not supported",
  rb: "bytes literals are not supported",
  br: "bytes literals are not supported",
  u: "the 'u' string prefix is not supported (only 'r' and 'R' are)",
};

function describeCharacter(ch: string): string {
  const code = `U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
  if (/^[\x21-\x7e]$/.test(ch)) return `'${ch}'`;
  return /^[\p{L}\p{N}\p{P}\p{S}]$/u.test(ch) ? `'${ch}' (${code})` : code;
}

/** Produces tokens on demand, so that an error early in the source is reported before a later one. */
export class Lexer {
  private pos = 0;
  private readonly buffer: Token[] = [];

  constructor(private readonly source: string) {}

  /** The token `ahead` positions after the next one, without consuming anything. */
  peek(ahead = 0): Token {
    while (this.buffer.length <= ahead) this.buffer.push(this.scan());
    return this.buffer[ahead] as Token;
  }

  next(): Token {
    const token = this.peek();
    this.buffer.shift();
    return token;
  }

  private fail(message: string, start: number, end: number): never {
    throw new ExprSyntaxFailure({ message, span: { start, end } });
  }

  private scan(): Token {
    const src = this.source;
    while (this.pos < src.length && WHITESPACE.test(src[this.pos] as string)) this.pos += 1;
    const start = this.pos;
    if (start >= src.length) return { kind: "eof", span: { start, end: start } };
    const ch = src[start] as string;

    if (ch === "." && isNameChar(src[start - 1]) && /[0-9]/.test(src[start + 1] ?? "")) {
      // `Param.1Frame`: Python would read `.1` as a number; say what was meant instead.
      let end = start + 1;
      while (isNameChar(src[end])) end += 1;
      this.fail(`'${src.slice(start + 1, end)}' is not a valid attribute name (names cannot start with a digit)`, start + 1, end);
    }
    if ((ch >= "0" && ch <= "9") || (ch === "." && /[0-9]/.test(src[start + 1] ?? ""))) {
      const number = scanNumber(src, start);
      if (!number.ok) throw new ExprSyntaxFailure(number.error);
      this.pos = number.end;
      return { ...number.value, span: { start, end: number.end } };
    }
    if (ch === "'" || ch === '"') return this.string(start, start, false);
    if (isNameStart(ch)) {
      let end = start + 1;
      while (isNameChar(src[end])) end += 1;
      const text = src.slice(start, end);
      if (src[end] === "'" || src[end] === '"') {
        if (text === "r" || text === "R") return this.string(start, end, true);
        const refused = REFUSED_PREFIXES[text.toLowerCase()];
        if (refused !== undefined) this.fail(refused, start, end + 1);
      }
      this.pos = end;
      return { kind: "name", text, span: { start, end } };
    }
    for (const [text, message] of REFUSED) {
      // An operator of the language that is longer than the refused one wins (`!=` over `!`).
      if (src.startsWith(text, start) && !SORTED_OPERATORS.some((op) => op.length > text.length && src.startsWith(op, start))) {
        this.fail(message, start, start + text.length);
      }
    }
    const op = SORTED_OPERATORS.find((candidate) => src.startsWith(candidate, start));
    if (op !== undefined) {
      this.pos = start + op.length;
      return { kind: "op", text: op, span: { start, end: this.pos } };
    }
    const character = String.fromCodePoint(src.codePointAt(start) ?? 0);
    return this.fail(`unexpected character ${describeCharacter(character)}`, start, start + character.length);
  }

  private string(start: number, quotePos: number, raw: boolean): Token {
    const scanned = scanString(this.source, start, quotePos, raw);
    if (!scanned.ok) throw new ExprSyntaxFailure(scanned.error);
    this.pos = scanned.end;
    return { kind: "string", value: scanned.value, span: { start, end: scanned.end } };
  }
}

/** All tokens of `source`, ending with `eof` (for tools such as syntax highlighting and for tests). */
export function tokenize(source: string): { ok: true; tokens: Token[] } | { ok: false; error: ExprSyntaxError } {
  const lexer = new Lexer(source);
  const tokens: Token[] = [];
  try {
    for (let token = lexer.next(); ; token = lexer.next()) {
      tokens.push(token);
      if (token.kind === "eof") return { ok: true, tokens };
    }
  } catch (error) {
    if (error instanceof ExprSyntaxFailure) return { ok: false, error: error.detail };
    throw error;
  }
}
