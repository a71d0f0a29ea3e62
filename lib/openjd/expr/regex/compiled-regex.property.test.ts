/**
 * Differential check against JavaScript's own (backtracking) RegExp, on short subjects where it
 * is safe to run. Both are leftmost-first, so they must agree on the match and every group for
 * patterns where the engines' documented differences cannot arise: ASCII subjects without `\n`
 * (`$`, `\w`, `\s`, `\b` then mean the same), and no quantified group (JavaScript clears a
 * repeated group's captures per iteration and treats empty iterations its own way).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileRegex, execRegex } from "./index";

const pattern: fc.Arbitrary<string> = fc.letrec((tie) => ({
  atom: fc.constantFrom("a", "b", " ", ".", "[ab]", "[^a]", "[a-b ]", "\\w", "\\W", "\\s", "\\d"),
  quantifier: fc.constantFrom("", "", "*", "+", "?", "*?", "+?", "??", "{2}", "{1,3}", "{0,2}?", "{2,}"),
  piece: fc.oneof(
    { depthSize: "small" },
    fc.tuple(tie("atom") as fc.Arbitrary<string>, tie("quantifier") as fc.Arbitrary<string>).map(([a, q]) => a + q),
    fc.constantFrom("^", "$", "\\b", "\\B"),
    fc.tuple(fc.constantFrom("(", "(?:"), tie("alt") as fc.Arbitrary<string>).map(([open, body]) => `${open}${body})`),
  ),
  concat: fc.array(tie("piece") as fc.Arbitrary<string>, { minLength: 1, maxLength: 4 }).map((parts) => parts.join("")),
  alt: fc.array(tie("concat") as fc.Arbitrary<string>, { minLength: 1, maxLength: 3 }).map((parts) => parts.join("|")),
})).alt;

const subject = fc.stringMatching(/^[ab1 ]{0,10}$/);

describe("agreement with JavaScript RegExp on safe patterns", () => {
  it("finds the same match and groups", () => {
    fc.assert(
      fc.property(pattern, subject, fc.nat(3), (p, s, from) => {
        const start = Math.min(from, s.length);
        const js = new RegExp(p, "gu");
        js.lastIndex = start;
        const expected = js.exec(s);
        const actual = execRegex(compileRegex(p), s, start, "search");
        const ours = actual === null ? null : actual.groups.map((g) => (g === null ? undefined : s.slice(g.start, g.end)));
        expect(ours).toEqual(expected === null ? null : [...expected]);
        if (actual !== null && expected !== null) expect(actual.start).toBe(expected.index);
      }),
      { numRuns: 3_000 },
    );
  });
});
