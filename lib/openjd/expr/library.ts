/**
 * The EXPR function library: named overloads with signatures written in the spec's notation
 * (`(list[T1], int) -> T1`) and multiple dispatch over argument types. Operators are functions
 * too (`__add__`, `__contains__`, `__property_name__`), so one dispatcher serves everything.
 */
import { typeError } from "./errors";
import { ANY, FLOAT, INT, STRING, listOf, parseType, resolvedType, splitTopLevel, typeToString, unresolved, type ExprType, type TypeVariable } from "./types";
import { elementsOf, makeList, floatValue, stringValue, typeOf, unresolvedValue, type ExprValue, type PathFormat } from "./values";

/** What a function implementation may use from the evaluator. */
export interface EvalContext {
  /** Format of paths created on this host (POSIX in template scope). */
  readonly pathFormat: PathFormat;
  /** Charges operations to the evaluation budget; throws a limit error when it is spent. */
  charge(operations: number): void;
  /** Charges the processing of `length` characters (ceil(length / 256) operations). */
  chargeText(length: number): void;
  /** Maps a path with the Session's path-mapping rules; null outside host contexts. */
  readonly mapPath: ((value: string) => string) | null;
  /** Throws a limit error if a value of `bytes` could not be allocated (check before building it). */
  assertFits(bytes: number): void;
}

export type FunctionImpl = (args: ExprValue[], ctx: EvalContext) => ExprValue;

export interface Overload {
  readonly signature: string;
  readonly params: readonly ExprType[];
  readonly returns: ExprType;
  readonly impl: FunctionImpl;
  /** True when a parameter mentions a type variable (`T`), so only phase 3 can pick it. */
  readonly generic: boolean;
}

type Bindings = Map<TypeVariable, ExprType>;

export class FunctionLibrary {
  private readonly overloads = new Map<string, Overload[]>();

  /** Registers an overload: `define("len", "(list[T]) -> int", impl)`. */
  define(name: string, signature: string, impl: FunctionImpl): this {
    const match = /^\((.*)\)\s*->\s*(.+)$/.exec(signature.trim());
    if (!match) throw new Error(`bad signature for ${name}: ${signature}`);
    const paramText = (match[1] as string).trim();
    const params = paramText === "" ? [] : splitTopLevel(paramText, ",").map(parseType);
    const list = this.overloads.get(name) ?? [];
    list.push({ signature, params, returns: parseType(match[2] as string), impl, generic: params.some(hasVariables) });
    this.overloads.set(name, list);
    return this;
  }

  has(name: string): boolean {
    return this.overloads.has(name);
  }

  names(): string[] {
    return [...this.overloads.keys()];
  }

  signatures(name: string): readonly Overload[] {
    return this.overloads.get(name) ?? [];
  }

  /**
   * Calls `name` with `args`. With an unresolved argument only the types are checked and an
   * unresolved value of the return type comes back. `method` marks UFCS calls (`x.f()`), whose
   * receiver is never implicitly converted.
   */
  call(name: string, args: ExprValue[], ctx: EvalContext, method = false): ExprValue {
    const candidates = (this.overloads.get(name) ?? []).filter((o) => o.params.length === args.length);
    const types = args.map(typeOf);
    if (types.some((t) => t.code === "unresolved")) {
      // A union-typed argument may be any of its members at run time: the call is valid when some
      // combination of members has an overload, and its type is the union of those results.
      const plain = types.map(resolvedType);
      const returns = memberCombinations(plain).flatMap((combo) => staticReturns(candidates, combo, method));
      if (returns.length === 0) throw noMatch(name, types, this.overloads.get(name));
      return unresolvedValue(returns.length === 1 ? (returns[0] as ExprType) : unionOf(returns));
    }
    for (const phase of [exactPhase, coercingPhase, genericPhase]) {
      for (const overload of candidates) {
        const coerced = phase(overload, args, types, method);
        if (coerced !== null) return overload.impl(coerced, ctx);
      }
    }
    throw noMatch(name, types, this.overloads.get(name));
  }
}

/** Return types of the overloads a call with these (non-union) argument types would dispatch to. */
function staticReturns(candidates: readonly Overload[], types: readonly ExprType[], method: boolean): ExprType[] {
  // Same phases as a concrete call: an exact overload wins over one reached by coercion.
  for (const coerce of [false, true]) {
    const plain = candidates.filter((o) => acceptsPlain(o, types, coerce, method));
    if (plain.length > 0) return plain.map((o) => o.returns);
  }
  for (const o of candidates) {
    const bindings = genericBindings(o, types, method);
    if (bindings !== null) return [substitute(o.returns, bindings)];
  }
  return [];
}

const MAX_COMBINATIONS = 64;

/** Every combination of union members across the arguments (bounded: beyond it, unions stay whole). */
function memberCombinations(types: readonly ExprType[]): ExprType[][] {
  let combos: ExprType[][] = [[]];
  for (const type of types) {
    const members = type.code === "union" ? type.members : [type];
    if (combos.length * members.length > MAX_COMBINATIONS) return [types.slice()];
    combos = combos.flatMap((combo) => members.map((m) => [...combo, m]));
  }
  return combos;
}

function unionOf(types: ExprType[]): ExprType {
  const unique = new Map(types.map((t) => [typeToString(t), t]));
  return unique.size === 1 ? (types[0] as ExprType) : { code: "union", members: [...unique.values()] };
}

function noMatch(name: string, types: readonly ExprType[], overloads: readonly Overload[] | undefined) {
  const shown = displayName(name);
  const args = types.map((t) => typeToString(resolvedType(t))).join(", ");
  if (!overloads || overloads.length === 0) return typeError(`unknown function '${shown}'`);
  // Operators have many overloads; listing them all buries the point.
  if (name.startsWith("__")) return typeError(`${shown} does not accept (${args})`);
  const options = overloads
    .slice(0, 6)
    .map((o) => o.signature)
    .join("; ");
  return typeError(`${shown} does not accept (${args}); it takes ${options}${overloads.length > 6 ? "; …" : ""}`);
}

function displayName(name: string): string {
  const property = /^__property_(.+)__$/.exec(name);
  if (property) return `property '.${property[1]}'`;
  const op: Record<string, string> = {
    __add__: "'+'",
    __sub__: "'-'",
    __mul__: "'*'",
    __truediv__: "'/'",
    __floordiv__: "'//'",
    __mod__: "'%'",
    __pow__: "'**'",
    __neg__: "unary '-'",
    __pos__: "unary '+'",
    __not__: "'not'",
    __eq__: "'=='",
    __ne__: "'!='",
    __lt__: "'<'",
    __le__: "'<='",
    __gt__: "'>'",
    __ge__: "'>='",
    __contains__: "'in'",
    __getitem__: "indexing",
    __getslice__: "slicing",
  };
  return op[name] ?? `${name}()`;
}

/**
 * Phases 1 and 2: a non-generic overload whose parameters take the arguments as they are, or
 * with int→float and path→string when `coerce` (never on a method call's receiver).
 */
function acceptsPlain(o: Overload, types: readonly ExprType[], coerce: boolean, method: boolean): boolean {
  return !o.generic && o.params.every((p, i) => fits(types[i] as ExprType, p, coerce && !(method && i === 0)));
}

/** Phase 3: a generic overload's type variables bound to the arguments' types, or null. */
function genericBindings(o: Overload, types: readonly ExprType[], method: boolean): Bindings | null {
  return o.generic ? matchAll(o.params, types, method) : null;
}

function exactPhase(o: Overload, args: ExprValue[], types: ExprType[], method: boolean): ExprValue[] | null {
  return acceptsPlain(o, types, false, method) ? args : null;
}

function coercingPhase(o: Overload, args: ExprValue[], types: ExprType[], method: boolean): ExprValue[] | null {
  return acceptsPlain(o, types, true, method) ? args.map((a, i) => convertArg(a, o.params[i] as ExprType)) : null;
}

function genericPhase(o: Overload, args: ExprValue[], types: ExprType[], method: boolean): ExprValue[] | null {
  const bindings = genericBindings(o, types, method);
  return bindings === null ? null : args.map((a, i) => convertArg(a, substitute(o.params[i] as ExprType, bindings)));
}

function hasVariables(t: ExprType): boolean {
  switch (t.code) {
    case "var":
      return true;
    case "list":
      return hasVariables(t.item);
    case "union":
      return t.members.some(hasVariables);
    default:
      return false;
  }
}

/** Does a value of `source` pass for `param`, optionally with the int→float / path→string coercions? */
function fits(source: ExprType, param: ExprType, coerce: boolean): boolean {
  if (param.code === "any" || source.code === "any" || source.code === "noreturn") return true;
  if (source.code === "union") return source.members.every((m) => fits(m, param, coerce));
  if (param.code === "union") return param.members.some((m) => fits(source, m, coerce));
  if (param.code === "list") {
    if (source.code === "list") return source.item.code === "nulltype" || fits(source.item, param.item, coerce);
    return coerce && source.code === "range_expr" && fits(INT, param.item, coerce);
  }
  if (source.code === param.code) return true;
  if (!coerce) return false;
  return (source.code === "int" && param.code === "float") || (source.code === "path" && param.code === "string");
}

function matchAll(params: readonly ExprType[], types: readonly ExprType[], method: boolean): Bindings | null {
  if (params.length !== types.length) return null;
  const bindings: Bindings = new Map();
  for (let i = 0; i < params.length; i++) {
    if (!match(params[i] as ExprType, types[i] as ExprType, bindings, !(method && i === 0))) return null;
  }
  return bindings;
}

function match(param: ExprType, arg: ExprType, bindings: Bindings, coerce: boolean): boolean {
  if (arg.code === "unresolved") arg = arg.inner;
  if (param.code === "var") {
    const bound = bindings.get(param.name);
    if (bound === undefined) {
      bindings.set(param.name, arg);
      return true;
    }
    const unified = unify(bound, arg);
    if (unified === null) return false;
    bindings.set(param.name, unified);
    return true;
  }
  if (arg.code === "any" || arg.code === "noreturn") return true;
  if (param.code === "any") return true;
  if (arg.code === "union") return arg.members.every((m) => match(param, m, bindings, coerce));
  if (param.code === "union") {
    for (const member of param.members) {
      const trial = new Map(bindings);
      if (match(member, arg, trial, coerce)) {
        trial.forEach((v, k) => bindings.set(k, v));
        return true;
      }
    }
    return false;
  }
  if (param.code === "list") {
    if (arg.code === "list") return arg.item.code === "nulltype" || match(param.item, arg.item, bindings, coerce);
    return arg.code === "range_expr" && match(param.item, INT, bindings, coerce);
  }
  return fits(arg, param, coerce);
}

/** Unification of two bindings of one type variable (the language's non-destructive coercions). */
function unify(a: ExprType, b: ExprType): ExprType | null {
  const sa = typeToString(a);
  const sb = typeToString(b);
  if (sa === sb) return a;
  const pair = new Set([sa, sb]);
  if (pair.has("int") && pair.has("float") && pair.size === 2) return FLOAT;
  if (pair.has("path") && pair.has("string") && pair.size === 2) return STRING;
  if ((sa === "range_expr" && sb === "list[int]") || (sb === "range_expr" && sa === "list[int]")) return listOf(INT);
  if (a.code === "list" && b.code === "list") {
    if (a.item.code === "nulltype") return b;
    if (b.item.code === "nulltype") return a;
    const item = unify(a.item, b.item);
    return item === null ? null : listOf(item);
  }
  if (a.code === "any" || b.code === "any") return ANY;
  return null;
}

function substitute(type: ExprType, bindings: Bindings): ExprType {
  switch (type.code) {
    case "var":
      return bindings.get(type.name) ?? ANY;
    case "list":
      return listOf(substitute(type.item, bindings));
    case "union":
      return unionOf(type.members.map((m) => substitute(m, bindings)));
    case "unresolved":
      return unresolved(substitute(type.inner, bindings));
    default:
      return type;
  }
}

/** Converts an argument that matched `param` (after substitution) to exactly that type. */
function convertArg(value: ExprValue, param: ExprType): ExprValue {
  if (param.code === "union") {
    const member = param.members.find((m) => fits(typeOf(value), m, false)) ?? param.members.find((m) => fits(typeOf(value), m, true));
    return member ? convertArg(value, member) : value;
  }
  if (param.code === "float" && value.kind === "int") return floatValue(Number(value.value));
  if (param.code === "string" && value.kind === "path") return stringValue(value.value);
  if (param.code === "list") {
    if (value.kind === "range_expr") return makeList(elementsOf(value), INT);
    if (value.kind === "list" && value.items.length > 0) {
      const items = value.items.map((item) => convertArg(item, param.item));
      return makeList(items, param.item.code === "any" || param.item.code === "var" ? value.itemType : param.item);
    }
    if (value.kind === "list" && param.item.code !== "any" && param.item.code !== "var") return makeList([], param.item);
  }
  return value;
}
