/** The names an expression refers to, for deciding what a field depends on before evaluating it. */
import type { Expr } from "./ast";

/** Every bare identifier in the expression: the heads of dotted names (`WrappedAction`), locals, symbols. */
export function identifiersOf(expr: Expr, into: Set<string> = new Set()): Set<string> {
  const visit = (e: Expr | null): void => {
    if (e !== null) identifiersOf(e, into);
  };
  switch (expr.kind) {
    case "name":
      into.add(expr.name);
      break;
    case "attribute":
      visit(expr.object);
      break;
    case "list":
      expr.items.forEach(visit);
      break;
    case "comprehension":
      [expr.element, expr.iterable, expr.condition].forEach(visit);
      break;
    case "unary":
      visit(expr.operand);
      break;
    case "binary":
    case "logical":
      visit(expr.left);
      visit(expr.right);
      break;
    case "compare":
      expr.operands.forEach(visit);
      break;
    case "conditional":
      [expr.condition, expr.body, expr.orElse].forEach(visit);
      break;
    case "call":
      [expr.callee, ...expr.args].forEach(visit);
      break;
    case "index":
      [expr.object, expr.index].forEach(visit);
      break;
    case "slice":
      [expr.object, expr.start, expr.stop, expr.step].forEach(visit);
      break;
    default:
      break;
  }
  return into;
}
