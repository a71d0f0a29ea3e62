/**
 * Compiling a pattern once and running it: the engine's core API, used by the EXPR functions in
 * regex-functions.ts and re-exported from index.ts.
 *
 * Matching semantics where Python `re` and Rust `regex` disagree on patterns both accept:
 * - `$` without `(?m)` also matches before a final `\n`, as in Python (openjd-rs lists this as a
 *   known divergence of its Rust engine, which matches only at the very end).
 * - `\w`, `\s` (and so `\b`) follow Rust's Unicode definitions; see unicode.ts.
 * - `(?i)` uses simple one-to-one case folding (unicode.ts); `İ`/`i` do not fold, as in Rust.
 * - A loop iteration that matches nothing is dropped rather than ending the loop (the Thompson
 *   construction Rust's engines use; Python ends the loop there):
 *   `(a|)+` on "aa" captures "a" (Python "") and `(?:x?|a)+` on "xa" matches "xa" (Python "x").
 *   Only patterns whose repeated part can match the empty string are affected.
 * - `\B` matches in an empty subject (Rust, and Python from 3.14).
 */
import { compile, type Program } from "./compiler";
import { parsePattern } from "./parser";
import { runProgram, type Charge } from "./vm";

export interface CompiledRegex {
  /** Number of capture groups, not counting the whole match. */
  readonly groupCount: number;
  readonly pattern: string;
  /** Named groups `(?P<name>…)` and their numbers. */
  readonly groupNames: ReadonlyMap<string, number>;
}

export interface GroupSpan {
  start: number;
  end: number;
}

export interface MatchResult {
  /** UTF-16 offsets of the whole match in the subject. */
  start: number;
  end: number;
  /** groups[0] is the whole match; a group that did not take part is null. */
  groups: Array<GroupSpan | null>;
}

class Compiled implements CompiledRegex {
  constructor(
    readonly pattern: string,
    readonly groupCount: number,
    readonly groupNames: ReadonlyMap<string, number>,
    readonly program: Program,
  ) {}
}

/** Instructions in the compiled program: what compiling it cost, for budget charging. */
export function programSize(re: CompiledRegex): number {
  return re instanceof Compiled ? re.program.insts.length : 0;
}

/** Parses and compiles a pattern; throws RegexError (message + offset) when it is refused. */
export function compileRegex(pattern: string): CompiledRegex {
  const parsed = parsePattern(pattern);
  return new Compiled(pattern, parsed.groupCount, parsed.groupNames, compile(parsed.root, parsed.groupCount));
}

/**
 * Finds the leftmost-first match starting at `from` ("anchored", like Python's `re.match` at
 * that position) or at or after `from` ("search"). Anchors and `\b` see the whole subject, so
 * `^` never matches at `from` > 0 (Python's `pattern.search(s, pos)` behaves the same way).
 * `charge` is called about once per input position with the number of live threads.
 */
export function execRegex(re: CompiledRegex, subject: string, from: number, mode: "anchored" | "search", charge?: Charge): MatchResult | null {
  return execInternal(re, subject, from, mode, -1, charge);
}

/** execRegex that can also refuse an empty match at `rejectEmptyAt` (see RunOptions). */
export function execInternal(re: CompiledRegex, subject: string, from: number, mode: "anchored" | "search", rejectEmptyAt: number, charge?: Charge): MatchResult | null {
  if (!(re instanceof Compiled)) throw new TypeError("execRegex needs a regex made by compileRegex");
  if (!Number.isInteger(from) || from < 0 || from > subject.length) return null;
  const slots = runProgram(re.program, subject, from, { anchored: mode === "anchored", rejectEmptyAt, charge });
  if (slots === null) return null;
  const groups: Array<GroupSpan | null> = [];
  for (let g = 0; g <= re.groupCount; g++) {
    const start = slots[2 * g] as number;
    const end = slots[2 * g + 1] as number;
    groups.push(start >= 0 && end >= 0 ? { start, end } : null);
  }
  const whole = groups[0] as GroupSpan;
  return { start: whole.start, end: whole.end, groups };
}
