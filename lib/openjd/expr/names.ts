/** The names an expression refers to, for deciding what a field depends on before evaluating it. */
import { childrenOf, type Expr } from "./ast";

/** Every bare identifier in the expression: the heads of dotted names (`WrappedAction`), locals, symbols. */
export function identifiersOf(expr: Expr, into: Set<string> = new Set()): Set<string> {
  if (expr.kind === "name") into.add(expr.name);
  for (const child of childrenOf(expr)) if (child !== null) identifiersOf(child, into);
  return into;
}
