/**
 * Unicode classification of single code points for `\d \w \s`, `\b` and `(?i)`. The engine never
 * hands a subject to a JavaScript RegExp; these RegExps only ever test one code point, which is
 * constant time.
 *
 * Definitions (spec §2.2.5 asks for Unicode semantics; where Python and Rust differ we take the
 * Unicode/UTS #18 definition that Rust's `regex` uses):
 * - `\d` = `\p{Nd}` (both engines agree).
 * - `\w` = `\p{Alphabetic} ∪ \p{M} ∪ \p{Nd} ∪ \p{Pc} ∪ \p{Join_Control}` (Rust). Python's `\w` is
 *   `str.isalnum() or "_"`: it also takes `\p{No}` (`²`) and leaves out combining marks.
 * - `\s` = `\p{White_Space}` (Rust). Python also takes U+001C..U+001F.
 */

const DIGIT = /^\p{Nd}$/u;
const WORD = /^[\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\p{Join_Control}]$/u;
const SPACE = /^\p{White_Space}$/u;

function test(re: RegExp, cp: number): boolean {
  return cp >= 0 && re.test(String.fromCodePoint(cp));
}

export function isDigit(cp: number): boolean {
  if (cp < 0x80) return cp >= 0x30 && cp <= 0x39;
  return test(DIGIT, cp);
}

export function isWord(cp: number): boolean {
  if (cp < 0x80) {
    return (cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a) || cp === 0x5f;
  }
  return test(WORD, cp);
}

export function isSpace(cp: number): boolean {
  if (cp < 0x80) return cp === 0x20 || (cp >= 0x09 && cp <= 0x0d);
  return test(SPACE, cp);
}

/** The code point a one-code-point string holds, or null when a case mapping expanded it. */
function single(text: string): number | null {
  const cp = text.codePointAt(0);
  if (cp === undefined) return null;
  return text.length === (cp > 0xffff ? 2 : 1) ? cp : null;
}

export function toLower(cp: number): number {
  if (cp < 0x80) return cp >= 0x41 && cp <= 0x5a ? cp + 32 : cp;
  return single(String.fromCodePoint(cp).toLowerCase()) ?? cp;
}

export function toUpper(cp: number): number {
  if (cp < 0x80) return cp >= 0x61 && cp <= 0x7a ? cp - 32 : cp;
  return single(String.fromCodePoint(cp).toUpperCase()) ?? cp;
}

/**
 * A representative of the code point's simple case-folding class: lower(upper(c)), using only
 * one-to-one mappings. Two code points match under `(?i)` when their representatives agree, so
 * `k`, `K` and the Kelvin sign U+212A are one class, as are `σ`, `ς` and `Σ`, and `ß`/`ẞ`.
 */
export function caseCanon(cp: number): number {
  if (cp < 0x80) return toLower(cp);
  return toLower(toUpper(cp));
}

/** True when the code point has other case forms, i.e. a literal for it must fold. */
export function hasCaseVariants(cp: number): boolean {
  return caseCanon(cp) !== cp || toUpper(cp) !== cp || toLower(cp) !== cp;
}
