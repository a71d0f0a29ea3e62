/**
 * Pathological EXPR inputs: nesting 10,000 deep in every construct that nests, 100,000-term
 * sums, results that could never be built (`'x' * 10**12`, `range(10**12)`), comprehensions over
 * huge ranges, adversarial regular expressions on long subjects, deep string escapes and very
 * long names. Each names the outcomes that are honest for it: "syntax" (refused at parse, e.g.
 * by the nesting limit), "limit" (a budget), "overflow", "name", or "ok" where the work is in
 * fact small (a linear-time regex engine answers `(a+)+$` quickly and correctly).
 */
import type { ExprErrorKind } from "../expr/errors";

export type ExprOutcomeKind = ExprErrorKind | "ok";

export interface PathologicalExpression {
  name: string;
  source: string;
  expect: readonly ExprOutcomeKind[];
  /** Library functions the input calls; it is skipped while one is not registered yet. */
  requires?: readonly string[];
}

const DEEP = 10_000;
const nested = (open: string, inner: string, close: string, n = DEEP): string => open.repeat(n) + inner + close.repeat(n);
const SYNTAX: readonly ExprOutcomeKind[] = ["syntax"];
const LIMIT: readonly ExprOutcomeKind[] = ["limit"];
/** Adversarial patterns: a budget stop, a refused pattern (value), or a correct quick answer. */
const REGEX: readonly ExprOutcomeKind[] = ["limit", "value", "ok"];

function regex(name: string, fn: string, subject: string, pattern: string, extra = ""): PathologicalExpression {
  return { name, source: `${fn}(${subject}, ${JSON.stringify(pattern)}${extra})`, expect: REGEX, requires: [fn] };
}

export function pathologicalExpressions(): PathologicalExpression[] {
  const a = "'a' * 100000";
  return [
    { name: "parentheses 10,000 deep", source: nested("(", "1", ")"), expect: SYNTAX },
    { name: "unary minus 10,000 deep", source: `${"-".repeat(DEEP)}1`, expect: SYNTAX },
    { name: "unary minus with spaces 10,000 deep", source: `${"- ".repeat(DEEP)}1`, expect: SYNTAX },
    { name: "not 10,000 deep", source: `${"not ".repeat(DEEP)}true`, expect: SYNTAX },
    { name: "conditionals 10,000 deep", source: `${"1 if true else ".repeat(DEEP)}2`, expect: SYNTAX },
    { name: "conditional bodies 10,000 deep", source: `${"(1 if true else ".repeat(DEEP)}2${")".repeat(DEEP)}`, expect: SYNTAX },
    { name: "list literals 10,000 deep", source: nested("[", "", "]"), expect: SYNTAX },
    { name: "calls 10,000 deep", source: nested("abs(", "1", ")"), expect: SYNTAX },
    { name: "indexing 10,000 deep", source: `[0]${"[0]".repeat(DEEP)}`, expect: SYNTAX },
    { name: "attribute chain 10,000 long", source: `Param${".X".repeat(DEEP)}`, expect: SYNTAX },
    { name: "method chain 10,000 long", source: `'a'${".upper()".repeat(DEEP)}`, expect: SYNTAX },
    { name: "power tower 10,000 high", source: `${"2 ** ".repeat(DEEP)}1`, expect: SYNTAX },
    { name: "comprehensions 10,000 deep", source: nested("[", "0", " for x in [1]]"), expect: SYNTAX },
    { name: "1+1+… 100,000 terms", source: Array(100_000).fill("1").join("+"), expect: SYNTAX },
    { name: "'a'+'a'+… 100,000 terms", source: Array(100_000).fill("'a'").join(" + "), expect: SYNTAX },
    { name: "a and a and … 100,000 terms", source: Array(100_000).fill("true").join(" and "), expect: SYNTAX },
    { name: "chained comparison 100,000 terms", source: Array(100_000).fill("1").join(" < "), expect: ["syntax", "limit", "ok"] },
    { name: "source over 1,000,000 characters", source: `${"1+".repeat(600_000)}1`, expect: SYNTAX },
    { name: "'x' * 10**12", source: "'x' * 10**12", expect: LIMIT },
    { name: "'ab' * int64 max", source: "'ab' * 9223372036854775807", expect: LIMIT },
    { name: "'x' * 10**8", source: "'x' * 10**8", expect: LIMIT },
    { name: "[0] * 10**9", source: "[0] * 10**9", expect: LIMIT },
    { name: "[[0] * 10**6] * 10**6", source: "[[0] * 10**6] * 10**6", expect: LIMIT },
    { name: "range(10**12)", source: "range(10**12)", expect: LIMIT },
    { name: "range over all of int64", source: "range(-9223372036854775807 - 1, 9223372036854775807)", expect: LIMIT },
    { name: "comprehension over range(10**12)", source: "[x for x in range(10**12)]", expect: LIMIT },
    { name: "comprehension over a 2^63 range expression", source: "[x for x in range_expr('1-9223372036854775807')]", expect: LIMIT },
    { name: "comprehension of comprehensions (refused: one level only)", source: "[[y for y in range(10**4)] for x in range(10**4)]", expect: SYNTAX },
    { name: "filtered comprehension over range(10**12)", source: "[x for x in range(10**12) if x < 0]", expect: LIMIT },
    { name: "sum of a 2^63 range expression as a list", source: "sum(list(range_expr('1-9223372036854775807')))", expect: LIMIT },
    { name: "string of a huge list", source: "string([0] * 10**8)", expect: LIMIT },
    { name: "zfill to 10**12", source: "'1'.zfill(10**12)", expect: LIMIT },
    { name: "center to int64 max", source: "'x'.center(9223372036854775807)", expect: LIMIT },
    { name: "replace that explodes", source: "('a' * 10000).replace('a', 'b' * 100000)", expect: LIMIT },
    { name: "join of a huge list", source: "(['abc'] * 10**7).join(',')", expect: LIMIT },
    { name: "2 ** int64 max", source: "2 ** 9223372036854775807", expect: ["overflow"] },
    { name: "float power overflow", source: "10.0 ** 400", expect: ["overflow"] },
    { name: "int64 min // -1", source: "-9223372036854775808 // -1", expect: ["overflow"] },
    { name: "abs(int64 min)", source: "abs(-9223372036854775808)", expect: ["overflow"] },
    { name: "float // float past the float range", source: "1e300 // 1e-300", expect: ["overflow"] },
    { name: "float // float to infinity", source: "1.0 // 5e-324", expect: ["overflow"] },
    { name: "last element of a 2^63 range expression", source: "range_expr('1-9223372036854775807')[-1]", expect: ["ok"] },
    { name: "int of 400 digits", source: "int('9' * 400)", expect: ["overflow", "value"] },
    { name: "float of 1e400", source: "float('1e400')", expect: ["overflow", "value"] },
    { name: "100,000 escaped backslashes", source: `'${"\\\\".repeat(100_000)}'`, expect: ["ok"] },
    { name: "100,000 \\x escapes", source: `'${"\\x41".repeat(100_000)}'`, expect: ["ok"] },
    { name: "50,000 \\U escapes", source: `'${"\\U0001F600".repeat(50_000)}'`, expect: ["ok"] },
    { name: "escapes ending unterminated", source: `'${"\\'".repeat(100_000)}`, expect: SYNTAX },
    { name: "200,000-item list literal", source: `[${"1,".repeat(200_000)}]`, expect: ["ok", "limit"] },
    { name: "name of 100,000 characters", source: "a".repeat(100_000), expect: ["name"] },
    { name: "parameter name of 100,000 characters", source: `Param.${"A".repeat(100_000)}`, expect: ["name"] },
    { name: "function name of 100,000 characters", source: `${"f".repeat(100_000)}(1)`, expect: ["name"] },
    { name: "100,000 unclosed brackets", source: "[".repeat(100_000), expect: SYNTAX },
    { name: "100,000 closing brackets", source: `1${")".repeat(100_000)}`, expect: SYNTAX },
    regex("(a+)+$ on 'a' * 100000", "re_match", a, "(a+)+$"),
    regex("(a|a)*b on 'a' * 100000", "re_search", a, "(a|a)*b"),
    regex("(x+x+)+y on 'x' * 100000", "re_search", "'x' * 100000", "(x+x+)+y"),
    regex("(a*)*$ findall on 'a' * 100000", "re_findall", a, "(a*)*$"),
    regex("(a|aa)+$ sub on 'a' * 100000", "re_sub", a, "(a|aa)+$", ", 'b'"),
    regex("split on (a?){n}a{n}", "re_split", a, `${"a?".repeat(1000)}${"a".repeat(1000)}`),
    regex("counted repetition a{1000}{1000}", "re_search", a, "a{1000}{1000}"),
    regex("counted repetition (a{1,1000}){1,1000}", "re_search", a, "(a{1,1000}){1,1000}"),
    regex("counted repetition a{99999999}", "re_search", a, "a{99999999}"),
    regex("((a{100}){100}){100}", "re_match", a, "((a{100}){100}){100}"),
    regex("groups 1,000 deep", "re_match", a, `${"(".repeat(1000)}a${")".repeat(1000)}`),
    regex("pattern of 100,000 characters", "re_search", a, "a".repeat(100_000)),
    regex("alternation of 10,000 branches", "re_search", a, Array.from({ length: 10_000 }, (_, i) => `a${i}`).join("|")),
  ];
}
