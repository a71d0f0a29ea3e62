/**
 * Static checking of EXPR expressions: an expression is evaluated with every symbol replaced by
 * an `unresolved` value of its type (spec digest §14.4), so type errors, unknown names and
 * functions, and errors in constant sub-expressions are reported when the template is checked.
 */
import type { Expr } from "../expr/ast";
import { ExprError } from "../expr/errors";
import { evaluate } from "../expr/evaluator";
import { standardLibrary } from "../expr/functions";
import { resolvedType, type ExprType } from "../expr/types";
import { typeOf, unresolvedValue, type ExprValue } from "../expr/values";
import type { Path } from "../model";
import type { ValidationContext } from "./context";
import type { Scope } from "./scopes";
import { wrapNamespaceHint } from "./wrap-symbols";

/** Checks one expression; returns its static type, or null after reporting the problem. */
export function checkExpression(ctx: ValidationContext, expr: Expr, scope: Scope, target: ExprType | null, path: Path, offsetInField: number): ExprType | null {
  const symbols = new Map<string, ExprValue>();
  for (const [name, type] of scope.types) symbols.set(name, unresolvedValue(type));
  try {
    const value = evaluate(expr, {
      library: standardLibrary(scope.kind),
      symbols,
      pathFormat: "POSIX",
      ...(target ? { target } : {}),
    });
    return resolvedType(typeOf(value));
  } catch (error) {
    if (!(error instanceof ExprError)) throw error;
    const at = error.span ? ` (at character ${offsetInField + error.span.start + 1})` : "";
    const unknown = error.kind === "name" ? /^unknown name '([^']+)'/.exec(error.message)?.[1] : undefined;
    const hint = unknown === undefined ? null : wrapNamespaceHint(unknown, scope);
    ctx.error(path, `${error.message}${at}${hint === null ? "" : `. ${hint}`}`);
    return null;
  }
}
