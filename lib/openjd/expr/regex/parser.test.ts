import { describe, expect, it } from "vitest";
import { compileRegex, execRegex, REGEX_LIMITS, RegexError } from "./index";

/** The whole match of `pattern` searched in `subject`, or null. */
function find(pattern: string, subject: string): string | null {
  const m = execRegex(compileRegex(pattern), subject, 0, "search");
  return m === null ? null : subject.slice(m.start, m.end);
}

function refusal(pattern: string): RegexError {
  try {
    compileRegex(pattern);
  } catch (error) {
    if (error instanceof RegexError) return error;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(pattern)} to be refused`);
}

describe("accepted syntax", () => {
  // [pattern, subject, whole match]
  it.each<[string, string, string | null]>([
    ["abc", "xabcx", "abc"],
    [".", "\n", null],
    ["(?s).", "\n", "\n"],
    ["a.c", "a😀c", "a😀c"],
    ["[a-c]+", "xxbcaz", "bca"],
    ["[^a-c]+", "abxyc", "xy"],
    ["[]a]+", "x]a]", "]a]"],
    ["[^]a]+", "a]bc", "bc"],
    ["[a-]+", "x-a-", "-a-"],
    ["[-a]+", "x-a", "-a"],
    ["[\\d\\s]+", "a1 2\t3b", "1 2\t3"],
    ["[\\w.]+", "!é.x!", "é.x"],
    ["[\\]\\[\\-\\\\]+", "a][-\\b", "][-\\"],
    ["[\\x00-\\x7f]+", "abcé", "abc"],
    ["\\x41\\u00e9\\U0001F600", "Aé😀", "Aé😀"],
    ["\\t\\n\\r\\f\\v\\a", "\t\n\r\f\v\x07", "\t\n\r\f\v\x07"],
    ["\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\^\\$\\\\", ".*+?()[]{}|^$\\", ".*+?()[]{}|^$\\"],
    ["\\-\\&\\~\\#\\ \\!\\@\\%\\,\\:\\;\\=\\/\\_", "-&~# !@%,:;=/_", "-&~# !@%,:;=/_"],
    ["}", "a}", "}"],
    ["]", "a]", "]"],
    ["a{3}", "aaaa", "aaa"],
    ["a{2,}", "aaaaa", "aaaaa"],
    ["a{2,3}", "aaaaa", "aaa"],
    ["a{2,3}?", "aaaaa", "aa"],
    ["a{0}b", "ab", "b"],
    ["x{1000}", "x".repeat(1001), "x".repeat(1000)],
    ["a*?b", "aab", "aab"],
    ["a??", "a", ""],
    ["a|", "b", ""],
    ["|a", "a", ""],
    ["()", "a", ""],
    ["(?:)", "a", ""],
    ["(?P<year>\\d{4})", "in 2024", "2024"],
    ["(?P<é_1>x)", "x", "x"],
    ["(?i)ABC", "xabcx", "abc"],
    ["(?i:a)b", "AB Ab", "Ab"],
    ["(?i)a(?-i:b)", "AB Ab", "Ab"],
    ["(?i-s:a.)", "A\nAx", "Ax"],
    ["(?u)\\w", "é", "é"],
    ["(?i)(?s)a.", "A\n", "A\n"],
    ["(?m)^b$", "a\nb\nc", "b"],
    ["(?x) a b # a comment\n c", "abc", "abc"],
    ["(?x)a\\ b\\#", "a b#", "a b#"],
    ["(?x)a +", "aaa", "aaa"],
    ["(?x)(?: a | b )+", "abba", "abba"],
    ["\\Aab", "abab", "ab"],
    ["\\bfoo\\b", "afoo foo", "foo"],
    ["\\Boo\\B", "foo fooo", "oo"],
  ])("%j on %j finds %j", (pattern, subject, expected) => {
    expect(find(pattern, subject)).toBe(expected);
  });

  it("numbers groups by their opening parenthesis and records names", () => {
    const re = compileRegex("(a(?P<inner>b))(?:c)(d)");
    expect(re.groupCount).toBe(3);
    expect([...re.groupNames]).toEqual([["inner", 2]]);
    expect(re.pattern).toBe("(a(?P<inner>b))(?:c)(d)");
  });

  it("accepts the longest allowed pattern and nesting", () => {
    expect(() => compileRegex("a".repeat(REGEX_LIMITS.patternLength))).not.toThrow();
    const depth = REGEX_LIMITS.nesting;
    expect(() => compileRegex("(".repeat(depth) + "a" + ")".repeat(depth))).not.toThrow();
  });
});

describe("refused syntax, located", () => {
  // [pattern, offset, part of the message]
  it.each<[string, number, string]>([
    ["", 0, "empty"],
    ["\\1", 0, "backreferences"],
    ["(a)\\1", 3, "backreferences"],
    ["\\0", 0, "octal"],
    ["(?P=n)", 0, "named backreferences"],
    ["\\g<1>", 0, "backreferences"],
    ["\\k<n>", 0, "named backreferences"],
    ["x(?=a)", 1, "lookahead"],
    ["(?!a)", 0, "negative lookahead"],
    ["(?<=a)", 0, "lookbehind"],
    ["(?<!a)", 0, "negative lookbehind"],
    ["(?(1)a|b)", 0, "conditional"],
    ["(?#note)", 0, "comments"],
    ["(?>a)", 0, "atomic"],
    ["a*+", 2, "possessive"],
    ["a{2}+", 4, "possessive"],
    ["a\\Z", 1, "\\Z"],
    ["\\z", 0, "\\z"],
    ["\\G", 0, "\\G"],
    ["(ab", 0, "unterminated group"],
    ["ab)", 2, "unbalanced parenthesis"],
    ["x|*", 2, "nothing to repeat"],
    ["(+)", 1, "nothing to repeat"],
    ["{2}", 0, "nothing to repeat"],
    ["^*", 1, "assertion cannot be repeated"],
    ["\\b+", 2, "assertion cannot be repeated"],
    ["a**", 2, "multiple repeat"],
    ["a{2}{3}", 4, "multiple repeat"],
    ["(?x)a* ?", 7, "multiple repeat"],
    ["a{1001}", 2, "above 1000"],
    ["a{1,5000}", 4, "above 1000"],
    ["a{3,2}", 1, "minimum exceeds the maximum"],
    ["a{,3}", 1, "{0,m}"],
    ["a{", 1, "literal '{'"],
    ["x{a}", 1, "literal '{'"],
    ["(a{1000}){1000}", 9, "more than 100000 instructions"],
    ["[", 0, "unterminated character class"],
    ["a[]", 1, "unterminated character class"],
    ["[z-a]", 1, "bad character range"],
    ["[a-\\d]", 2, "cannot end a range"],
    ["[\\d-z]", 3, "'-' inside a class"],
    ["[a-b-c]", 4, "'-' inside a class"],
    ["[[:alpha:]]", 1, "unescaped '['"],
    ["[a&&b]", 2, "'&&'"],
    ["[a~~b]", 2, "'~~'"],
    ["[--]", 1, "'--'"],
    ["(?x)[a b]", 6, "under (?x)"],
    ["(?x)[#]", 5, "under (?x)"],
    ["(?x)a\u00a0b", 5, "non-ASCII whitespace"],
    ["[\\b]", 1, "backspace"],
    ["[\\A]", 1, "inside a character class"],
    ["\\p{L}", 0, "Unicode property"],
    ["[\\P{L}]", 1, "Unicode property"],
    ["\\x{41}", 0, "brace escape"],
    ["\\u{41}", 0, "brace escape"],
    ["\\U{41}", 0, "brace escape"],
    ["\\x4", 0, "2 hex digits"],
    ["\\u00e", 0, "4 hex digits"],
    ["\\U00110000", 0, "beyond U+10FFFF"],
    ["\\ud800", 0, "lone surrogate"],
    ["ab\\q", 2, "unknown escape \\q"],
    ["\\e", 0, "unknown escape"],
    ["\\N{DASH}", 0, "named characters"],
    ["\\<", 0, "Rust only"],
    ["\\é", 0, "non-ASCII"],
    ["abc\\", 3, "lone backslash"],
    ["a(?i)b", 1, "start of the pattern"],
    ["a|(?s)b", 2, "start of the pattern"],
    ["(?-i)a", 0, "scoped group"],
    ["(?U)a", 2, "unsupported inline flag 'U'"],
    ["(?R)a", 2, "unsupported inline flag 'R'"],
    ["(?a)a", 2, "unsupported inline flag 'a'"],
    ["(?-u:a)", 3, "cannot be turned off"],
    ["(?i-i:a)", 4, "both on and off"],
    ["(?-:a)", 3, "missing flag"],
    ["(?)", 0, "unknown group extension"],
    ["(?<n>a)", 0, "(?P<name>"],
    ["(?P<1a>x)", 4, "bad group name"],
    ["(?P<a.b>x)", 4, "bad group name"],
    ["(?P<n>a)(?P<n>b)", 12, "used twice"],
    ["(?P<n", 0, "unterminated group name"],
    ["(?im", 0, "unterminated flag group"],
  ])("%j is refused at %i (%s)", (pattern, offset, message) => {
    const error = refusal(pattern);
    expect(error.offset).toBe(offset);
    expect(error.message).toContain(message);
  });

  it("refuses patterns that are too long or too deeply nested", () => {
    expect(refusal("a".repeat(REGEX_LIMITS.patternLength + 1)).message).toContain("longer than");
    const depth = REGEX_LIMITS.nesting + 1;
    const error = refusal("(".repeat(depth) + "a" + ")".repeat(depth));
    expect(error.message).toContain("nested deeper");
    expect(error.offset).toBe(depth - 1);
  });

  it("refuses an expansion that crosses the program limit in a sequence, at the item that crosses it", () => {
    const error = refusal("(?:a{1000})".repeat(101));
    expect(error.message).toContain("instructions");
    expect(error.offset).toBe(11 * 100);
  });
});
