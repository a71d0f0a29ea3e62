import { describe, expect, it } from "vitest";
import { compileRegex, execRegex, type MatchResult } from "./index";

/** Whole match then groups (null when a group did not take part), or null. */
function groups(pattern: string, subject: string, mode: "anchored" | "search" = "search"): Array<string | null> | null {
  const m = execRegex(compileRegex(pattern), subject, 0, mode);
  return m === null ? null : m.groups.map((g) => (g === null ? null : subject.slice(g.start, g.end)));
}

describe("execRegex", () => {
  it("reports UTF-16 offsets of the match and every group", () => {
    const m = execRegex(compileRegex("(b)(x)?(😀+)"), "a😀b😀😀c", 0, "search");
    expect(m).toEqual<MatchResult>({
      start: 3,
      end: 8,
      groups: [{ start: 3, end: 8 }, { start: 3, end: 4 }, null, { start: 4, end: 8 }],
    });
  });

  it("anchors at `from` or searches onwards from it; anchors still see the whole subject", () => {
    const re = compileRegex("b+");
    expect(execRegex(re, "abbab", 0, "anchored")).toBeNull();
    expect(execRegex(re, "abbab", 1, "anchored")).toMatchObject({ start: 1, end: 3 });
    expect(execRegex(re, "abbab", 3, "search")).toMatchObject({ start: 4, end: 5 });
    expect(execRegex(compileRegex("^b"), "ab", 1, "search")).toBeNull();
    expect(execRegex(compileRegex("\\bb"), "ab", 1, "anchored")).toBeNull();
    expect(execRegex(re, "abbab", 6, "search")).toBeNull();
  });

  it("refuses a regex it did not compile", () => {
    expect(() => execRegex({ groupCount: 0, pattern: "a", groupNames: new Map() }, "a", 0, "search")).toThrow(TypeError);
  });
});

describe("matching semantics", () => {
  // [pattern, subject, whole match then groups]
  it.each<[string, string, Array<string | null> | null]>([
    // leftmost-first alternation and lazy quantifiers
    ["a|ab", "ab", ["a"]],
    ["ab|a", "ab", ["ab"]],
    ["a+?", "aaa", ["a"]],
    ["a*?b", "aaab", ["aaab"]],
    ["(a+?)(a*)", "aaa", ["aaa", "a", "aa"]],
    ["(a??)(a*)", "aaa", ["aaa", "", "aaa"]],
    ["(a+)(a+)", "aaaa", ["aaaa", "aaa", "a"]],
    ["(.*?),", "a,b,c", ["a,", "a"]],
    ["(.*),", "a,b,c", ["a,b,", "a,b"]],
    ["x*", "aaa", [""]],
    // captures: unmatched groups, last iteration wins
    ["(a)|(b)", "b", ["b", null, "b"]],
    ["(a)?b", "b", ["b", null]],
    ["(a|b)*", "abab", ["abab", "b"]],
    ["(?:(a)|b)+", "ab", ["ab", "a"]],
    ["(a|(b))+", "ba", ["ba", "a", "b"]],
    ["((a)|b)+", "ab", ["ab", "b", "a"]],
    ["(a){3}", "aaa", ["aaa", "a"]],
    ["(a*)*", "b", ["", ""]],
    // an iteration that matches nothing is dropped, as in Rust (Python ends the loop there)
    ["(a|)+", "aa", ["aa", "a"]],
    ["(?:x?|a)+", "xa", ["xa"]],
    ["(ab){0}", "ab", ["", null]],
    ["(a)(?:b(c))?", "ab", ["a", "a", null]],
    ["(a)(?:b(c)?)?", "ab", ["ab", "a", null]],
    // anchors and multi-line
    ["^a", "ba", null],
    ["a$", "ba", ["a"]],
    ["a$", "a\n", ["a"]],
    ["a$", "a\nb", null],
    ["^$", "", [""]],
    ["(?m)^b", "a\nb", ["b"]],
    ["(?m)a$", "a\nb", ["a"]],
    ["(?m)^\\w+$", "x y\nzz\n", ["zz"]],
    ["\\Ab", "a\nb", null],
    ["(?m)\\Ab", "a\nb", null],
    ["\\bb", "a b", ["b"]],
    ["\\Bb", "a b ab", ["b"]],
    // dot
    [".+", "ab\ncd", ["ab"]],
    ["(?s).+", "ab\ncd", ["ab\ncd"]],
    ["..", "😀x", ["😀x"]],
  ])("%j on %j gives %j", (pattern, subject, expected) => {
    expect(groups(pattern, subject)).toEqual(expected);
  });
});

describe("Unicode", () => {
  it.each<[string, string, string | null]>([
    ["\\d", "x٣", "٣"],
    ["\\d+", "١٢٣ 456", "١٢٣"],
    ["\\D+", "٣ab٤", "ab"],
    ["\\w+", "naïve", "naïve"],
    ["\\w", "é", "é"],
    ["\\w+", "日本語!", "日本語"],
    ["\\w", "\u0301", "\u0301"],
    ["\\W+", "ab—!cd", "—!"],
    ["\\s+", "a\u00a0\u2003b", "\u00a0\u2003"],
    ["\\s", "\u2028", "\u2028"],
    ["\\S+", " é ", "é"],
    ["[\\d]+", "x٣٤", "٣٤"],
    ["[^\\w]+", "ab, cd", ", "],
    ["\\bé", "café é", "é"],
    ["x\\b", "x\u0301", null],
    ["[😀-😂]+", "a😁😂b", "😁😂"],
  ])("%j on %j finds %j", (pattern, subject, expected) => {
    const m = groups(pattern, subject);
    expect(m === null ? null : m[0]).toBe(expected);
  });
});

describe("case-insensitive matching", () => {
  it.each<[string, string, string | null]>([
    ["(?i)hello", "HeLLo", "HeLLo"],
    ["(?i)[a-z]+", "HeLLo1", "HeLLo"],
    ["(?i)[^a]+", "AaBb", "Bb"],
    ["(?i)k", "\u212a", "\u212a"],
    ["(?i)\u212a", "k", "k"],
    ["(?i)[a-z]", "\u212a", "\u212a"],
    ["(?i)s", "ſ", "ſ"],
    ["(?i)σ+", "Σσς", "Σσς"],
    ["(?i)[ς]+", "Σσ", "Σσ"],
    ["(?i)é", "É", "É"],
    ["(?i)[à-ÿ]+", "ÀÉÎ", "ÀÉÎ"],
    ["(?i)ß", "ẞ", "ẞ"],
    ["(?i)ǅ+", "Ǆǅǆ", "Ǆǅǆ"],
    ["(?i)\\d", "٣", "٣"],
    ["(?i:a)b", "AB", null],
    ["hello", "HELLO", null],
  ])("%j on %j finds %j", (pattern, subject, expected) => {
    const m = groups(pattern, subject);
    expect(m === null ? null : m[0]).toBe(expected);
  });
});

describe("adversarial patterns run in linear time and are charged to the budget", () => {
  const n = 10_000;
  // Each of these takes exponential or high-polynomial time in a backtracking engine.
  it.each<[string, string, string | null]>([
    ["(a+)+$", "a".repeat(n) + "!", null],
    ["(a+)+$", "a".repeat(n), "a".repeat(n)],
    ["(a|a)*b", "a".repeat(n), null],
    ["(a|aa)+$", "a".repeat(n - 1) + "b", null],
    ["(x+x+)+y", "x".repeat(n), null],
    ["(x+x+)+y", "x".repeat(n) + "y", "x".repeat(n) + "y"],
    ["(.*a){12}", "a".repeat(n), "a".repeat(n)],
    ["(.*a){12}", "b".repeat(n), null],
    ["(\\w+\\s?)+$", "word ".repeat(n / 5) + "!", null],
    ["(?i)(a|A|\\w)*z", "a".repeat(n), null],
  ])("%j against %#", (pattern, subject, expected) => {
    let operations = 0;
    const started = Date.now();
    const m = execRegex(compileRegex(pattern), subject, 0, "search", (k) => (operations += k));
    expect(m === null ? null : subject.slice(m.start, m.end)).toBe(expected);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(operations).toBeGreaterThanOrEqual(subject.length);
    expect(operations).toBeLessThan(40 * (subject.length + 1));
  });

  it("charges in proportion to the input length", () => {
    const re = compileRegex("(a+)+$");
    const cost = (length: number): number => {
      let operations = 0;
      execRegex(re, "a".repeat(length) + "!", 0, "search", (k) => (operations += k));
      return operations;
    };
    const ratio = cost(10_000) / cost(1_000);
    expect(ratio).toBeGreaterThan(8);
    expect(ratio).toBeLessThan(12);
  });

  it("stops as soon as the budget callback throws", () => {
    const limit = 5_000;
    let operations = 0;
    const charge = (k: number): void => {
      operations += k;
      if (operations > limit) throw new Error("operation budget exhausted");
    };
    expect(() => execRegex(compileRegex("(a|a)*b"), "a".repeat(n), 0, "search", charge)).toThrow("operation budget exhausted");
    expect(operations).toBeLessThan(limit + 100);
  });
});
