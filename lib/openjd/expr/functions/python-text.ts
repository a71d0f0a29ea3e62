/**
 * Python `str` semantics over code points, built on JavaScript's Unicode property escapes:
 * Python's whitespace set (which differs from JS `\s`), its digit/alpha/cased classes, and the
 * full titlecase mapping and Final_Sigma rule that title() and capitalize() need.
 */

/** Py_UNICODE_ISSPACE: JS `\s` lacks U+001C..U+001F and U+0085 and wrongly adds U+FEFF. */
const SPACE = "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
/** Numeric_Type=Digit code points that are not Nd (superscripts, circled digits…), for isdigit(). */
const DIGIT_NOT_DECIMAL =
  "\\u00b2\\u00b3\\u00b9\\u1369-\\u1371\\u19da\\u2070\\u2074-\\u2079\\u2080-\\u2089\\u2460-\\u2468\\u2474-\\u247c" +
  "\\u2488-\\u2490\\u24ea\\u24f5-\\u24fd\\u24ff\\u2776-\\u277e\\u2780-\\u2788\\u278a-\\u2792" +
  "\\u{10a40}-\\u{10a43}\\u{10e60}-\\u{10e68}\\u{11052}-\\u{1105a}\\u{1f100}-\\u{1f10a}";

export const WHITESPACE_RUN = new RegExp(`[${SPACE}]+`, "u");
const ALL_SPACE = new RegExp(`^[${SPACE}]+$`, "u");
const ALL_DIGIT = new RegExp(`^[\\p{Nd}${DIGIT_NOT_DECIMAL}]+$`, "u");
const ALL_ALPHA = /^\p{L}+$/u;
const ALL_ALNUM = /^[\p{L}\p{N}]+$/u;
// eslint-disable-next-line no-control-regex -- ASCII starts at NUL
const ALL_ASCII = /^[\x00-\x7f]*$/;
const LOWER_OR_TITLE = /[\p{Lowercase}\p{Lt}]/u;
const UPPER_OR_TITLE = /[\p{Uppercase}\p{Lt}]/u;
const UPPER = /\p{Uppercase}/u;
const LOWER = /\p{Lowercase}/u;
const CASED = /^\p{Cased}$/u;
const CASE_IGNORABLE = /^\p{Case_Ignorable}$/u;

export const isSpaceChar = (c: string): boolean => ALL_SPACE.test(c);

export const PREDICATES = {
  isdigit: (s: string) => ALL_DIGIT.test(s),
  isalpha: (s: string) => ALL_ALPHA.test(s),
  isalnum: (s: string) => ALL_ALNUM.test(s),
  isspace: (s: string) => ALL_SPACE.test(s),
  isascii: (s: string) => ALL_ASCII.test(s),
  // At least one cased character, and none of the opposite case or titlecase (CPython's rule).
  isupper: (s: string) => UPPER.test(s) && !LOWER_OR_TITLE.test(s),
  islower: (s: string) => LOWER.test(s) && !UPPER_OR_TITLE.test(s),
} as const;

/** Titlecase mappings that are not "uppercase, then the rest lowered" (SpecialCasing + Lt letters). */
const TITLE_EXCEPTIONS = new Map<number, string>([
  [0x0149, "\u02bcN"],
  [0x01c4, "\u01c5"],
  [0x01c5, "\u01c5"],
  [0x01c6, "\u01c5"],
  [0x01c7, "\u01c8"],
  [0x01c8, "\u01c8"],
  [0x01c9, "\u01c8"],
  [0x01ca, "\u01cb"],
  [0x01cb, "\u01cb"],
  [0x01cc, "\u01cb"],
  [0x01f1, "\u01f2"],
  [0x01f2, "\u01f2"],
  [0x01f3, "\u01f2"],
  [0x1fb2, "\u1fba\u0345"],
  [0x1fb3, "\u1fbc"],
  [0x1fb4, "\u0386\u0345"],
  [0x1fb7, "\u0391\u0342\u0345"],
  [0x1fbc, "\u1fbc"],
  [0x1fc2, "\u1fca\u0345"],
  [0x1fc3, "\u1fcc"],
  [0x1fc4, "\u0389\u0345"],
  [0x1fc7, "\u0397\u0342\u0345"],
  [0x1fcc, "\u1fcc"],
  [0x1ff2, "\u1ffa\u0345"],
  [0x1ff3, "\u1ffc"],
  [0x1ff4, "\u038f\u0345"],
  [0x1ff7, "\u03a9\u0342\u0345"],
  [0x1ffc, "\u1ffc"],
]);

/** Python's full titlecase mapping of one code point (ToTitleFull). */
function titlecase(c: string): string {
  const cp = c.codePointAt(0) as number;
  const exception = TITLE_EXCEPTIONS.get(cp);
  if (exception !== undefined) return exception;
  // Georgian Mkhedruli letters are their own titlecase; Greek with prosgegrammeni title to the Lt form.
  if ((cp >= 0x10d0 && cp <= 0x10fa) || (cp >= 0x10fd && cp <= 0x10ff)) return c;
  if (cp >= 0x1f80 && cp <= 0x1faf) return String.fromCodePoint(cp | 0x8);
  const upper = [...c.toUpperCase()];
  return (upper[0] as string) + upper.slice(1).join("").toLowerCase();
}

/** Lowercase of `chars[i]`, applying Final_Sigma to U+03A3 from its context as CPython does. */
function lowerAt(chars: readonly string[], i: number): string {
  const c = chars[i] as string;
  if (c !== "\u03a3") return c.toLowerCase();
  let j = i - 1;
  while (j >= 0 && CASE_IGNORABLE.test(chars[j] as string)) j--;
  let final = j >= 0 && CASED.test(chars[j] as string);
  if (final) {
    let k = i + 1;
    while (k < chars.length && CASE_IGNORABLE.test(chars[k] as string)) k++;
    final = k === chars.length || !CASED.test(chars[k] as string);
  }
  return final ? "\u03c2" : "\u03c3";
}

/** str.title(): a letter after a cased character is lowered, any other is titlecased ("1st" → "1St"). */
export function pythonTitle(s: string): string {
  const chars = [...s];
  let previousCased = false;
  return chars
    .map((c, i) => {
      const mapped = previousCased ? lowerAt(chars, i) : titlecase(c);
      previousCased = CASED.test(c);
      return mapped;
    })
    .join("");
}

/** str.capitalize() (Python ≥ 3.8): first character titlecased, the rest lowered. */
export function pythonCapitalize(s: string): string {
  const chars = [...s];
  if (chars.length === 0) return s;
  return (
    titlecase(chars[0] as string) +
    chars
      .slice(1)
      .map((_, i) => lowerAt(chars, i + 1))
      .join("")
  );
}

/** Number of code points in the first `utf16Index` code units of `s`. */
export function codePointOffset(s: string, utf16Index: number): number {
  let n = 0;
  for (let i = 0; i < utf16Index; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < utf16Index) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** Number of code points in `s`, as Python's len() counts them (a lone surrogate is one). */
export function codePointCount(s: string): number {
  // Most strings have no surrogates: then the UTF-16 length is the code point count.
  return /[\ud800-\udbff]/.test(s) ? codePointOffset(s, s.length) : s.length;
}

/** Strips code points of `chars` (or Python whitespace when null) from the chosen ends. */
export function pythonStrip(s: string, chars: string | null, left: boolean, right: boolean): string {
  const strip = chars === null ? isSpaceChar : (c: string) => chars.includes(c);
  const cps = [...s];
  let start = 0;
  let end = cps.length;
  if (left) while (start < end && strip(cps[start] as string)) start++;
  if (right) while (end > start && strip(cps[end - 1] as string)) end--;
  return start === 0 && end === cps.length ? s : cps.slice(start, end).join("");
}
