/**
 * Syntax tree of a parsed regex. Flags are already applied: a literal knows whether it folds
 * case, a dot whether it matches newline, an anchor whether it is multi-line. Offsets are UTF-16
 * code units into the pattern, for errors found after parsing (program size).
 */

export interface Flags {
  /** `(?i)` case-insensitive. */
  readonly i: boolean;
  /** `(?m)` `^`/`$` match at line boundaries. */
  readonly m: boolean;
  /** `(?s)` `.` matches `\n`. */
  readonly s: boolean;
  /** `(?x)` verbose: whitespace and `#` comments outside classes are ignored. */
  readonly x: boolean;
}

export const NO_FLAGS: Flags = { i: false, m: false, s: false, x: false };

export type PerlClass = "d" | "w" | "s";

export type ClassItem =
  /** A code point range, inclusive; a single character has `lo === hi`. */
  | { kind: "range"; lo: number; hi: number }
  /** `\d \w \s`, or their negations `\D \W \S`. */
  | { kind: "perl"; which: PerlClass; negated: boolean };

export type Assertion =
  /** `\A`, and `^` without `(?m)`. */
  | "textStart"
  /** `$` without `(?m)`: the end, or just before a final `\n` (Python's rule). */
  | "textEnd"
  /** `^` under `(?m)`: the start or just after a `\n`. */
  | "lineStart"
  /** `$` under `(?m)`: the end or just before a `\n`. */
  | "lineEnd"
  | "wordBoundary"
  | "notWordBoundary";

export type RegexNode =
  | { kind: "empty"; offset: number }
  | { kind: "literal"; cp: number; fold: boolean; offset: number }
  | { kind: "dot"; dotAll: boolean; offset: number }
  | { kind: "class"; items: ClassItem[]; negated: boolean; fold: boolean; offset: number }
  | { kind: "assert"; assertion: Assertion; offset: number }
  /** `index` is the capture group number, or null for `(?:…)` and scoped-flag groups. */
  | { kind: "group"; index: number | null; body: RegexNode; offset: number }
  | { kind: "concat"; items: RegexNode[]; offset: number }
  | { kind: "alt"; branches: RegexNode[]; offset: number }
  /** `max` is `Infinity` for `*`, `+`, `{n,}`; `quantifierOffset` points at the operator. */
  | { kind: "repeat"; min: number; max: number; greedy: boolean; body: RegexNode; offset: number; quantifierOffset: number };

export interface ParsedPattern {
  root: RegexNode;
  /** Number of capture groups, not counting the whole match. */
  groupCount: number;
  groupNames: Map<string, number>;
}
