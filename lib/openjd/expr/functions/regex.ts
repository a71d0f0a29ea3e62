/** Regular-expression functions (spec digest §14.5 "Regex") on the safe Pike-VM engine in ../regex. */
import { valueError } from "../errors";
import type { EvalContext, FunctionLibrary } from "../library";
import { RegexError, reEscape, reFindall, reMatch, reSearch, reSplit, reSub } from "../regex";
import { STRING, listOf } from "../types";
import { NULL, makeList, stringValue, type ExprValue } from "../values";
import { int, text } from "./args";

/** Runs a regex operation on the evaluator's budget; pattern errors become value errors. */
function run<T>(ctx: EvalContext, operation: (charge: (n: number) => void) => T): T {
  try {
    return operation((n) => ctx.charge(n));
  } catch (error) {
    if (error instanceof RegexError) throw valueError(`invalid regular expression: ${error.message} (at pattern offset ${error.offset})`);
    throw error;
  }
}

const strings = (items: readonly string[]) => makeList(items.map(stringValue), STRING);

function groups(result: string[] | null): ExprValue {
  return result === null ? NULL : strings(result);
}

export function registerRegex(lib: FunctionLibrary): void {
  lib
    .define("re_match", "(string, string) -> list[string]?", ([s, p], ctx) => groups(run(ctx, (c) => reMatch(text(s), text(p), c))))
    .define("re_search", "(string, string) -> list[string]?", ([s, p], ctx) => groups(run(ctx, (c) => reSearch(text(s), text(p), c))))
    .define("re_findall", "(string, string) -> list[string] | list[list[string]]", ([s, p], ctx) => {
      const found = run(ctx, (c) => reFindall(text(s), text(p), c));
      ctx.charge(found.length);
      if (found.length > 0 && Array.isArray(found[0])) return makeList((found as string[][]).map(strings), listOf(STRING));
      return strings(found as string[]);
    })
    .define("re_sub", "(string, string, string) -> string", ([s, p, r], ctx) => stringValue(run(ctx, (c) => reSub(text(s), text(p), text(r), c))))
    .define("re_escape", "(string) -> string", ([s]) => stringValue(reEscape(text(s))))
    .define("re_split", "(string, string) -> list[string]", ([s, p], ctx) => strings(run(ctx, (c) => reSplit(text(s), text(p), 0, c))))
    .define("re_split", "(string, string, int) -> list[string]", ([s, p, m], ctx) => strings(run(ctx, (c) => reSplit(text(s), text(p), Number(int(m)), c))));
}
