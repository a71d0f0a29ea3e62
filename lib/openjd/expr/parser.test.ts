import { describe, expect, it } from "vitest";
import type { Expr } from "./ast";
import { parseExpression, parseLetBinding } from "./parser";

/** A compact, fully parenthesized rendering of a tree, so precedence is visible at a glance. */
function show(e: Expr): string {
  const opt = (x: Expr | null): string => (x === null ? "" : show(x));
  switch (e.kind) {
    case "int":
      return e.value.toString();
    case "float":
      return e.text;
    case "string":
      return JSON.stringify(e.value);
    case "bool":
      return e.value ? "True" : "False";
    case "null":
      return "None";
    case "name":
      return e.name;
    case "attribute":
      return `${show(e.object)}.${e.name}`;
    case "list":
      return `[${e.items.map(show).join(", ")}]`;
    case "comprehension":
      return `[${show(e.element)} for ${e.variable} in ${show(e.iterable)}${e.condition ? ` if ${show(e.condition)}` : ""}]`;
    case "unary":
      return `(${e.operator} ${show(e.operand)})`;
    case "binary":
    case "logical":
      return `(${e.operator} ${show(e.left)} ${show(e.right)})`;
    case "compare":
      return `(${e.operands.map((o, i) => (i === 0 ? show(o) : `${e.operators[i - 1]} ${show(o)}`)).join(" ")})`;
    case "conditional":
      return `(if ${show(e.condition)} then ${show(e.body)} else ${show(e.orElse)})`;
    case "call":
      return `${show(e.callee)}(${e.args.map(show).join(", ")})`;
    case "index":
      return `${show(e.object)}[${show(e.index)}]`;
    case "slice":
      return `${show(e.object)}[${opt(e.start)}:${opt(e.stop)}:${opt(e.step)}]`;
  }
}

function parsed(source: string): Expr {
  const result = parseExpression(source);
  if (!result.ok) throw new Error(`${result.error.message} at ${result.error.span.start}`);
  return result.expr;
}

function refusal(source: string, limits?: { maxDepth?: number; maxLength?: number }): { message: string; start: number; end: number } {
  const result = parseExpression(source, limits);
  if (result.ok) throw new Error(`expected ${JSON.stringify(source)} to be refused, got ${show(result.expr)}`);
  return { message: result.error.message, start: result.error.span.start, end: result.error.span.end };
}

describe("precedence and associativity", () => {
  it.each([
    // conditional < or < and < not < comparison < + - < * / // % < unary < ** < postfix
    ["a if b else c", "(if b then a else c)"],
    ["a if b else c if d else e", "(if b then a else (if d then c else e))"],
    ["(a if b else c) if d else e", "(if d then (if b then a else c) else e)"],
    ["a or b if c or d else e or f", "(if (or c d) then (or a b) else (or e f))"],
    ["a or b or c", "(or (or a b) c)"],
    ["a and b and c", "(and (and a b) c)"],
    ["true or false and false", "(or True (and False False))"],
    ["a and b or c and d", "(or (and a b) (and c d))"],
    ["not a and b", "(and (not a) b)"],
    ["not not a", "(not (not a))"],
    ["not 1 == 2", "(not (1 == 2))"],
    ["not a in b", "(not (a in b))"],
    ["a not in b", "(a not in b)"],
    ["a not in b in c", "(a not in b in c)"],
    ["1 < x < 3", "(1 < x < 3)"],
    ["a < b <= c > d >= e == f != g", "(a < b <= c > d >= e == f != g)"],
    ["1 + 2 < 2 + 3", "((+ 1 2) < (+ 2 3))"],
    ["(1 < 2) < 3", "((1 < 2) < 3)"],
    ["2 + 3 * 4", "(+ 2 (* 3 4))"],
    ["(2 + 3) * 4", "(* (+ 2 3) 4)"],
    ["10 - 4 - 3", "(- (- 10 4) 3)"],
    ["1 - 2 + 3", "(+ (- 1 2) 3)"],
    ["100 // 10 // 5", "(// (// 100 10) 5)"],
    ["a * b / c // d % e", "(% (// (/ (* a b) c) d) e)"],
    ["-a * b", "(* (- a) b)"],
    ["-2 ** 2", "(- (** 2 2))"],
    ["(-2) ** 2", "(** (- 2) 2)"],
    ["2 ** 3 ** 2", "(** 2 (** 3 2))"],
    ["(2 ** 3) ** 2", "(** (** 2 3) 2)"],
    ["2 ** -1", "(** 2 (- 1))"],
    ["2 ** - - 1", "(** 2 (- (- 1)))"],
    ["-x ** -y ** z", "(- (** x (- (** y z))))"],
    ["- + - a", "(- (+ (- a)))"],
    ["a ** b * c", "(* (** a b) c)"],
    ["a.b ** c.d", "(** a.b c.d)"],
    ["-a.b(c)[d]", "(- a.b(c)[d])"],
    ["f(x)(y)[0][1:2].z", "f(x)(y)[0][1:2:].z"],
    ["a + b if c else d", "(if c then (+ a b) else d)"],
    ["x if not y else z", "(if (not y) then x else z)"],
  ])("%s → %s", (source, expected) => {
    expect(show(parsed(source))).toBe(expected);
  });
});

describe("literals and names", () => {
  it.each([
    ["True", "True"],
    ["true", "True"],
    ["False", "False"],
    ["false", "False"],
    ["None", "None"],
    ["null", "None"],
    ["'s'", '"s"'],
    ["r'a\\n'", '"a\\\\n"'],
    ["0x2A", "42"],
    ["1e10", "1e10"],
    ["1_000.5", "1000.5"],
    ["Param.Frame", "Param.Frame"],
    ["Task.Param.Frame", "Task.Param.Frame"],
    ["_x1", "_x1"],
    ["match", "match"],
    ["type", "type"],
    ["(42).zfill(5)", "42.zfill(5)"],
    ["'a'.upper()", '"a".upper()'],
    ["[1, 2].join(',')", '[1, 2].join(",")'],
    ["-9223372036854775808", "-9223372036854775808"],
    ["9223372036854775807", "9223372036854775807"],
    ["- 9223372036854775808", "-9223372036854775808"],
  ])("%s → %s", (source, expected) => {
    expect(show(parsed(source))).toBe(expected);
  });

  it("records exact spans, including the sign folded into int64's minimum", () => {
    expect(parsed("x + -9223372036854775808")).toMatchObject({ right: { kind: "int", value: -(2n ** 63n), span: { start: 4, end: 24 } } });
    expect(parsed("  'ab'  ")).toEqual({ kind: "string", value: "ab", span: { start: 2, end: 6 } });
    expect(parsed("a.b")).toEqual({
      kind: "attribute",
      object: { kind: "name", name: "a", span: { start: 0, end: 1 } },
      name: "b",
      nameSpan: { start: 2, end: 3 },
      span: { start: 0, end: 3 },
    });
  });

  it("includes parentheses in the spans of enclosing nodes but not of the parenthesized node", () => {
    const e = parsed("(a + b).upper()");
    expect(e.span).toEqual({ start: 0, end: 15 });
    expect(e.kind === "call" && e.callee.kind === "attribute" && e.callee.object.span).toEqual({ start: 1, end: 6 });
  });

  it.each([
    ["9223372036854775808", "integer literal is out of the 64-bit range", 0, 19],
    ["(-9223372036854775808) + -(9223372036854775808)", "integer literal is out of the 64-bit range", 27, 46],
    ["-9223372036854775808 ** 1", "integer literal is out of the 64-bit range", 1, 20],
    ["-9223372036854775808.bit_length()", "method calls on number literals need parentheses: (9223372036854775808).bit_length(…)", 1, 31],
    ["'a' 'b'", "adjacent string literals are not supported; join them with '+'", 4, 7],
  ])("refuses %j", (source, message, start, end) => {
    expect(refusal(source)).toEqual({ message, start, end });
  });
});

describe("keywords are contextual", () => {
  const keywords = (
    "False None True and as assert async await break class continue def del elif else except finally for " +
    "from global if import in is lambda nonlocal not or pass raise return try while with yield _ case match type true false null"
  ).split(" ");

  it.each(keywords)("Param.%s is an attribute", (keyword) => {
    expect(parsed(`Param.${keyword}`)).toMatchObject({ kind: "attribute", name: keyword });
  });

  it.each([
    ["Param.if if Param.flag else Param.else", "(if Param.flag then Param.if else Param.else)"],
    ["Param.and if Param.flag and true else Param.or", "(if (and Param.flag True) then Param.and else Param.or)"],
    ["x.True.None.not", "x.True.None.not"],
    ["Param.in in Param.not", "(Param.in in Param.not)"],
    ["Param.for.lambda(Param.is)", "Param.for.lambda(Param.is)"],
  ])("%s → %s", (source, expected) => {
    expect(show(parsed(source))).toBe(expected);
  });

  it.each([
    ["class", "'class' is a reserved keyword and cannot be used as a name", 0, 5],
    ["1 + import", "'import' is a reserved keyword and cannot be used as a name", 4, 10],
    ["if", "unexpected keyword 'if'", 0, 2],
    ["a if b", "expected 'else' in conditional expression 'a if condition else b', found end of expression", 6, 6],
    ["a else b", "unexpected keyword 'else'", 2, 6],
    ["1 + not x", "unexpected keyword 'not'", 4, 7],
    ["a not b", "unexpected keyword 'not'", 2, 5],
    ["yield x", "'yield' is not supported", 0, 5],
    ["await x", "'await' is not supported", 0, 5],
  ])("refuses %j", (source, message, start, end) => {
    expect(refusal(source)).toEqual({ message, start, end });
  });
});

describe("multi-line expressions", () => {
  it.each([
    ["1 +\n    2 +\n    3", "(+ (+ 1 2) 3)"],
    ['"high"\n    if 90 > 80\n    else "low"', '(if (90 > 80) then "high" else "low")'],
    ["[\n    x * 2\n    for x in [1, 2, 3]\n    if x > 1\n]", "[(* x 2) for x in [1, 2, 3] if (x > 1)]"],
    ["f(\r\n  a,\r\n  b,\r\n)", "f(a, b)"],
    ["Param\n.Name\n.upper()", "Param.Name.upper()"],
  ])("%j", (source, expected) => {
    expect(show(parsed(source))).toBe(expected);
  });
});

describe("lists, calls, subscripts and comprehensions", () => {
  it.each([
    ["[]", "[]"],
    ["[1]", "[1]"],
    ["[1,]", "[1]"],
    ["[1, 2, 3,]", "[1, 2, 3]"],
    ["[[1, 2], []]", "[[1, 2], []]"],
    ["f()", "f()"],
    ["f(a, b)", "f(a, b)"],
    ["f(a,)", "f(a)"],
    ["f(a if b else c)", "f((if b then a else c))"],
    ["x[0]", "x[0]"],
    ["x[-1]", "x[(- 1)]"],
    ["x[:]", "x[::]"],
    ["x[::]", "x[::]"],
    ["x[1:]", "x[1::]"],
    ["x[:2]", "x[:2:]"],
    ["x[::-1]", "x[::(- 1)]"],
    ["x[a:b:c]", "x[a:b:c]"],
    ["x[1:2:]", "x[1:2:]"],
    ["x[a if b else c]", "x[(if b then a else c)]"],
    ["[x for x in y]", "[x for x in y]"],
    ["[x * 2 for x in y if x > 1]", "[(* x 2) for x in y if (x > 1)]"],
    ["[a if c else b for x in y]", "[(if c then a else b) for x in y]"],
    ["[['-e', e] for e in Task.Environment]", '[["-e", e] for e in Task.Environment]'],
    ["[x for x in a or b if c and d]", "[x for x in (or a b) if (and c d)]"],
    ["[x for x in (a if b else c)]", "[x for x in (if b then a else c)]"],
    ["[_ for _i2 in y]", "[_ for _i2 in y]"],
    ["[v for vName in y]", "[v for vName in y]"],
  ])("%s → %s", (source, expected) => {
    expect(show(parsed(source))).toBe(expected);
  });

  it("records the loop variable's span", () => {
    expect(parsed("[x for item in y]")).toMatchObject({ kind: "comprehension", variable: "item", variableSpan: { start: 7, end: 11 }, span: { start: 0, end: 17 } });
  });

  it.each([
    ["[x for X in y]", "loop variable 'X' must start with a lowercase letter or '_' ([a-z_][A-Za-z0-9_]*)", 7, 8],
    ["[x for Param in y]", "loop variable 'Param' must start with a lowercase letter or '_' ([a-z_][A-Za-z0-9_]*)", 7, 12],
    ["[x for if in y]", "'if' is a keyword and cannot be a loop variable", 7, 9],
    ["[x for null in y]", "'null' is a keyword and cannot be a loop variable", 7, 11],
    ["[x for a, b in y]", "tuple unpacking in a comprehension is not supported", 8, 9],
    ["[x for (a) in y]", "expected a loop variable name after 'for', found '('", 7, 8],
    ["[x for x of y]", "expected 'in' after the loop variable, found name 'of'", 9, 11],
    ["[x for x in y for z in x]", "nested comprehensions (more than one 'for') are not supported", 14, 17],
    ["[[y for y in x] for x in z]", "nested comprehensions are not supported", 1, 15],
    ["[x for x in [y for y in z]]", "nested comprehensions are not supported", 12, 26],
    ["[x for x in y if a if b]", "only one 'if' clause is allowed in a list comprehension", 19, 21],
    ["[x for x in y if a else b]", "expected ',' or ']', found keyword 'else'", 19, 23],
    ["[1, x for x in y]", "generator expressions are not supported; use a list comprehension [… for … in …]", 6, 9],
    ["(x for x in y)", "generator expressions are not supported; use a list comprehension [… for … in …]", 3, 6],
    ["f(x for x in y)", "generator expressions are not supported; use a list comprehension [… for … in …]", 4, 7],
    ["x[]", "empty subscript '[]'", 1, 3],
    ["x[1, 2]", "multiple indices (tuples) are not supported", 3, 4],
    ["x[1:2, 3]", "tuple literals are not supported; use a list instead", 5, 6],
    ["[1 2]", "expected ',' or ']', found number 2", 3, 4],
    ["f(a b)", "expected ',' or ')', found name 'b'", 4, 5],
    ["[1, 2", "'[' was never closed", 0, 1],
    ["f(1, [2", "'[' was never closed", 5, 6],
    ["x.", "expected an attribute name after '.', found end of expression", 2, 2],
    ["x[0].1", "unexpected number .1", 4, 6],
    ["x.'a'", "expected an attribute name after '.', found string literal", 2, 5],
  ])("refuses %j", (source, message, start, end) => {
    expect(refusal(source)).toEqual({ message, start, end });
  });
});

describe("refused constructs", () => {
  it.each([
    ["", "empty expression", 0, 0],
    ["   \n ", "empty expression", 5, 5],
    ["x = 1", "assignment ('=') is not supported; use '==' to compare", 2, 3],
    ["(x = 1)", "assignment ('=') is not supported; use '==' to compare", 3, 4],
    ["(x := 1)", "assignment expressions (':=') are not supported", 3, 5],
    ["x := 1", "assignment expressions (':=') are not supported", 2, 4],
    ["lambda x: x", "lambda expressions are not supported", 0, 6],
    ["f(lambda: 1)", "lambda expressions are not supported", 2, 8],
    ["f(a=1)", "keyword arguments are not supported", 2, 4],
    ["f(1, key = 2)", "keyword arguments are not supported", 5, 10],
    ["f(*args)", "star expressions ('*x') are not supported", 2, 3],
    ["f(**kwargs)", "'**' unpacking is not supported", 2, 4],
    ["[*a, 1]", "star expressions ('*x') are not supported", 1, 2],
    ["f'{x}'", "f-strings are not supported; use '+' or format functions", 0, 2],
    ["{'a': 1}", "dict and set literals ('{') are not supported", 0, 1],
    ["(1, 2)", "tuple literals are not supported; use a list instead", 2, 3],
    ["1, 2", "tuple literals are not supported; use a list instead", 1, 2],
    ["()", "empty parentheses '()' are not supported (tuple literals are not supported; use a list instead)", 0, 2],
    ["a & b", "'&' (bitwise operators) is not supported", 2, 3],
    ["a | b", "'|' (bitwise operators) is not supported", 2, 3],
    ["a ^ b", "'^' (bitwise operators) is not supported", 2, 3],
    ["~a", "'~' (bitwise operators) is not supported", 0, 1],
    ["a << b", "'<<' (bitwise operators) is not supported", 2, 4],
    ["a >> b", "'>>' (bitwise operators) is not supported", 2, 4],
    ["a is b", "'is' (identity comparison) is not supported; use '==' or '!='", 2, 4],
    ["a is not b", "'is' (identity comparison) is not supported; use '==' or '!='", 2, 4],
    ["x $ y", "unexpected character '$'", 2, 3],
    ["1 +", "unexpected end of expression", 3, 3],
    ["(1 + 2", "'(' was never closed", 0, 1],
    ["1 + 2)", "unexpected ')' (no matching opening bracket)", 5, 6],
    ["a b", "unexpected name 'b'", 2, 3],
    ["f(1) x", "unexpected name 'x'", 5, 6],
    ["1 2", "unexpected number 2", 2, 3],
    ["x 'a'", "unexpected string literal", 2, 5],
    ["a < > b", "unexpected '>'", 4, 5],
    ["...", "unexpected '.'", 0, 1],
    ["a +* b", "star expressions ('*x') are not supported", 3, 4],
  ])("refuses %j: %s", (source, message, start, end) => {
    expect(refusal(source)).toEqual({ message, start, end });
  });
});

describe("limits", () => {
  const deep = (n: number, open: string, inner: string, close: string): string => open.repeat(n) + inner + close.repeat(n);
  const TOO_DEEP = "expression is nested too deeply (the limit is 100 levels)";

  it.each([
    ["parentheses", "(", "x", ")"],
    ["lists", "[", "x", "]"],
    ["calls", "f(", "x", ")"],
    ["unary minus", "-", "x", ""],
    ["not", "not ", "x", ""],
    ["indexes", "x[", "0", "]"],
  ])("accepts 100 levels of %s and refuses 101", (_what, open, inner, close) => {
    expect(parseExpression(deep(100, open, inner, close)).ok).toBe(true);
    expect(refusal(deep(101, open, inner, close)).message).toBe(TOO_DEEP);
  });

  it("refuses deep right-associative chains (** and else) and deep left-associative trees", () => {
    expect(refusal(Array(102).fill("2").join(" ** ")).message).toBe(TOO_DEEP);
    expect(refusal(`${"a if b else ".repeat(101)}c`).message).toBe(TOO_DEEP);
    expect(refusal(`${Array(102).fill("1").join(" + ")}`)).toEqual({ message: TOO_DEEP, start: 402, end: 403 });
    expect(parseExpression(Array(100).fill("1").join(" + ")).ok).toBe(true);
    expect(parseExpression(`[${Array(10_000).fill("1").join(", ")}]`).ok).toBe(true);
    expect(parseExpression(`a ${Array(1_000).fill("< a").join(" ")}`).ok).toBe(true);
  });

  it("returns an error quickly, without a stack overflow, for 100,000 levels of nesting", () => {
    const started = Date.now();
    for (const [open, close] of [
      ["(", ")"],
      ["[", "]"],
      ["-", ""],
      ["not ", ""],
      ["f(", ")"],
    ] as const) {
      expect(refusal(deep(100_000, open, "1", close)).message).toBe(TOO_DEEP);
    }
    expect(refusal(`${"1 + ".repeat(100_000)}1`).message).toBe(TOO_DEEP);
    expect(refusal(`${"2 ** ".repeat(100_000)}1`).message).toBe(TOO_DEEP);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("honours custom limits, and a raised limit beyond the stack still returns an error", () => {
    expect(refusal("((x))", { maxDepth: 1 }).message).toBe("expression is nested too deeply (the limit is 1 levels)");
    expect(refusal("x".repeat(11), { maxLength: 10 })).toEqual({ message: "expression is too long (11 characters; the limit is 10)", start: 10, end: 11 });
    expect(parseExpression("x".repeat(1_000_000)).ok).toBe(true);
    expect(refusal("x".repeat(1_000_001)).message).toMatch(/too long/);
    expect(refusal(deep(1_000_000, "(", "x", ")"), { maxDepth: Infinity, maxLength: Infinity }).message).toMatch(/nested too deeply/);
  });
});

describe("parseLetBinding", () => {
  it.each([
    ["x = 1", "x", 4, "1"],
    ["y = x + 1", "y", 4, "(+ x 1)"],
    ["gpu_count = 1 if Param.NeedGpu else 0", "gpu_count", 12, "(if Param.NeedGpu then 1 else 0)"],
    ["_a1=  'q'", "_a1", 6, '"q"'],
    ["camelCase =\n  [x for x in y]", "camelCase", 14, "[x for x in y]"],
    ["eq = a == b", "eq", 5, "(a == b)"],
    ['tdq = """triple\ndouble"""', "tdq", 6, '"triple\\ndouble"'],
  ])("%j", (text, name, exprOffset, expected) => {
    const result = parseLetBinding(text);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect({ name: result.name, nameSpan: result.nameSpan, exprOffset: result.exprOffset, expr: show(result.expr) }).toEqual({
      name,
      nameSpan: { start: 0, end: name.length },
      exprOffset,
      expr: expected,
    });
  });

  it.each([
    ["Foo = 1", "let binding name 'Foo' must start with a lowercase letter or '_' ([a-z_][A-Za-z0-9_]*)", 0, 3],
    ["1x = 1", "let binding name '1x' must start with a lowercase letter or '_' ([a-z_][A-Za-z0-9_]*)", 0, 2],
    [" x = 1", "a let binding has the form 'name = expression'", 0, 1],
    ["= 1", "a let binding has the form 'name = expression'", 0, 1],
    ["", "a let binding has the form 'name = expression'", 0, 0],
    ["x == 1", "expected '=' after the let binding name 'x' ('name = expression')", 2, 3],
    ["x 1", "expected '=' after the let binding name 'x' ('name = expression')", 2, 3],
    ["x-y = 1", "expected '=' after the let binding name 'x' ('name = expression')", 1, 2],
    ["x", "expected '=' after the let binding name 'x' ('name = expression')", 1, 1],
    ["x =  ", "let binding 'x' has no expression after '='", 5, 5],
    ["if = 1", "'if' is a keyword and cannot be a let binding name", 0, 2],
    ["null = 1", "'null' is a keyword and cannot be a let binding name", 0, 4],
    [`${"a".repeat(513)} = 1`, "let binding name is longer than 512 characters", 0, 513],
    ["x = 1 +", "unexpected end of expression", 7, 7],
    ["x = (1, 2)", "tuple literals are not supported; use a list instead", 6, 7],
    ["x = y = 1", "assignment ('=') is not supported; use '==' to compare", 6, 7],
  ])("refuses %j", (text, message, start, end) => {
    expect(parseLetBinding(text)).toEqual({ ok: false, error: { message, span: { start, end } } });
  });
});
