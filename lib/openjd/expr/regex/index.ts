/**
 * The regex engine behind EXPR's `re_*` functions (spec §2.2.5, digest §14.5): a parser for the
 * Python-`re` ∩ Rust-`regex` dialect, a compiler to an NFA program and a Pike VM that matches in
 * O(pattern × input) time on Unicode code points. JavaScript's backtracking RegExp is never used
 * for matching, so no pattern/subject pair can hang the evaluator; every step is charged to the
 * caller's operation budget.
 */
export { compileRegex, execRegex, type CompiledRegex, type MatchResult, type GroupSpan } from "./compiled-regex";
export { RegexError, REGEX_LIMITS } from "./regex-error";
export type { Charge } from "./vm";
export { reEscape, reFindall, reMatch, reSearch, reSplit, reSub } from "./regex-functions";
