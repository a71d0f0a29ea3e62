/**
 * Number and string literals of the EXPR language (spec digest §14.2): Python's literal syntax,
 * scanned by hand so that every mistake is reported at the exact characters that caused it.
 * Functions return typed results; offsets are UTF-16 indexes into the expression source.
 */
import type { ExprSyntaxError } from "./ast";

export type Scanned<T> = { ok: true; value: T; end: number } | { ok: false; error: ExprSyntaxError };

/** `text` is the literal as written for ints, and without `_` separators for floats (it is what a copied float prints). */
export type NumberLiteral = { kind: "int"; value: bigint; text: string } | { kind: "float"; value: number; text: string };

/** 2^63: the magnitude of the smallest int64, only valid right after a unary minus. */
export const INT64_MAGNITUDE_LIMIT = 2n ** 63n;

const fail = (message: string, start: number, end: number): { ok: false; error: ExprSyntaxError } => ({
  ok: false,
  error: { message, span: { start, end } },
});

const isDecimal = (ch: string | undefined): boolean => ch !== undefined && ch >= "0" && ch <= "9";
export const isNameStart = (ch: string | undefined): boolean => ch !== undefined && /[A-Za-z_]/.test(ch);
export const isNameChar = (ch: string | undefined): boolean => ch !== undefined && /[A-Za-z0-9_]/.test(ch);

const RADIXES = {
  x: { name: "hexadecimal", digit: /[0-9a-fA-F]/, prefix: "0x" },
  o: { name: "octal", digit: /[0-7]/, prefix: "0o" },
  b: { name: "binary", digit: /[01]/, prefix: "0b" },
} as const;

/** Reads `digit ("_"? digit)*` from `pos`; returns the end, or the offset of a misplaced `_`. */
function readDigits(src: string, pos: number, isDigit: (ch: string | undefined) => boolean): number | { underscore: number } {
  if (!isDigit(src[pos])) return pos;
  let end = pos + 1;
  for (;;) {
    if (src[end] === "_") {
      if (!isDigit(src[end + 1])) return { underscore: end };
      end += 2;
    } else if (isDigit(src[end])) end += 1;
    else return end;
  }
}

const UNDERSCORE = "'_' in a number must be between two digits";

function intValue(digits: string, prefix: string, start: number, end: number): Scanned<bigint> {
  const significant = digits.replace(/^0+/, "");
  // 2^63 has at most 64 digits in any base, so longer literals are out of range without BigInt work.
  const value = significant.length > 64 ? null : BigInt(prefix + (significant || "0"));
  if (value === null || value > INT64_MAGNITUDE_LIMIT) return fail("integer literal is out of the 64-bit range", start, end);
  return { ok: true, value, end };
}

/** Scans an int or float literal starting at `start` (a digit, or a `.` followed by a digit). */
export function scanNumber(src: string, start: number): Scanned<NumberLiteral> {
  const radix = src[start] === "0" ? RADIXES[(src[start + 1] ?? "").toLowerCase() as keyof typeof RADIXES] : undefined;
  if (radix !== undefined) {
    let end = start + 2;
    while (isNameChar(src[end])) end += 1;
    const body = src.slice(start + 2, end);
    if (!/[^_]/.test(body)) return fail(`invalid ${radix.name} literal: no digits after '${src.slice(start, start + 2)}'`, start, end);
    for (let i = 0; i < body.length; i += 1) {
      const ch = body[i] as string;
      if (ch === "_") {
        if (!radix.digit.test(body[i + 1] ?? "") || (i > 0 && body[i - 1] === "_")) return fail(UNDERSCORE, start + 2 + i, start + 3 + i);
      } else if (!radix.digit.test(ch)) {
        return fail(`invalid digit '${ch}' in ${radix.name} literal`, start + 2 + i, start + 3 + i);
      }
    }
    const value = intValue(body.replaceAll("_", ""), radix.prefix, start, end);
    return value.ok ? { ok: true, value: { kind: "int", value: value.value, text: src.slice(start, end) }, end } : value;
  }

  let pos = start;
  let isFloat = false;
  const integerPart = readDigits(src, pos, isDecimal);
  if (typeof integerPart !== "number") return fail(UNDERSCORE, integerPart.underscore, integerPart.underscore + 1);
  pos = integerPart;
  if (src[pos] === ".") {
    isFloat = true;
    const fraction = readDigits(src, pos + 1, isDecimal);
    if (typeof fraction !== "number") return fail(UNDERSCORE, fraction.underscore, fraction.underscore + 1);
    if (src[pos + 1] === "_") return fail(UNDERSCORE, pos + 1, pos + 2);
    pos = fraction;
  }
  if (src[pos] === "e" || src[pos] === "E") {
    const digitsAt = src[pos + 1] === "+" || src[pos + 1] === "-" ? pos + 2 : pos + 1;
    const exponent = readDigits(src, digitsAt, isDecimal);
    if (typeof exponent !== "number") return fail(UNDERSCORE, exponent.underscore, exponent.underscore + 1);
    if (exponent === digitsAt) return fail("invalid float literal: the exponent has no digits", start, digitsAt);
    isFloat = true;
    pos = exponent;
  }
  if (isNameChar(src[pos])) {
    let end = pos;
    while (isNameChar(src[end])) end += 1;
    if (src[pos - 1] === "." && isNameStart(src[pos])) {
      return fail(`method calls on number literals need parentheses: (${src.slice(start, pos - 1)}).${src.slice(pos, end)}(…)`, start, end);
    }
    return fail(`invalid number literal '${src.slice(start, end)}'`, start, end);
  }

  const text = src.slice(start, pos).replaceAll("_", "");
  if (isFloat) {
    const value = Number(text);
    if (!Number.isFinite(value)) return fail("float literal is too large", start, pos);
    return { ok: true, value: { kind: "float", value, text }, end: pos };
  }
  if (/^0+[1-9]/.test(text)) {
    return fail("leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers", start, pos);
  }
  const value = intValue(text, "", start, pos);
  return value.ok ? { ok: true, value: { kind: "int", value: value.value, text: src.slice(start, pos) }, end: pos } : value;
}

/** Where a string literal opening at `quotePos` ends: the body range and the offset after the closing quote. */
export function findStringEnd(src: string, quotePos: number): Scanned<{ bodyStart: number; bodyEnd: number }> {
  const quote = src[quotePos] as string;
  const triple = src.startsWith(quote.repeat(3), quotePos);
  const closing = triple ? quote.repeat(3) : quote;
  const bodyStart = quotePos + closing.length;
  for (let pos = bodyStart; pos < src.length;) {
    const ch = src[pos];
    if (ch === "\\") pos += src.startsWith("\r\n", pos + 1) ? 3 : 2;
    else if (!triple && (ch === "\n" || ch === "\r")) {
      return fail("unterminated string literal (a line break needs a triple-quoted string or '\\n')", quotePos, pos);
    } else if (src.startsWith(closing, pos)) return { ok: true, value: { bodyStart, bodyEnd: pos }, end: pos + closing.length };
    else pos += 1;
  }
  return fail("unterminated string literal", quotePos, src.length);
}

/** Scans a string literal whose prefix (`r`/`R` or nothing) starts at `start` and whose quote is at `quotePos`. */
export function scanString(src: string, start: number, quotePos: number, raw: boolean): Scanned<string> {
  const found = findStringEnd(src, quotePos);
  if (!found.ok) return { ok: false, error: { ...found.error, span: { start, end: found.error.span.end } } };
  const decoded = decodeBody(src, found.value.bodyStart, found.value.bodyEnd, raw);
  return decoded.ok ? { ok: true, value: decoded.value, end: found.end } : decoded;
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  "\\": "\\",
  "'": "'",
  '"': '"',
  a: "\x07",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
};
const HEX_ESCAPES: Readonly<Record<string, number>> = { x: 2, u: 4, U: 8 };

function decodeBody(src: string, from: number, to: number, raw: boolean): Scanned<string> {
  let out = "";
  for (let pos = from; pos < to;) {
    const ch = src[pos] as string;
    if (ch === "\r") {
      // Python reads sources with universal newlines: CRLF and CR inside a literal become LF.
      out += "\n";
      pos += src[pos + 1] === "\n" ? 2 : 1;
      continue;
    }
    if (ch !== "\\" || raw) {
      out += ch;
      pos += 1;
      continue;
    }
    const kind = src[pos + 1] as string;
    const simple = SIMPLE_ESCAPES[kind];
    const hexLength = HEX_ESCAPES[kind];
    if (simple !== undefined) {
      out += simple;
      pos += 2;
    } else if (kind === "\n" || kind === "\r") {
      pos += src.startsWith("\r\n", pos + 1) ? 3 : 2; // a backslash before a line break joins the lines
    } else if (/[0-7]/.test(kind)) {
      const digits = /^[0-7]{1,3}/.exec(src.slice(pos + 1, Math.min(to, pos + 4)))?.[0] ?? kind;
      out += String.fromCodePoint(parseInt(digits, 8));
      pos += 1 + digits.length;
    } else if (hexLength !== undefined) {
      const digits = src.slice(pos + 2, Math.min(to, pos + 2 + hexLength));
      if (!new RegExp(`^[0-9a-fA-F]{${hexLength}}$`).test(digits)) {
        return fail(`truncated \\${kind} escape: expected ${hexLength} hexadecimal digits`, pos, pos + 2 + digits.length);
      }
      const code = parseInt(digits, 16);
      if (code > 0x10ffff) return fail(`\\${kind}${digits} is not a valid Unicode character`, pos, pos + 2 + hexLength);
      out += String.fromCodePoint(code);
      pos += 2 + hexLength;
    } else if (kind === "N") {
      const close = src.indexOf("}", pos);
      if (src[pos + 2] !== "{" || close === -1 || close >= to) return fail("malformed \\N{…} escape: expected \\N{name}", pos, pos + 2);
      const name = src.slice(pos + 3, close);
      const code = lookupCharacterName(name);
      if (code === undefined) {
        return fail(`\\N{${name}} is not supported: only a small table of character names is known; use \\uXXXX instead`, pos, close + 1);
      }
      out += String.fromCodePoint(code);
      pos = close + 1;
    } else {
      // Python keeps unknown escapes (`"\d"`) as written: backslash and character.
      out += "\\";
      pos += 1;
    }
  }
  return { ok: true, value: out, end: to };
}

// The browser has no Unicode name database, so `\N{…}` knows printable ASCII (by its Unicode name),
// the control-character aliases Python accepts, and a handful of common typographic characters.
const ASCII_NAMES =
  "SPACE;EXCLAMATION MARK;QUOTATION MARK;NUMBER SIGN;DOLLAR SIGN;PERCENT SIGN;AMPERSAND;APOSTROPHE;" +
  "LEFT PARENTHESIS;RIGHT PARENTHESIS;ASTERISK;PLUS SIGN;COMMA;HYPHEN-MINUS;FULL STOP;SOLIDUS;" +
  "DIGIT ZERO;DIGIT ONE;DIGIT TWO;DIGIT THREE;DIGIT FOUR;DIGIT FIVE;DIGIT SIX;DIGIT SEVEN;DIGIT EIGHT;DIGIT NINE;" +
  "COLON;SEMICOLON;LESS-THAN SIGN;EQUALS SIGN;GREATER-THAN SIGN;QUESTION MARK;COMMERCIAL AT";
const ASCII_AFTER_LETTERS = ["LEFT SQUARE BRACKET", "REVERSE SOLIDUS", "RIGHT SQUARE BRACKET", "CIRCUMFLEX ACCENT", "LOW LINE", "GRAVE ACCENT"];
const ASCII_TAIL = ["LEFT CURLY BRACKET", "VERTICAL LINE", "RIGHT CURLY BRACKET", "TILDE"];
const OTHER_NAMES: ReadonlyArray<readonly [number, string]> = [
  [0x00, "NULL"],
  [0x07, "BELL"],
  [0x08, "BACKSPACE"],
  [0x09, "CHARACTER TABULATION"],
  [0x09, "HORIZONTAL TABULATION"],
  [0x0a, "LINE FEED"],
  [0x0a, "NEW LINE"],
  [0x0b, "LINE TABULATION"],
  [0x0c, "FORM FEED"],
  [0x0d, "CARRIAGE RETURN"],
  [0x1b, "ESCAPE"],
  [0x7f, "DELETE"],
  [0xa0, "NO-BREAK SPACE"],
  [0xa7, "SECTION SIGN"],
  [0xa9, "COPYRIGHT SIGN"],
  [0xae, "REGISTERED SIGN"],
  [0xb0, "DEGREE SIGN"],
  [0xb1, "PLUS-MINUS SIGN"],
  [0xb5, "MICRO SIGN"],
  [0xb6, "PILCROW SIGN"],
  [0xb7, "MIDDLE DOT"],
  [0xd7, "MULTIPLICATION SIGN"],
  [0xf7, "DIVISION SIGN"],
  [0x200b, "ZERO WIDTH SPACE"],
  [0x2013, "EN DASH"],
  [0x2014, "EM DASH"],
  [0x2018, "LEFT SINGLE QUOTATION MARK"],
  [0x2019, "RIGHT SINGLE QUOTATION MARK"],
  [0x201c, "LEFT DOUBLE QUOTATION MARK"],
  [0x201d, "RIGHT DOUBLE QUOTATION MARK"],
  [0x2022, "BULLET"],
  [0x2026, "HORIZONTAL ELLIPSIS"],
  [0x20ac, "EURO SIGN"],
  [0x2122, "TRADE MARK SIGN"],
  [0x2190, "LEFTWARDS ARROW"],
  [0x2192, "RIGHTWARDS ARROW"],
  [0x2713, "CHECK MARK"],
  [0x2717, "BALLOT X"],
  [0xfeff, "ZERO WIDTH NO-BREAK SPACE"],
  [0xfeff, "BYTE ORDER MARK"],
  [0xfffd, "REPLACEMENT CHARACTER"],
];

let characterNames: Map<string, number> | null = null;

function buildCharacterNames(): Map<string, number> {
  const names = new Map<string, number>();
  ASCII_NAMES.split(";").forEach((name, i) => names.set(name, 0x20 + i));
  for (let i = 0; i < 26; i += 1) {
    const letter = String.fromCharCode(0x41 + i);
    names.set(`LATIN CAPITAL LETTER ${letter}`, 0x41 + i);
    names.set(`LATIN SMALL LETTER ${letter}`, 0x61 + i);
  }
  ASCII_AFTER_LETTERS.forEach((name, i) => names.set(name, 0x5b + i));
  ASCII_TAIL.forEach((name, i) => names.set(name, 0x7b + i));
  for (const [code, name] of OTHER_NAMES) names.set(name, code);
  return names;
}

/** The code point of a Unicode character name (case-insensitive, as in Python), if the table knows it. */
export function lookupCharacterName(name: string): number | undefined {
  characterNames ??= buildCharacterNames();
  return characterNames.get(name.toUpperCase());
}
