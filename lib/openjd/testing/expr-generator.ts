/**
 * Seeded generator of random EXPR expressions that are mostly well formed and mostly well typed:
 * literals of every kind (int64 edges, floats, escaped strings), lists and comprehensions, calls
 * of whatever the function library holds (read from its signatures, so new functions are
 * exercised as soon as they are registered) as plain calls and UFCS methods, properties,
 * indexing and slicing, chained comparisons, conditionals and `and`/`or`. A small share of
 * choices is deliberately wrong (another type, another arity) so type errors are exercised too.
 */
import type { FunctionLibrary } from "../expr/library";
import { typeToString } from "../expr/types";
import { GEN_TYPES, symbolsOfType, type GenType } from "./expr-symbols";
import type { Random } from "./random";

/** Source text with the precedence of its outermost construct (higher binds tighter). */
interface Piece {
  text: string;
  prec: number;
  /** Number literals cannot take `.method()` without parentheses (`1.f` is a float). */
  numeric?: boolean;
}

const P = { conditional: 1, or: 2, and: 3, not: 4, compare: 5, additive: 6, multiplicative: 7, unary: 8, power: 9, atom: 10 } as const;

interface Callable {
  name: string;
  params: string[];
  /** Properties are written `receiver.name`, without parentheses. */
  property: boolean;
}

const INT_LITERALS = ["0", "1", "2", "3", "7", "10", "42", "255", "9223372036854775807", "-9223372036854775808", "0x7fffffffffffffff", "0b1010", "0o17", "1_000_000", "4294967296", "-1"];
const FLOAT_LITERALS = ["1.5", "0.1", "1e308", "5e-324", ".5", "1.", "3.500", "1_000.5", "2.5e-3", "1E10", "0.0", "1.7976931348623157e308", "-2.5"];
const STRING_LITERALS = [
  "'plain'",
  '"double"',
  "'it\\'s'",
  "'\\n\\t\\\\'",
  "'\\x41\\u00e9\\U0001F600'",
  "r'C:\\raw\\path'",
  "'{{'",
  "'}}'",
  "''",
  "'héllo wörld'",
  "'a,b,,c'",
  "'  spaced  '",
  "'1-10:2'",
  "'/abs/dir/file.tar.gz'",
  "'\\''",
  "'\\0'",
  '"\\"q\\""',
  "'%s %d'",
  "'ß'",
  "'İ'",
  "'\\N{BULLET}'",
  "'42'",
  "'-7'",
  "'3.25'",
  "'1e3'",
  "'  12 '",
];
const FALLBACK_PROPERTIES = ["stem", "name", "suffix", "suffixes", "parent", "parts"];
const TYPE_VARIABLE = /\bT[123]?\b/g;

/** Public functions and properties of the library, with type variables instantiated. */
function indexLibrary(lib: FunctionLibrary): { byReturn: Map<GenType, Callable[]>; all: Callable[] } {
  const byReturn = new Map<GenType, Callable[]>();
  const all: Callable[] = [];
  for (const name of lib.names()) {
    const property = /^__property_(.+)__$/.exec(name);
    if (name.startsWith("__") && !property) continue;
    for (const overload of lib.signatures(name)) {
      const params = overload.params.map(typeToString);
      const returns = typeToString(overload.returns);
      const bindings = /\bT[123]?\b/.test([...params, returns].join(",")) ? ["int", "string", "float", "path"] : [""];
      for (const binding of bindings) {
        const callable = { name: property ? (property[1] as string) : name, params: params.map((p) => p.replace(TYPE_VARIABLE, binding)), property: property !== null };
        all.push(callable);
        for (const member of returns.replace(TYPE_VARIABLE, binding).split(" | ")) {
          const type = member.replace(/\?$/, "") as GenType;
          if (GEN_TYPES.includes(type)) byReturn.set(type, [...(byReturn.get(type) ?? []), callable]);
        }
      }
    }
  }
  return { byReturn, all };
}

const cache = new WeakMap<FunctionLibrary, ReturnType<typeof indexLibrary>>();

export class ExprGenerator {
  private readonly index: ReturnType<typeof indexLibrary>;
  private readonly locals: Array<{ name: string; type: GenType }> = [];
  private loopCounter = 0;

  constructor(
    private readonly rng: Random,
    lib: FunctionLibrary,
    private readonly maxDepth = 4,
  ) {
    this.index = cache.get(lib) ?? indexLibrary(lib);
    cache.set(lib, this.index);
  }

  /** One expression of a random type. */
  expression(): string {
    return this.of(this.rng.pick(GEN_TYPES), 0).text;
  }

  /** One expression that should have `type` (most of the time). */
  of(type: GenType, depth: number): Piece {
    const r = this.rng;
    if (depth > 0 && r.chance(0.06)) type = r.pick(GEN_TYPES); // the occasional wrong type
    if (depth >= this.maxDepth || r.chance(0.25)) return this.leaf(type);
    const d = depth + 1;
    switch (r.int(10)) {
      case 0:
        return this.conditional(type, d);
      case 1:
      case 2:
        return this.call(type, d);
      case 3:
        return this.element(type, d);
      default:
        return this.specific(type, d);
    }
  }

  private leaf(type: GenType): Piece {
    const r = this.rng;
    const locals = this.locals.filter((l) => l.type === type);
    if (locals.length > 0 && r.chance(0.6)) return atom(r.pick(locals).name);
    const symbols = symbolsOfType(type);
    if (symbols.length > 0 && r.chance(0.35)) return atom(r.pick(symbols).name);
    switch (type) {
      case "int": {
        const text = r.chance(0.7) ? String(r.between(0, 20)) : r.pick(INT_LITERALS);
        return { text, prec: text.startsWith("-") ? P.unary : P.atom, numeric: true };
      }
      case "float": {
        const text = r.pick(FLOAT_LITERALS);
        return { text, prec: text.startsWith("-") ? P.unary : P.atom, numeric: true };
      }
      case "string":
        return r.chance(0.3) ? atom(`'${randomWord(r)}'`) : atom(r.pick(STRING_LITERALS));
      case "bool":
        return atom(r.pick(["true", "false", "True", "False"]));
      case "path":
        return atom(r.pick(symbolsOfType("path")).name);
      case "range_expr":
        return atom(r.pick(["range_expr('1-10')", "range_expr('1-100:7,3')", "range_expr('-5--1')", "range_expr([3, 1, 2])", "Param.Frames"]));
      default:
        return this.listLiteral(type, this.maxDepth);
    }
  }

  /** Constructs that only make sense for the type. */
  private specific(type: GenType, d: number): Piece {
    const r = this.rng;
    switch (type) {
      case "int":
      case "float": {
        if (r.chance(0.15)) return { text: `-${this.wrap(this.of(type, d), P.unary)}`, prec: P.unary };
        if (r.chance(0.15)) return this.binary(this.of(type, d), "**", atom(String(r.between(-2, 5))), P.power);
        const op = r.pick(type === "int" ? ["+", "-", "*", "//", "%"] : ["+", "-", "*", "/", "//", "%"]);
        return this.binary(this.of(type, d), op, this.of(r.chance(0.2) ? "int" : type, d), op === "+" || op === "-" ? P.additive : P.multiplicative);
      }
      case "string":
        if (r.chance(0.2)) return this.binary(this.of("string", d), "*", this.leaf("int"), P.multiplicative);
        if (r.chance(0.3)) return this.subscript(this.of("string", d), d);
        return this.binary(this.of("string", d), "+", this.of("string", d), P.additive);
      case "bool":
        return this.boolean(d);
      case "path":
        return r.chance(0.5) ? this.binary(this.of("path", d), "/", this.of("string", d), P.multiplicative) : this.property(d);
      case "range_expr":
        return this.subscript(this.of("range_expr", d), d, true);
      default:
        if (r.chance(0.35)) return this.comprehension(type, d);
        if (r.chance(0.2)) return this.subscript(this.of(type, d), d, true);
        if (r.chance(0.2)) return this.binary(this.of(type, d), "+", this.of(type, d), P.additive);
        return this.listLiteral(type, d);
    }
  }

  private boolean(d: number): Piece {
    const r = this.rng;
    const kind = r.int(5);
    if (kind === 0) return { text: `not ${this.wrap(this.of("bool", d), P.not)}`, prec: P.not };
    if (kind === 1) {
      const op = r.pick(["and", "or"]);
      return this.binary(this.of("bool", d), op, this.of("bool", d), op === "and" ? P.and : P.or);
    }
    if (kind === 2) {
      const item = r.pick(["int", "string", "path"] as const);
      const container = item === "string" && r.chance(0.5) ? "string" : (`list[${item}]` as GenType);
      return this.binary(this.of(item, d), r.pick(["in", "not in"]), this.of(container, d), P.compare);
    }
    const type = r.pick(["int", "float", "string", "bool", "list[int]", "path"] as const);
    const operands = Array.from({ length: r.between(2, 4) }, () => this.wrap(this.of(type, d), P.additive));
    const ops = operands.slice(1).map(() => r.pick(["<", ">", "<=", ">=", "==", "!="]));
    return { text: operands.map((o, i) => (i === 0 ? o : `${ops[i - 1]} ${o}`)).join(" "), prec: P.compare };
  }

  private conditional(type: GenType, d: number): Piece {
    const body = this.wrap(this.of(type, d), P.or);
    const condition = this.wrap(this.of("bool", d), P.or);
    return { text: `${body} if ${condition} else ${this.wrap(this.of(type, d), P.conditional)}`, prec: P.conditional };
  }

  /** A call of a library function returning `type` (or, now and then, any function at all). */
  private call(type: GenType, d: number): Piece {
    const r = this.rng;
    const fitting = this.index.byReturn.get(type) ?? [];
    const random = fitting.length === 0 || r.chance(0.1);
    const pool = random ? this.index.all : fitting;
    if (pool.length === 0) return this.leaf(type);
    const callable = r.pick(pool);
    let params = callable.params;
    if (random && r.chance(0.5)) params = Array.from({ length: r.int(4) }, () => r.pick(GEN_TYPES)); // wrong arity or kinds
    const args = params.map((p) => this.argument(p, d));
    if (callable.property) return this.postfix(args[0] ?? this.leaf("string"), `.${callable.name}`);
    if (args.length > 0 && r.chance(0.4)) {
      return this.postfix(
        args[0] as Piece,
        `.${callable.name}(${args
          .slice(1)
          .map((a) => a.text)
          .join(", ")})`,
      );
    }
    return atom(`${callable.name}(${args.map((a) => a.text).join(", ")})`);
  }

  /** `receiver.name` for a library property, or a plausible one that may not exist. */
  private property(d: number): Piece {
    const r = this.rng;
    const properties = this.index.all.filter((c) => c.property);
    if (properties.length > 0 && r.chance(0.8)) {
      const p = r.pick(properties);
      return this.postfix(this.argument(p.params[0] ?? "path", d), `.${p.name}`);
    }
    return this.postfix(atom(r.pick(symbolsOfType("path")).name), `.${r.pick(FALLBACK_PROPERTIES)}`);
  }

  /** An argument for a parameter written in the spec's notation. */
  private argument(param: string, d: number): Piece {
    const r = this.rng;
    const members = param.split(" | ");
    if (members.length > 1) return this.argument(r.pick(members), d);
    if (param.endsWith("?")) return r.chance(0.3) ? atom(r.pick(["null", "None"])) : this.argument(param.slice(0, -1), d);
    if (param === "nulltype") return atom("null");
    if (param === "list[nulltype]") return atom("[]");
    if (GEN_TYPES.includes(param as GenType)) return this.of(param as GenType, d);
    if (param.startsWith("list[")) return this.of(r.pick(GEN_TYPES.filter((t) => t.startsWith("list["))), d);
    return this.of(r.pick(GEN_TYPES), d);
  }

  /** An element of a list (indexing), or a value drawn from a list symbol. */
  private element(type: GenType, d: number): Piece {
    const listType = `list[${type}]` as GenType;
    if (!GEN_TYPES.includes(listType)) return this.specific(type, d);
    return this.postfix(this.of(listType, d), `[${this.index_(d)}]`);
  }

  private index_(d: number): string {
    const r = this.rng;
    return r.chance(0.8) ? String(r.between(-4, 5)) : this.of("int", d).text;
  }

  private subscript(object: Piece, d: number, sliceOnly = false): Piece {
    const r = this.rng;
    if (!sliceOnly && r.chance(0.4)) return this.postfix(object, `[${this.index_(d)}]`);
    const bound = () => (r.chance(0.4) ? "" : this.index_(d));
    const step = r.chance(0.6) ? "" : `:${r.chance(0.2) ? "0" : bound()}`;
    return this.postfix(object, `[${bound()}:${bound()}${step}]`);
  }

  private listLiteral(type: GenType, d: number): Piece {
    const r = this.rng;
    const item = (type.startsWith("list[") ? type.slice(5, -1) : r.pick(GEN_TYPES)) as GenType;
    const items = Array.from({ length: r.int(5) }, () => (d >= this.maxDepth ? this.leaf(item) : this.of(item, d)).text);
    return atom(`[${items.join(", ")}${items.length > 0 && r.chance(0.1) ? "," : ""}]`);
  }

  private comprehension(type: GenType, d: number): Piece {
    const r = this.rng;
    const item = type.slice(5, -1) as GenType;
    const source = r.pick(["int", "string", "path", "float"] as const);
    const iterable = r.chance(0.5) ? atom(`range(${r.between(0, 12)})`) : this.of(`list[${source}]` as GenType, d);
    const name = `v${this.loopCounter++}`;
    this.locals.push({ name, type: iterable.text.startsWith("range(") ? "int" : source });
    try {
      const element = this.of(GEN_TYPES.includes(item) ? item : "int", d);
      const condition = r.chance(0.4) ? ` if ${this.wrap(this.of("bool", d), P.or)}` : "";
      return atom(`[${element.text} for ${name} in ${this.wrap(iterable, P.or)}${condition}]`);
    } finally {
      this.locals.pop();
    }
  }

  private binary(left: Piece, op: string, right: Piece, prec: number): Piece {
    const rightPrec = op === "**" ? P.unary : prec + 1;
    return { text: `${this.wrap(left, op === "**" ? P.atom : prec)} ${op} ${this.wrap(right, rightPrec)}`, prec };
  }

  private postfix(object: Piece, suffix: string): Piece {
    const text = object.prec < P.atom || object.numeric ? `(${object.text})` : object.text;
    return atom(`${text}${suffix}`);
  }

  private wrap(piece: Piece, min: number): string {
    return piece.prec < min || this.rng.chance(0.03) ? `(${piece.text})` : piece.text;
  }
}

function atom(text: string): Piece {
  return { text, prec: P.atom };
}

function randomWord(r: Random): string {
  const alphabet = "abcXYZ019 _-./\\é";
  return Array.from({ length: r.int(8) }, () => alphabet[r.int(alphabet.length)])
    .join("")
    .replace(/\\/g, "\\\\");
}
