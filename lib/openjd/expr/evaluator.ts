/**
 * The EXPR evaluator: walks the syntax tree against a symbol table, dispatching every operator,
 * property and call through the function library. Run with `unresolved` symbol values it is
 * also the static type checker (spec digest §14.4: "static type checking = evaluation with
 * unresolved[T] placeholders").
 */
import type { Expr, Span } from "./ast";
import { Budget, DEFAULT_LIMITS, type Limits } from "./budget";
import { coerceTo } from "./coerce";
import { ExprError, typeError } from "./errors";
import type { EvalContext, FunctionLibrary } from "./library";
import { suggest } from "../validate/scopes";
import { ANY, BOOL, INT, NULLTYPE, listOf, resolvedType, typeToString, typesEqual, union, type ExprType } from "./types";
import { FALSE, NULL, TRUE, boolValue, elementsOf, floatValue, intValue, makeList, stringValue, typeOf, unresolvedValue, type ExprValue, type PathFormat } from "./values";

export interface EvaluateOptions {
  library: FunctionLibrary;
  /** Values by dotted name (`Param.Frame`, `Task.File.Script`, let names). */
  symbols: ReadonlyMap<string, ExprValue>;
  pathFormat: PathFormat;
  /** The Session's path mapping, for apply_path_mapping(); null outside host contexts. */
  mapPath?: ((value: string) => string) | null;
  /** Type the field needs: the result is coerced to it, and list literals / branches see it. */
  target?: ExprType;
  limits?: Partial<Limits>;
}

export interface EvaluationResult {
  value: ExprValue;
  operations: number;
  memoryBytes: number;
}

/** Evaluates an expression; throws ExprError (with the span of the failing node) on any problem. */
export function evaluate(expr: Expr, options: EvaluateOptions): ExprValue {
  return evaluateWithMetrics(expr, options).value;
}

export function evaluateWithMetrics(expr: Expr, options: EvaluateOptions): EvaluationResult {
  const evaluator = new Evaluator(options);
  const value = evaluator.run(expr, options.target ?? null);
  return { value, operations: evaluator.budget.operations, memoryBytes: evaluator.budget.peak };
}

class Evaluator implements EvalContext {
  readonly budget: Budget;
  readonly pathFormat: PathFormat;
  readonly mapPath: ((value: string) => string) | null;
  private readonly locals: Array<Map<string, ExprValue>> = [];

  constructor(private readonly options: EvaluateOptions) {
    this.budget = new Budget({ ...DEFAULT_LIMITS, ...options.limits });
    this.pathFormat = options.pathFormat;
    this.mapPath = options.mapPath ?? null;
  }

  charge(operations: number): void {
    this.budget.charge(operations);
  }

  chargeText(length: number): void {
    this.budget.chargeText(length);
  }

  assertFits(bytes: number): void {
    this.budget.assertFits(bytes);
  }

  run(expr: Expr, target: ExprType | null): ExprValue {
    return this.node(expr, target);
  }

  /**
   * Evaluates one node; its result (only) is coerced to `target`. Errors get the node's span.
   * When the node is done its intermediate values are dead: only its result stays counted.
   */
  private node(expr: Expr, target: ExprType | null): ExprValue {
    this.budget.enter();
    const mark = this.budget.current;
    try {
      const raw = this.evaluateNode(expr, target);
      const value = target === null ? raw : coerceTo(raw, target, this.pathFormat);
      this.budget.resetTo(mark);
      this.budget.allocate(value);
      return value;
    } catch (error) {
      if (error instanceof ExprError && error.span === null) error.span = expr.span;
      throw error;
    } finally {
      this.budget.leave();
    }
  }

  private evaluateNode(expr: Expr, target: ExprType | null): ExprValue {
    switch (expr.kind) {
      case "int":
        return intValue(expr.value);
      case "float":
        return floatValue(expr.value, expr.text);
      case "string":
        return stringValue(expr.value);
      case "bool":
        return boolValue(expr.value);
      case "null":
        return NULL;
      case "name":
        return this.lookup(expr.name, expr.span);
      case "attribute":
        return this.attribute(expr);
      case "list": {
        const itemTarget = target?.code === "list" ? target.item : null;
        const items = expr.items.map((item) => this.node(item, itemTarget));
        return makeList(items, itemTarget ?? NULLTYPE);
      }
      case "comprehension":
        return this.comprehension(expr, target);
      case "unary":
        if (expr.operator === "-" && expr.operand.kind === "int") return intValue(-expr.operand.value);
        return this.dispatch(expr.operator === "not" ? "__not__" : expr.operator === "-" ? "__neg__" : "__pos__", [this.node(expr.operand, null)]);
      case "binary":
        return this.dispatch(BINARY[expr.operator], [this.node(expr.left, null), this.node(expr.right, null)]);
      case "logical":
        return this.logical(expr.operator, expr.left, expr.right);
      case "compare":
        return this.compare(expr);
      case "conditional":
        return this.conditional(expr, target);
      case "call":
        return this.call(expr);
      case "index":
        return this.dispatch("__getitem__", [this.node(expr.object, null), this.node(expr.index, null)]);
      case "slice": {
        const bound = (e: Expr | null) => (e === null ? NULL : this.node(e, null));
        return this.dispatch("__getslice__", [this.node(expr.object, null), bound(expr.start), bound(expr.stop), bound(expr.step)]);
      }
    }
  }

  /**
   * Every call costs one operation, plus ceil(len/256) for a string or path it produces (spec
   * §1.3.10: `len(s)` costs 1, `s.upper()` 1 + ceil(len/256)). Functions charge the elements
   * they iterate themselves, before building anything large.
   */
  private dispatch(name: string, args: ExprValue[], method = false): ExprValue {
    this.budget.charge(1);
    const result = this.options.library.call(name, args, this, method);
    if (result.kind === "string" || result.kind === "path") this.budget.chargeText(result.value.length);
    this.budget.allocate(result);
    return result;
  }

  private lookup(name: string, span: Span): ExprValue {
    const value = this.localOrSymbol(name);
    if (value !== undefined) return value;
    throw new ExprError("name", unknownNameMessage(name, this.visibleNames()), span);
  }

  private visibleNames(): string[] {
    return [...this.options.symbols.keys(), ...this.locals.flatMap((m) => [...m.keys()])];
  }

  /**
   * `a.b.c`: the longest dotted prefix that names a symbol is looked up, the rest are property
   * accesses (`Param.File.stem` is the symbol `Param.File` and its property `stem`).
   */
  private attribute(expr: Extract<Expr, { kind: "attribute" }>): ExprValue {
    const chain = dottedChain(expr);
    if (chain !== null) {
      for (let n = chain.length; n >= 1; n--) {
        const name = chain.slice(0, n).join(".");
        const value = n === 1 ? this.localOrSymbol(name) : this.options.symbols.get(name);
        if (value === undefined) continue;
        let result = value;
        for (const property of chain.slice(n)) result = this.property(result, property);
        return result;
      }
      if (NAMESPACES.has(chain[0] as string)) {
        throw new ExprError("name", unknownNameMessage(chain.join("."), this.visibleNames()), expr.span);
      }
    }
    return this.property(this.node(expr.object, null), expr.name);
  }

  private localOrSymbol(name: string): ExprValue | undefined {
    for (let i = this.locals.length - 1; i >= 0; i--) {
      const local = this.locals[i]?.get(name);
      if (local !== undefined) return local;
    }
    return this.options.symbols.get(name);
  }

  private property(value: ExprValue, name: string): ExprValue {
    const fn = `__property_${name}__`;
    if (!this.options.library.has(fn)) {
      const type = typeToString(resolvedType(typeOf(value)));
      throw typeError(`${type} has no property '${name}'${this.options.library.has(name) ? ` (call it: .${name}())` : ""}`);
    }
    return this.dispatch(fn, [value]);
  }

  private call(expr: Extract<Expr, { kind: "call" }>): ExprValue {
    const callee = expr.callee;
    if (callee.kind === "name") {
      if (callee.name.startsWith("__")) throw new ExprError("name", `'${callee.name}' cannot be called directly; use its operator`, callee.span);
      if (!this.options.library.has(callee.name)) {
        throw new ExprError("name", unknownFunctionMessage(callee.name, this.options.library.names()), callee.span);
      }
      return this.dispatch(
        callee.name,
        expr.args.map((a) => this.node(a, null)),
      );
    }
    if (callee.kind === "attribute") {
      if (this.options.library.has(`__property_${callee.name}__`) && !this.options.library.has(callee.name)) {
        throw typeError(`'${callee.name}' is a property: write .${callee.name} without parentheses`);
      }
      if (!this.options.library.has(callee.name) || callee.name.startsWith("__")) {
        throw new ExprError("name", unknownFunctionMessage(callee.name, this.options.library.names()), callee.nameSpan);
      }
      const receiver = this.node(callee.object, null);
      return this.dispatch(callee.name, [receiver, ...expr.args.map((a) => this.node(a, null))], true);
    }
    throw typeError("only functions and methods can be called");
  }

  /** `and` / `or` return one of their operands; only `false` and `null` are falsy. */
  private logical(operator: "and" | "or", leftExpr: Expr, rightExpr: Expr): ExprValue {
    const left = this.node(leftExpr, null);
    if (left.kind !== "unresolved") {
      const truthy = !(left.kind === "null" || (left.kind === "bool" && !left.value));
      if (operator === "and" ? !truthy : truthy) return left;
      return this.node(rightExpr, null);
    }
    const right = this.speculative(() => this.node(rightExpr, null));
    if (right === null) return left;
    const leftType = operator === "or" ? withoutNull(left.type) : left.type;
    return unresolvedValue(union([leftType, resolvedType(typeOf(right))]));
  }

  private conditional(expr: Extract<Expr, { kind: "conditional" }>, target: ExprType | null): ExprValue {
    const condition = this.node(expr.condition, null);
    if (condition.kind === "bool") return this.node(condition.value ? expr.body : expr.orElse, target);
    if (condition.kind !== "unresolved" || !typeAllows(condition.type, BOOL)) {
      throw new ExprError("type", `a condition must be a bool, got ${typeToString(resolvedType(typeOf(condition)))}`, expr.condition.span);
    }
    const errors: ExprError[] = [];
    const branch = (e: Expr) => this.speculative(() => this.node(e, target), errors);
    const body = branch(expr.body);
    const orElse = branch(expr.orElse);
    if (body === null && orElse === null) throw errors[0] as ExprError;
    const types = [body, orElse].filter((v): v is ExprValue => v !== null).map((v) => resolvedType(typeOf(v)));
    return unresolvedValue(union(types));
  }

  /**
   * Evaluates a sub-expression that a runtime might never reach (a branch under an unknown
   * condition): value errors are absorbed, budget errors are not.
   */
  private speculative(run: () => ExprValue, errors: ExprError[] = []): ExprValue | null {
    const mark = this.budget.current;
    try {
      return run();
    } catch (error) {
      if (error instanceof ExprError && !error.isBudget) {
        this.budget.resetTo(mark);
        errors.push(error);
        return null;
      }
      throw error;
    }
  }

  private compare(expr: Extract<Expr, { kind: "compare" }>): ExprValue {
    let left = this.node(expr.operands[0] as Expr, null);
    let sawUnresolved = false;
    for (let i = 0; i < expr.operators.length; i++) {
      const right = this.node(expr.operands[i + 1] as Expr, null);
      const operator = expr.operators[i];
      const result =
        operator === "in"
          ? this.dispatch("__contains__", [right, left])
          : operator === "not in"
            ? this.dispatch("__not__", [this.dispatch("__contains__", [right, left])])
            : this.dispatch(COMPARE[operator as keyof typeof COMPARE], [left, right]);
      if (result.kind === "unresolved") sawUnresolved = true;
      else if (result.kind === "bool" && !result.value) return FALSE;
      left = right;
    }
    return sawUnresolved ? unresolvedValue(BOOL) : TRUE;
  }

  private comprehension(expr: Extract<Expr, { kind: "comprehension" }>, target: ExprType | null): ExprValue {
    if (this.localOrSymbol(expr.variable) !== undefined) {
      throw new ExprError("name", `the loop variable '${expr.variable}' shadows a name that already exists`, expr.variableSpan);
    }
    const iterable = this.node(expr.iterable, null);
    const itemTarget = target?.code === "list" ? target.item : null;
    const scope = new Map<string, ExprValue>();
    this.locals.push(scope);
    try {
      if (iterable.kind === "unresolved") {
        const inner = resolvedType(iterable.type);
        const itemType = iteratedType(inner);
        if (itemType === null) throw typeError(`cannot iterate over ${typeToString(inner)}`);
        scope.set(expr.variable, unresolvedValue(itemType));
        if (expr.condition) this.checkFilter(this.node(expr.condition, null));
        return unresolvedValue(listOf(resolvedType(typeOf(this.node(expr.element, itemTarget)))));
      }
      const items: ExprValue[] = [];
      for (const item of elementsOf(iterable)) {
        this.budget.charge(1);
        scope.set(expr.variable, item);
        if (expr.condition) {
          const keep = this.checkFilter(this.node(expr.condition, null));
          if (keep === null) return unresolvedValue(listOf(resolvedType(typeOf(this.node(expr.element, itemTarget)))));
          if (!keep) continue;
        }
        items.push(this.node(expr.element, itemTarget));
      }
      return makeList(items, itemTarget ?? NULLTYPE);
    } finally {
      this.locals.pop();
    }
  }

  /** A comprehension filter must be a bool; null result means "unknown until run time". */
  private checkFilter(value: ExprValue): boolean | null {
    if (value.kind === "bool") return value.value;
    if (value.kind === "unresolved" && typeAllows(value.type, BOOL)) return null;
    throw typeError(`a comprehension filter must be a bool, got ${typeToString(resolvedType(typeOf(value)))}`);
  }
}

const BINARY = {
  "+": "__add__",
  "-": "__sub__",
  "*": "__mul__",
  "/": "__truediv__",
  "//": "__floordiv__",
  "%": "__mod__",
  "**": "__pow__",
} as const;

const COMPARE = { "<": "__lt__", ">": "__gt__", "<=": "__le__", ">=": "__ge__", "==": "__eq__", "!=": "__ne__" } as const;

const NAMESPACES = new Set(["Param", "RawParam", "Task", "Session", "Env", "Job", "Step", "WrappedAction", "WrappedEnv", "WrappedStep"]);

function dottedChain(expr: Expr): string[] | null {
  if (expr.kind === "name") return [expr.name];
  if (expr.kind === "attribute") {
    const head = dottedChain(expr.object);
    return head === null ? null : [...head, expr.name];
  }
  return null;
}

/** The element type when iterating a value of `type` (lists, range expressions, unions of them). */
function iteratedType(type: ExprType): ExprType | null {
  switch (type.code) {
    case "list":
      return type.item;
    case "range_expr":
      return INT;
    case "any":
      return ANY;
    case "union": {
      const items = type.members.map(iteratedType);
      return items.some((t) => t === null) ? null : union(items as ExprType[]);
    }
    default:
      return null;
  }
}

function typeAllows(type: ExprType, wanted: ExprType): boolean {
  const t = resolvedType(type);
  if (t.code === "any") return true;
  if (t.code === "union") return t.members.some((m) => typeAllows(m, wanted));
  return typesEqual(t, wanted);
}

function withoutNull(type: ExprType): ExprType {
  const t = resolvedType(type);
  if (t.code !== "union") return t;
  return union(t.members.filter((m) => m.code !== "nulltype"));
}

function unknownNameMessage(name: string, known: readonly string[], what = "name"): string {
  const suggestions = suggest(name, known);
  return `unknown ${what} '${name}'${suggestions.length > 0 ? `; did you mean ${suggestions.join(" or ")}?` : ""}`;
}

/** Operators (`__add__`) are never suggested: they cannot be called by name. */
function unknownFunctionMessage(name: string, known: readonly string[]): string {
  return unknownNameMessage(
    name,
    known.filter((n) => !n.startsWith("__")),
    "function",
  );
}
