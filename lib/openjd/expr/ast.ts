/**
 * Syntax tree of EXPR expressions (the extended `{{ … }}` language, spec digest §14.2). Every
 * node carries the offsets of its source text within the expression, so errors can be located
 * precisely inside a template field.
 */

export interface Span {
  /** Offset of the first character within the expression source (UTF-16 code units). */
  start: number;
  /** Offset just past the last character. */
  end: number;
}

export type BinaryOperator = "+" | "-" | "*" | "/" | "//" | "%" | "**";
export type CompareOperator = "<" | ">" | "<=" | ">=" | "==" | "!=" | "in" | "not in";
export type UnaryOperator = "-" | "+" | "not";

export type Expr =
  | { kind: "int"; value: bigint; span: Span }
  /** `text` is the literal as written, so that a copied float keeps its digits ("3.500"). */
  | { kind: "float"; value: number; text: string; span: Span }
  | { kind: "string"; value: string; span: Span }
  | { kind: "bool"; value: boolean; span: Span }
  | { kind: "null"; span: Span }
  /** A bare identifier: `Param`, `x`, `len`. Dotted names are `attribute` chains on a `name`. */
  | { kind: "name"; name: string; span: Span }
  /** `object.name`; `nameSpan` covers just the attribute name. */
  | { kind: "attribute"; object: Expr; name: string; nameSpan: Span; span: Span }
  | { kind: "list"; items: Expr[]; span: Span }
  /** `[element for variable in iterable if condition]` — a single `for` clause only. */
  | { kind: "comprehension"; element: Expr; variable: string; variableSpan: Span; iterable: Expr; condition: Expr | null; span: Span }
  | { kind: "unary"; operator: UnaryOperator; operand: Expr; span: Span }
  | { kind: "binary"; operator: BinaryOperator; left: Expr; right: Expr; span: Span }
  /** `and` / `or`, which short-circuit and return one of their operands. */
  | { kind: "logical"; operator: "and" | "or"; left: Expr; right: Expr; span: Span }
  /** A comparison chain `a < b <= c`: operands.length === operators.length + 1. */
  | { kind: "compare"; operands: Expr[]; operators: CompareOperator[]; span: Span }
  /** `body if condition else orElse`. */
  | { kind: "conditional"; condition: Expr; body: Expr; orElse: Expr; span: Span }
  /** `callee(args…)`: a method call when `callee` is an attribute (`x.f(a)` ≡ `f(x, a)`). */
  | { kind: "call"; callee: Expr; args: Expr[]; span: Span }
  | { kind: "index"; object: Expr; index: Expr; span: Span }
  | { kind: "slice"; object: Expr; start: Expr | null; stop: Expr | null; step: Expr | null; span: Span };

/**
 * The direct sub-expressions of a node (absent slice bounds and filters are null). Every kind is
 * listed, so a new kind of node does not compile until its children are named here.
 */
export function childrenOf(expr: Expr): ReadonlyArray<Expr | null> {
  switch (expr.kind) {
    case "int":
    case "float":
    case "string":
    case "bool":
    case "null":
    case "name":
      return [];
    case "attribute":
      return [expr.object];
    case "list":
      return expr.items;
    case "comprehension":
      return [expr.element, expr.iterable, expr.condition];
    case "unary":
      return [expr.operand];
    case "binary":
    case "logical":
      return [expr.left, expr.right];
    case "compare":
      return expr.operands;
    case "conditional":
      return [expr.condition, expr.body, expr.orElse];
    case "call":
      return [expr.callee, ...expr.args];
    case "index":
      return [expr.object, expr.index];
    case "slice":
      return [expr.object, expr.start, expr.stop, expr.step];
  }
}

/** A parse failure, located within the expression source. */
export interface ExprSyntaxError {
  message: string;
  span: Span;
}
