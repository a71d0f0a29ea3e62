import { describe, expect, it } from "vitest";
import { RegexError, reEscape, reFindall, reMatch, reSearch, reSplit, reSub } from "./index";

describe("the spec's examples (Expression Language §2.2.5)", () => {
  it("re_search / re_match", () => {
    expect(reSearch("asset_v042_final.abc", "_v(\\d+)")).toEqual(["_v042", "042"]);
    expect(reMatch("v042_final", "v(\\d+)")).toEqual(["v042", "042"]);
    expect(reMatch("asset_v042", "v(\\d+)")).toBeNull();
    expect(reSearch("render_001.exr", "_\\d+\\.exr$")).not.toBeNull();
    expect(reSearch("hello123", "\\d+")).toEqual(["123"]);
    expect(reSearch("shot010_v003", "shot(\\d+)_v(\\d+)")).toEqual(["shot010_v003", "010", "003"]);
    expect(reSearch("diffuse.1023.tx", "\\.(10\\d{2})\\.")?.[1]).toBe("1023");
  });

  it("re_findall, re_sub, re_escape", () => {
    expect(reFindall("shot010_shot020_shot035_comp.nk", "shot(\\d+)")).toEqual(["010", "020", "035"]);
    expect(reFindall("shot010_shot020_shot035_comp.nk", "shot\\d+")).toEqual(["shot010", "shot020", "shot035"]);
    expect(reFindall("v1.2.3 and v4.5.6", "v(\\d+)\\.(\\d+)\\.(\\d+)")).toEqual([
      ["1", "2", "3"],
      ["4", "5", "6"],
    ]);
    expect(reSub("frame_001", "\\d+", "002")).toBe("frame_002");
    expect(reEscape("file[1].txt")).toBe("file\\[1\\]\\.txt");
  });
});

describe("reMatch and reSearch", () => {
  it.each<[string, string, string[] | null, string[] | null]>([
    // [subject, pattern, re_match, re_search]
    ["abc", "b", null, ["b"]],
    ["abc", "a", ["a"], ["a"]],
    ["b", "(a)?b", ["b", ""], ["b", ""]],
    ["xb", "(a)|(b)", null, ["b", "", "b"]],
    ["", "x*", [""], [""]],
    ["a\nb", "^b", null, null],
    ["a\nb", "(?m)^b", null, ["b"]],
  ])("%j with %j", (subject, pattern, match, search) => {
    expect(reMatch(subject, pattern)).toEqual(match);
    expect(reSearch(subject, pattern)).toEqual(search);
  });
});

describe("reFindall", () => {
  it.each<[string, string, string[] | string[][]]>([
    ["a1b22c333", "\\d+", ["1", "22", "333"]],
    ["abc", "\\d", []],
    ["abc", "(\\d)", []],
    ["abc", "(\\d)(x)", []],
    ["axb", "x*", ["", "x", "", ""]],
    ["a", "|a", ["", "a", ""]],
    [
      "a ab",
      "(a)(b)?",
      [
        ["a", ""],
        ["a", "b"],
      ],
    ],
    [
      "k=1, j=22",
      "(\\w)=(\\d+)",
      [
        ["k", "1"],
        ["j", "22"],
      ],
    ],
    ["a-b c", "(?:(-)|\\s)", ["-", ""]],
    ["a\nb\n", "(?m)^", ["", "", ""]],
    ["ab", "(?:)", ["", "", ""]],
  ])("%j with %j", (subject, pattern, expected) => {
    expect(reFindall(subject, pattern)).toEqual(expected);
  });
});

describe("reSub", () => {
  it.each<[string, string, string, string]>([
    ["abc", "x*", "-", "-a-b-c-"],
    ["abxd", "x*", "-", "-a-b--d-"],
    ["ab cd", "\\b", "|", "|ab| |cd|"],
    ["a\n", "$", "X", "aX\nX"],
    ["aaa", "a", "", ""],
    ["a.b.c", "\\.", "/", "a/b/c"],
    ["x", "y", "z", "x"],
    ["Hello World", "(?i)o", "0", "Hell0 W0rld"],
    // the replacement is literal text: no escapes, no group references
    ["a1", "\\d", "\\n", "a\\n"],
    ["a1", "\\d", "\\\\", "a\\\\"],
    ["a1", "\\d", "$", "a$"],
    ["a1", "\\d", "$x \\g", "a$x \\g"],
  ])("%j, %j → %j gives %j", (subject, pattern, repl, expected) => {
    expect(reSub(subject, pattern, repl)).toBe(expected);
  });

  it.each<[string, number]>([
    ["\\1", 0],
    ["x\\9", 1],
    ["\\g<1>", 0],
    ["\\g<name>", 0],
    ["$1", 0],
    ["ab${1}", 2],
    ["${name}", 0],
    ["\\\\1", 1],
  ])("refuses the group reference in %j at %i", (repl, offset) => {
    const call = (): string => reSub("abc", "b", repl);
    expect(call).toThrow(RegexError);
    expect(call).toThrow(/group references/);
    try {
      call();
    } catch (error) {
      expect((error as RegexError).offset).toBe(offset);
    }
  });
});

describe("reSplit", () => {
  it.each<[string, string, number | undefined, string[]]>([
    ["a,b,,c", ",", undefined, ["a", "b", "", "c"]],
    ["a , b,c ,d", "\\s*,\\s*", 2, ["a", "b", "c ,d"]],
    ["a,b,c", ",", 1, ["a", "b,c"]],
    ["a,b,c", ",", 0, ["a", "b", "c"]],
    ["a,b", ",", -1, ["a,b"]],
    ["abc", "x", undefined, ["abc"]],
    ["", ",", undefined, [""]],
    ["a1b2c", "(\\d)", undefined, ["a", "1", "b", "2", "c"]],
    ["1-2+3", "(-)|(\\+)", undefined, ["1", "-", "", "2", "", "+", "3"]],
    ["axbc", "x*", undefined, ["", "a", "", "b", "c", ""]],
    ["a b", "\\b", undefined, ["", "a", " ", "b", ""]],
    ["...words...", "\\W*", undefined, ["", "", "w", "o", "r", "d", "s", "", ""]],
    ["...words...", "(\\W*)", undefined, ["", "...", "", "", "w", "", "o", "", "r", "", "d", "", "s", "...", "", "", ""]],
    ["abc", "x*", 2, ["", "a", "bc"]],
  ])("%j by %j (maxsplit %j)", (subject, pattern, maxsplit, expected) => {
    expect(reSplit(subject, pattern, maxsplit)).toEqual(expected);
  });
});

describe("reEscape", () => {
  it("escapes what Python's re.escape escapes", () => {
    expect(reEscape("a b\t#&~-_é")).toBe("a\\ b\\\t\\#\\&\\~\\-_é");
    expect(reEscape("()[]{}?*+|^$\\.")).toBe("\\(\\)\\[\\]\\{\\}\\?\\*\\+\\|\\^\\$\\\\\\.");
    expect(reEscape("")).toBe("");
  });

  it.each(["file[1].txt", "a+b (c)", "^$|\\", "x{2,3}", "tab\tnew\nline\r\v\f", "a&&b--c~~d#e", "😀 é ß", "-[]-"])("produces a pattern that matches %j literally", (text) => {
    expect(reSearch(`>${text}<`, reEscape(text))).toEqual([text]);
    expect(reFindall(text + text, reEscape(text))).toEqual([text, text]);
  });
});

describe("errors and budget", () => {
  it("raises RegexError for a refused pattern in every function", () => {
    const calls = [() => reMatch("a", ""), () => reSearch("a", "(?=a)"), () => reFindall("a", "\\1"), () => reSub("a", "(", "b"), () => reSplit("a", "[a")];
    for (const call of calls) expect(call).toThrow(RegexError);
  });

  it("charges every function and stops when the budget callback throws", () => {
    const subject = "a".repeat(10_000);
    let operations = 0;
    const charge = (k: number): void => {
      operations += k;
      if (operations > 20_000) throw new Error("budget");
    };
    expect(() => reFindall(subject, "(a|a)*b", charge)).toThrow("budget");
    operations = 0;
    expect(() => reSub(subject, "x*", "-", charge)).toThrow("budget");
  });

  it("bounds iteration that rescans the input for every match (quadratic in any engine)", () => {
    let operations = 0;
    const charge = (k: number): void => {
      operations += k;
      if (operations > 1_000_000) throw new Error("budget");
    };
    // The preferred branch scans to the end before each one-character match can be returned.
    expect(() => reFindall("a".repeat(10_000), "a.*X|a", charge)).toThrow("budget");
    expect(reFindall("a".repeat(100), "a.*X|a")).toHaveLength(100);
  });
});
