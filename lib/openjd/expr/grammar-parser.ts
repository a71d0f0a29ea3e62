/**
 * The recursive-descent grammar of EXPR expressions (spec digest §14.2), one method per level,
 * loosest first: conditional < or < and < not < comparison < + - < * / // % < unary < ** <
 * postfix. Python syntax outside the language is refused with a message naming the construct.
 *
 * The nesting limit bounds both the parser's own recursion (brackets, unary operators, `**`,
 * chained `else`) and the depth of the resulting tree (so `1+1+…+1` cannot make the recursive
 * evaluator overflow its stack). A source 100,000 brackets deep fails at bracket 101.
 */
import { childrenOf, type BinaryOperator, type CompareOperator, type Expr, type Span } from "./ast";
import { describeToken as describe, ExprSyntaxFailure, isReservedName, KEYWORDS, Lexer, LITERAL_NAMES, type Operator, type Token } from "./lexer";
import { INT64_MAGNITUDE_LIMIT } from "./lexer-literals";

/** `<UserIdentifier>`: let binding names and comprehension loop variables. */
export const USER_IDENTIFIER = /^[a-z_][A-Za-z0-9_]*$/;
/** Keywords that are part of this language and so only ever "unexpected" where they appear. */
const EXPRESSION_KEYWORDS = new Set(["if", "else", "for", "in", "not", "and", "or", "is"]);
const COMPARE_OPERATORS = new Set<string>(["<", ">", "<=", ">=", "==", "!="]);
const TUPLE = "tuple literals are not supported; use a list instead";
/** Tokens that name a Python construct outside the language wherever they turn up unexpectedly. */
const REFUSED_TOKENS: ReadonlyMap<string, string> = new Map([
  ["op ,", TUPLE],
  ["op =", "assignment ('=') is not supported; use '==' to compare"],
  ["op :=", "assignment expressions (':=') are not supported"],
  ["op *", "star expressions ('*x') are not supported"],
  ["op **", "'**' unpacking is not supported"],
  ["name for", "generator expressions are not supported; use a list comprehension [… for … in …]"],
  ["name is", "'is' (identity comparison) is not supported; use '==' or '!='"],
  ["name lambda", "lambda expressions are not supported"],
  ["name yield", "'yield' is not supported"],
  ["name await", "'await' is not supported"],
]);
const refusalFor = (token: Token): string | undefined => (token.kind === "op" || token.kind === "name" ? REFUSED_TOKENS.get(`${token.kind} ${token.text}`) : undefined);

const fail = (message: string, span: Span): ExprSyntaxFailure => new ExprSyntaxFailure({ message, span });
const isOp = (token: Token, text: Operator): boolean => token.kind === "op" && token.text === text;
const isKeyword = (token: Token, word: string): boolean => token.kind === "name" && token.text === word;

/** Parses one expression; throws ExprSyntaxFailure, which parseExpression turns into a result. */
export class GrammarParser {
  private readonly lexer: Lexer;
  private depth = 0;
  /** Tree depth of compound nodes (leaves are 1), to bound the tree the evaluator recurses on. */
  private readonly treeDepth = new WeakMap<Expr, number>();
  /** Span including the parentheses around a parenthesized node, used for the spans of its parents. */
  private readonly outer = new WeakMap<object, Span>();
  /** Brackets opened and not yet closed, innermost last, to report one that is never closed. */
  private readonly open: Token[] = [];

  constructor(
    source: string,
    private readonly maxDepth: number,
  ) {
    this.lexer = new Lexer(source);
  }

  parseAll(): Expr {
    if (this.lexer.peek().kind === "eof") throw fail("empty expression", this.lexer.peek().span);
    const expr = this.conditional();
    if (this.lexer.peek().kind !== "eof") throw this.unexpected(this.lexer.peek());
    return expr;
  }

  // ── helpers ──────────────────────────────────────────────────────────────────────────────

  private at(op: Operator): boolean {
    return isOp(this.lexer.peek(), op);
  }

  /** Consumes the next token if it is the operator `op` or the keyword `word`. */
  private eat(op: Operator | { keyword: string }): boolean {
    const next = this.lexer.peek();
    const matches = typeof op === "string" ? isOp(next, op) : isKeyword(next, op.keyword);
    if (matches) this.lexer.next();
    return matches;
  }

  private enter(at: Span): void {
    this.depth += 1;
    if (this.depth > this.maxDepth) throw fail(`expression is nested too deeply (the limit is ${this.maxDepth} levels)`, at);
  }

  private leave(): void {
    this.depth -= 1;
  }

  /** Records a compound node's tree depth, refusing trees deeper than the nesting limit. */
  private build<T extends Expr>(node: T, at: Span = node.span): T {
    let depth = 1;
    for (const child of childrenOf(node)) if (child !== null) depth = Math.max(depth, (this.treeDepth.get(child) ?? 1) + 1);
    if (depth - 1 > this.maxDepth) throw fail(`expression is nested too deeply (the limit is ${this.maxDepth} levels)`, at);
    this.treeDepth.set(node, depth);
    return node;
  }

  /** The span from `first` to `last`, including the parentheses around either. */
  private cover(first: Expr | Token, last: Expr | Token): Span {
    return { start: (this.outer.get(first) ?? first.span).start, end: (this.outer.get(last) ?? last.span).end };
  }

  /** The error for a token that cannot appear where it is, naming refused constructs. */
  private unexpected(token: Token): ExprSyntaxFailure {
    const unclosed = this.open.at(-1);
    if (token.kind === "eof" && unclosed !== undefined) return fail(`${describe(unclosed)} was never closed`, unclosed.span);
    const refused = refusalFor(token);
    if (refused !== undefined) return fail(refused, token.span);
    const unmatched = unclosed === undefined && (isOp(token, ")") || isOp(token, "]"));
    return fail(`unexpected ${describe(token)}${unmatched ? " (no matching opening bracket)" : ""}`, token.span);
  }

  /** Consumes `(` or `[`, counting it towards the nesting limit; the caller calls close(). */
  private openBracket(): Token {
    const token = this.lexer.next();
    this.enter(token.span);
    this.open.push(token);
    return token;
  }

  /** Consumes the bracket closing the innermost open one, or explains what is there instead. */
  private close(closer: ")" | "]"): Token {
    const token = this.lexer.peek();
    if (!isOp(token, closer)) {
      if (token.kind === "eof" || refusalFor(token) !== undefined) throw this.unexpected(token);
      throw fail(`expected ',' or '${closer}', found ${describe(token)}`, token.span);
    }
    this.open.pop();
    this.leave();
    return this.lexer.next();
  }

  // ── grammar levels, loosest first ────────────────────────────────────────────────────────

  private conditional(): Expr {
    const body = this.or();
    if (!this.eat({ keyword: "if" })) return body;
    const condition = this.or();
    const elseToken = this.lexer.peek();
    if (!isKeyword(elseToken, "else")) {
      if (elseToken.kind === "eof" && this.open.length > 0) throw this.unexpected(elseToken);
      throw fail(`expected 'else' in conditional expression 'a if condition else b', found ${describe(elseToken)}`, elseToken.span);
    }
    this.lexer.next();
    this.enter(elseToken.span);
    const orElse = this.conditional();
    this.leave();
    return this.build({ kind: "conditional", condition, body, orElse, span: this.cover(body, orElse) });
  }

  private or(): Expr {
    return this.logical("or", () => this.and());
  }

  private and(): Expr {
    return this.logical("and", () => this.not());
  }

  private logical(operator: "and" | "or", operand: () => Expr): Expr {
    let left = operand();
    for (let token = this.lexer.peek(); isKeyword(token, operator); token = this.lexer.peek()) {
      this.lexer.next();
      const right = operand();
      left = this.build({ kind: "logical", operator, left, right, span: this.cover(left, right) }, token.span);
    }
    return left;
  }

  private not(): Expr {
    const token = this.lexer.peek();
    if (!this.eat({ keyword: "not" })) return this.compare();
    this.enter(token.span);
    const operand = this.not();
    this.leave();
    return this.build({ kind: "unary", operator: "not", operand, span: this.cover(token, operand) });
  }

  private compare(): Expr {
    const first = this.additive();
    const operands = [first];
    const operators: CompareOperator[] = [];
    for (;;) {
      const token = this.lexer.peek();
      if (token.kind === "op" && COMPARE_OPERATORS.has(token.text)) operators.push(token.text as CompareOperator);
      else if (isKeyword(token, "in")) operators.push("in");
      else if (isKeyword(token, "not") && isKeyword(this.lexer.peek(1), "in")) {
        this.lexer.next();
        operators.push("not in");
      } else if (isKeyword(token, "is")) throw this.unexpected(token);
      else break;
      this.lexer.next();
      operands.push(this.additive());
    }
    if (operators.length === 0) return first;
    return this.build({ kind: "compare", operands, operators, span: this.cover(first, operands.at(-1) as Expr) });
  }

  private additive(): Expr {
    return this.binaryLevel(["+", "-"], () => this.multiplicative());
  }

  private multiplicative(): Expr {
    return this.binaryLevel(["*", "/", "//", "%"], () => this.unary());
  }

  private binaryLevel(operators: readonly BinaryOperator[], operand: () => Expr): Expr {
    let left = operand();
    for (let token = this.lexer.peek(); token.kind === "op" && operators.includes(token.text as BinaryOperator); token = this.lexer.peek()) {
      this.lexer.next();
      const right = operand();
      const operator = token.text as BinaryOperator;
      left = this.build({ kind: "binary", operator, left, right, span: this.cover(left, right) }, token.span);
    }
    return left;
  }

  private unary(): Expr {
    const token = this.lexer.peek();
    const operator = isOp(token, "-") ? "-" : isOp(token, "+") ? "+" : null;
    if (operator === null) return this.power();
    this.lexer.next();
    const literal = this.lexer.peek();
    const after = this.lexer.peek(1);
    const continues = isOp(after, "**") || isOp(after, "(") || isOp(after, "[") || isOp(after, ".");
    // -9223372036854775808 is int64's minimum: its magnitude alone is out of range, so fold the sign in.
    if (operator === "-" && literal.kind === "int" && literal.value === INT64_MAGNITUDE_LIMIT && !continues) {
      this.lexer.next();
      return { kind: "int", value: -INT64_MAGNITUDE_LIMIT, span: this.cover(token, literal) };
    }
    this.enter(token.span);
    const operand = this.unary();
    this.leave();
    return this.build({ kind: "unary", operator, operand, span: this.cover(token, operand) });
  }

  private power(): Expr {
    const base = this.postfix();
    const token = this.lexer.peek();
    if (!this.eat("**")) return base;
    this.enter(token.span);
    const exponent = this.unary(); // right-associative, and `2 ** -1` is allowed
    this.leave();
    return this.build({ kind: "binary", operator: "**", left: base, right: exponent, span: this.cover(base, exponent) }, token.span);
  }

  private postfix(): Expr {
    let expr = this.primary();
    for (;;) {
      if (this.at("(")) expr = this.call(expr);
      else if (this.at("[")) expr = this.subscript(expr);
      else if (this.eat(".")) {
        const name = this.lexer.next();
        if (name.kind !== "name") throw fail(`expected an attribute name after '.', found ${describe(name)}`, name.span);
        // Any identifier is an attribute name here, keywords included (`Param.if`).
        expr = this.build({ kind: "attribute", object: expr, name: name.text, nameSpan: name.span, span: this.cover(expr, name) });
      } else return expr;
    }
  }

  private call(callee: Expr): Expr {
    this.openBracket();
    const args: Expr[] = [];
    while (!this.at(")")) {
      const token = this.lexer.peek();
      if (token.kind === "name" && isOp(this.lexer.peek(1), "=")) {
        throw fail("keyword arguments are not supported", { start: token.span.start, end: this.lexer.peek(1).span.end });
      }
      args.push(this.conditional());
      if (!this.eat(",")) break;
    }
    const closing = this.close(")");
    return this.build({ kind: "call", callee, args, span: this.cover(callee, closing) });
  }

  private subscript(object: Expr): Expr {
    const opening = this.openBracket();
    if (this.at("]")) throw fail("empty subscript '[]'", this.cover(opening, this.lexer.peek()));
    const start = this.at(":") ? null : this.conditional();
    if (!this.eat(":")) {
      if (this.at(",")) throw fail("multiple indices (tuples) are not supported", this.lexer.peek().span);
      const closing = this.close("]");
      return this.build({ kind: "index", object, index: start as Expr, span: this.cover(object, closing) });
    }
    const stop = this.sliceBound();
    const step = this.eat(":") ? this.sliceBound() : null;
    const closing = this.close("]");
    return this.build({ kind: "slice", object, start, stop, step, span: this.cover(object, closing) });
  }

  private sliceBound(): Expr | null {
    return this.at(":") || this.at("]") ? null : this.conditional();
  }

  private primary(): Expr {
    const token = this.lexer.peek();
    switch (token.kind) {
      case "int":
        this.lexer.next();
        if (token.value >= INT64_MAGNITUDE_LIMIT) throw fail("integer literal is out of the 64-bit range", token.span);
        return { kind: "int", value: token.value, span: token.span };
      case "float":
        this.lexer.next();
        return { kind: "float", value: token.value, text: token.text, span: token.span };
      case "string":
        this.lexer.next();
        if (this.lexer.peek().kind === "string") throw fail("adjacent string literals are not supported; join them with '+'", this.lexer.peek().span);
        return { kind: "string", value: token.value, span: token.span };
      case "name":
        return this.name(token);
      case "op":
        if (token.text === "(") return this.parenthesized();
        if (token.text === "[") return this.list();
        throw this.unexpected(token);
      case "eof":
        throw this.unexpected(token);
    }
  }

  private name(token: Token & { kind: "name" }): Expr {
    const { text, span } = token;
    const literal = LITERAL_NAMES.get(text);
    if (literal !== undefined) {
      this.lexer.next();
      return literal === null ? { kind: "null", span } : { kind: "bool", value: literal, span };
    }
    if (EXPRESSION_KEYWORDS.has(text) || refusalFor(token) !== undefined) throw this.unexpected(token);
    if (KEYWORDS.has(text)) throw fail(`'${text}' is a reserved keyword and cannot be used as a name`, span);
    this.lexer.next();
    return { kind: "name", name: text, span };
  }

  private parenthesized(): Expr {
    const opening = this.openBracket();
    if (this.at(")")) throw fail(`empty parentheses '()' are not supported (${TUPLE})`, this.cover(opening, this.lexer.peek()));
    const inner = this.conditional();
    this.outer.set(inner, this.cover(opening, this.close(")")));
    return inner;
  }

  private list(): Expr {
    const opening = this.openBracket();
    const items: Expr[] = [];
    while (!this.at("]")) {
      items.push(this.conditional());
      if (items.length === 1 && isKeyword(this.lexer.peek(), "for")) return this.comprehension(opening, items[0] as Expr);
      if (!this.eat(",")) break;
    }
    const closing = this.close("]");
    return this.build({ kind: "list", items, span: this.cover(opening, closing) });
  }

  private comprehension(opening: Token, element: Expr): Expr {
    this.lexer.next(); // `for`
    const variable = this.lexer.next();
    if (variable.kind !== "name") throw fail(`expected a loop variable name after 'for', found ${describe(variable)}`, variable.span);
    if (this.at(",")) throw fail("tuple unpacking in a comprehension is not supported", this.lexer.peek().span);
    if (isReservedName(variable.text)) throw fail(`'${variable.text}' is a keyword and cannot be a loop variable`, variable.span);
    if (!USER_IDENTIFIER.test(variable.text)) {
      throw fail(`loop variable '${variable.text}' must start with a lowercase letter or '_' ([a-z_][A-Za-z0-9_]*)`, variable.span);
    }
    const inToken = this.lexer.next();
    if (!isKeyword(inToken, "in")) throw fail(`expected 'in' after the loop variable, found ${describe(inToken)}`, inToken.span);
    // Python's grammar: the iterable and the filter are `or` expressions, so a bare `if` starts the filter.
    const iterable = this.or();
    const condition = this.eat({ keyword: "if" }) ? this.or() : null;
    const after = this.lexer.peek();
    if (isKeyword(after, "if")) throw fail("only one 'if' clause is allowed in a list comprehension", after.span);
    if (isKeyword(after, "for")) throw fail("nested comprehensions (more than one 'for') are not supported", after.span);
    const span = this.cover(opening, this.close("]"));
    // The spec allows a single comprehension level: none may sit inside another one.
    const inner = [element, iterable, condition].map((part) => (part === null ? null : findComprehension(part))).find((found) => found !== null);
    if (inner) throw fail("nested comprehensions are not supported", inner.span);
    const node: Expr = { kind: "comprehension", element, variable: variable.text, variableSpan: variable.span, iterable, condition, span };
    return this.build(node);
  }
}

/** The first comprehension inside an expression (trees are depth-limited, so recursion is safe). */
function findComprehension(expr: Expr): Expr | null {
  if (expr.kind === "comprehension") return expr;
  for (const child of childrenOf(expr)) {
    const found = child === null ? null : findComprehension(child);
    if (found) return found;
  }
  return null;
}
