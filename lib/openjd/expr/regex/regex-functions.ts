/**
 * EXPR's six regex functions on plain strings (spec §2.2.5); the evaluator wraps them in values.
 *
 * Decisions where the two reference implementations differ (openjd-model-for-python calls
 * Python `re`; openjd-rs calls Rust `regex`):
 * - A group that did not take part in the match is `""`, as openjd-rs returns: EXPR lists
 *   cannot hold null (`list[string]`), and Python's own `findall` already uses `""` for it.
 * - Iteration after an empty match follows Python 3.7+ (findall/sub/split): the next match may
 *   start where the empty one was if it is not empty, and an empty match right after a
 *   non-empty one is allowed — `re_sub("abxd", "x*", "-")` is `-a-b--d-` (Rust gives `-a-b-d-`).
 * - `re_split` returns the text of every group between the pieces, like Python's `re.split`
 *   (openjd-rs leaves groups out); maxsplit 0 means no limit and a negative one means no split.
 * - `re_sub`'s replacement is literal text (spec); `\1`, `\g<…>`, `$1`, `${…}` are refused.
 * - `re_escape` escapes what Python 3.7+'s `re.escape` does, all of which the dialect accepts.
 */
import { compileRegex, execInternal, programSize, type CompiledRegex, type MatchResult, type GroupSpan } from "./compiled-regex";
import { RegexError } from "./regex-error";
import type { Charge } from "./vm";

/** Match then groups, or null when there is no match. */
export function reMatch(subject: string, pattern: string, charge?: Charge): string[] | null {
  return firstMatch(subject, pattern, "anchored", charge);
}

export function reSearch(subject: string, pattern: string, charge?: Charge): string[] | null {
  return firstMatch(subject, pattern, "search", charge);
}

/**
 * Every match (no group), the group's text (one group), or a list of the groups' texts per
 * match (two or more groups, spec `list[list[string]]`); `compileRegex(p).groupCount` tells
 * which shape an empty result has.
 */
export function reFindall(subject: string, pattern: string, charge?: Charge): string[] | string[][] {
  const re = compiled(pattern, charge);
  const found = [...matches(re, subject, charge)];
  if (re.groupCount === 0) return found.map((m) => subject.slice(m.start, m.end));
  if (re.groupCount === 1) return found.map((m) => text(subject, m.groups[1]));
  return found.map((m) => m.groups.slice(1).map((g) => text(subject, g)));
}

export function reSub(subject: string, pattern: string, repl: string, charge?: Charge): string {
  const re = compiled(pattern, charge);
  checkReplacement(repl);
  const replCost = Math.ceil(repl.length / 256);
  let out = "";
  let last = 0;
  for (const m of matches(re, subject, charge)) {
    charge?.(replCost);
    out += subject.slice(last, m.start) + repl;
    last = m.end;
  }
  return out + subject.slice(last);
}

export function reSplit(subject: string, pattern: string, maxsplit = 0, charge?: Charge): string[] {
  const re = compiled(pattern, charge);
  if (maxsplit < 0) return [subject];
  const pieces: string[] = [];
  let last = 0;
  let splits = 0;
  for (const m of matches(re, subject, charge)) {
    pieces.push(subject.slice(last, m.start));
    for (let g = 1; g <= re.groupCount; g++) pieces.push(text(subject, m.groups[g]));
    last = m.end;
    if (maxsplit > 0 && ++splits >= maxsplit) break;
  }
  pieces.push(subject.slice(last));
  return pieces;
}

const ESCAPED = new Set("()[]{}?*+-|^$\\.&~# \t\n\r\v\f");

export function reEscape(s: string): string {
  let out = "";
  for (const ch of s) out += ESCAPED.has(ch) ? `\\${ch}` : ch;
  return out;
}

/** Refuses group references, which Python or Rust would expand; located in the replacement. */
function checkReplacement(repl: string): void {
  for (let i = 0; i + 1 < repl.length; i++) {
    const c = repl[i];
    const d = repl[i + 1] as string;
    if (c === "\\" && (isDigit(d) || (d === "g" && repl[i + 2] === "<"))) {
      throw new RegexError("group references (\\1, \\g<…>) in the replacement are not supported; it is literal text", i);
    }
    if (c === "$" && (isDigit(d) || d === "{")) {
      throw new RegexError("group references ($1, ${…}) in the replacement are not supported; it is literal text", i);
    }
  }
}

function isDigit(ch: string): boolean {
  return ch >= "0" && ch <= "9";
}

function firstMatch(subject: string, pattern: string, mode: "anchored" | "search", charge?: Charge): string[] | null {
  const re = compiled(pattern, charge);
  const m = execInternal(re, subject, 0, mode, -1, charge);
  return m === null ? null : m.groups.map((g) => text(subject, g));
}

/** Successive matches with Python's rules for empty matches (see the module comment). */
function* matches(re: CompiledRegex, subject: string, charge?: Charge): Generator<MatchResult> {
  let pos = 0;
  let rejectEmptyAt = -1;
  while (pos <= subject.length) {
    const m = execInternal(re, subject, pos, "search", rejectEmptyAt, charge);
    if (m === null) return;
    charge?.(1);
    yield m;
    rejectEmptyAt = m.start === m.end ? m.end : -1;
    pos = m.end;
  }
}

function text(subject: string, group: GroupSpan | null | undefined): string {
  return group ? subject.slice(group.start, group.end) : "";
}

/**
 * Compiled patterns are memoised (a template often applies one pattern to every element of a
 * list). The charge does not depend on the cache, so operation counts stay deterministic.
 */
const CACHE_SIZE = 32;
const cache = new Map<string, CompiledRegex>();

function compiled(pattern: string, charge?: Charge): CompiledRegex {
  let re = cache.get(pattern);
  if (re === undefined) {
    re = compileRegex(pattern);
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  } else {
    cache.delete(pattern);
  }
  cache.set(pattern, re);
  charge?.(Math.ceil((pattern.length + programSize(re)) / 256));
  return re;
}
