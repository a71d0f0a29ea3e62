/**
 * The one error of the regex engine, and the bounds that keep compiling and matching cheap for
 * any pattern a template can contain (spec digest §14.5; EXPR design constraints 2–3).
 */

export class RegexError extends Error {
  constructor(
    message: string,
    /** Where in the pattern (or replacement) the problem is, in UTF-16 code units. */
    readonly offset: number,
  ) {
    super(`${message} (at offset ${offset})`);
    this.name = "RegexError";
  }
}

export const REGEX_LIMITS = {
  /** Longest pattern accepted, in UTF-16 code units. */
  patternLength: 10_000,
  /** Largest n or m in `{n}`, `{n,}`, `{n,m}`. */
  repetitionCount: 1_000,
  /** Most instructions a pattern may compile to; bounds memory and the cost of one input step. */
  programSize: 100_000,
  /** Deepest group nesting (Rust's `regex` refuses more than 250 levels too). */
  nesting: 250,
} as const;
