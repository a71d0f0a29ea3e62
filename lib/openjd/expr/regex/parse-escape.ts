/**
 * Backslash escapes, inside and outside character classes. Only escapes that Python `re` and
 * Rust `regex` read the same way are accepted (spec §2.2.5); every other one is refused with a
 * message naming the feature, located at the backslash.
 */
import type { Assertion, PerlClass } from "./ast";
import { hexValue, isAsciiAlnum, isAsciiDigit, type PatternReader } from "./pattern-reader";

export type Escape = { kind: "char"; cp: number } | { kind: "perl"; which: PerlClass; negated: boolean } | { kind: "assert"; assertion: Assertion };

const CONTROL: Readonly<Record<string, number>> = { t: 0x09, n: 0x0a, r: 0x0d, f: 0x0c, v: 0x0b, a: 0x07 };

const REFUSED: Readonly<Record<string, string>> = {
  Z: "the \\Z anchor is not supported (use $)",
  z: "the \\z anchor is not supported (use $)",
  G: "the \\G anchor is not supported",
  p: "Unicode property classes \\p{…} are not supported",
  P: "Unicode property classes \\P{…} are not supported",
  N: "named characters \\N{…} are not supported",
  k: "named backreferences are not supported",
  g: "backreferences are not supported",
  K: "\\K is not supported",
  "<": "the word-start assertion \\< is not supported (Rust only)",
  ">": "the word-end assertion \\> is not supported (Rust only)",
};

/** Reads the escape at the cursor (which is on the backslash). */
export function parseEscape(reader: PatternReader, inClass: boolean): Escape {
  const start = reader.pos;
  reader.next();
  const cp = reader.next();
  if (cp < 0) reader.fail("the pattern ends with a lone backslash", start);
  const ch = String.fromCodePoint(cp);
  switch (ch) {
    case "d":
    case "w":
    case "s":
      return { kind: "perl", which: ch, negated: false };
    case "D":
    case "W":
    case "S":
      return { kind: "perl", which: ch.toLowerCase() as PerlClass, negated: true };
    case "b":
    case "B":
    case "A":
      if (inClass) {
        reader.fail(ch === "b" ? "\\b inside a character class is not supported (Python reads it as backspace)" : `\\${ch} is not allowed inside a character class`, start);
      }
      return { kind: "assert", assertion: ch === "b" ? "wordBoundary" : ch === "B" ? "notWordBoundary" : "textStart" };
    case "x":
      return { kind: "char", cp: hexEscape(reader, start, "x", 2) };
    case "u":
      return { kind: "char", cp: hexEscape(reader, start, "u", 4) };
    case "U":
      return { kind: "char", cp: hexEscape(reader, start, "U", 8) };
  }
  const control = CONTROL[ch];
  if (control !== undefined) return { kind: "char", cp: control };
  const refused = REFUSED[ch];
  if (refused !== undefined) reader.fail(refused, start);
  if (ch === "0") reader.fail("octal escapes are not supported (use \\xhh)", start);
  if (isAsciiDigit(cp)) reader.fail(`backreferences (\\${ch}) are not supported`, start);
  if (isAsciiAlnum(cp)) reader.fail(`unknown escape \\${ch}`, start);
  if (cp > 0x7f) reader.fail(`escaping the non-ASCII character '${ch}' is not supported; write it unescaped`, start);
  return { kind: "char", cp };
}

/** `\xhh`, `\uhhhh`, `\Uhhhhhhhh`; the brace forms `\x{…}` are Rust only and refused. */
function hexEscape(reader: PatternReader, start: number, letter: string, digits: number): number {
  if (reader.is("{")) reader.fail(`the brace escape \\${letter}{…} is not supported (use \\xhh, \\uhhhh or \\Uhhhhhhhh)`, start);
  let value = 0;
  for (let k = 0; k < digits; k++) {
    const digit = hexValue(reader.peek());
    if (digit < 0) reader.fail(`\\${letter} needs exactly ${digits} hex digits`, start);
    reader.next();
    value = value * 16 + digit;
  }
  if (value > 0x10ffff) reader.fail(`\\${letter} escape is beyond U+10FFFF`, start);
  if (value >= 0xd800 && value <= 0xdfff) reader.fail(`\\${letter} escape names a lone surrogate`, start);
  return value;
}
