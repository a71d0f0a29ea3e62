/**
 * The EXPR corpus of a set of template documents: every `{{ … }}` expression and every `let`
 * expression in their string values, each with the symbols its document defines (parameters
 * with their defaults or supplied values, task parameters, embedded files, session values, let
 * bindings). Documents come in already parsed, so this stays pure; bench/ reads the files.
 */
import { childrenOf, type Expr } from "../expr/ast";
import { evaluate } from "../expr/evaluator";
import { scanExprFormatString } from "../expr/format-string-expr";
import type { FunctionLibrary } from "../expr/library";
import { parseLetBinding } from "../expr/parser";
import { ANY, type ExprType } from "../expr/types";
import { typeOf, unresolvedValue, type ExprValue } from "../expr/values";
import { sampleValue, valueFromData } from "./expr-sample-values";

export interface CorpusExpression {
  source: string;
  /** File and kind (`let` or `format`), for reports. */
  origin: string;
  /** Symbols of the expression's document, by dotted name. */
  symbols: ReadonlyMap<string, { type: ExprType; value: ExprValue | null }>;
  /** Let bindings of the document in order, so later ones can use earlier ones. */
  lets: ReadonlyArray<{ name: string; expr: Expr }>;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Symbols = Map<string, { type: ExprType; value: ExprValue | null }>;

/** Small expressions typical of templates, used when the samples are not on disk. */
export const BUILT_IN_EXPRESSIONS: readonly string[] = [
  "Param.Frame",
  "Task.Param.Frame",
  "Param.Frame * 2 + 1",
  "Param.Name.upper()",
  "Param.File.stem",
  "Session.WorkingDirectory / 'out'",
  "Param.Scale if Param.Flag else 1.0",
  "len(Param.Numbers) > 3 and Param.Count != 0",
  "[x * 2 for x in Param.Numbers if x > 1]",
  "string(Task.Param.Frame).zfill(4)",
  "Param.Names.join(',')",
  "Param.Frames[0]",
  "Param.Numbers[1:-1:2]",
  "repr_sh(Param.Names)",
  "'{{' + Param.Name + '}}'",
  "Param.Frame in Param.Frames",
  "max(Param.Numbers) - min(Param.Numbers)",
  "round(Param.Scale * 3.7, 2)",
  "Param.Text.strip().split(' ')",
  "1 < Param.Frame <= 100",
  "sorted(unique(Param.Numbers))",
  "flatten(Param.Matrix)",
  "Env.File.Config",
  "'frame-' + string(Param.Frame) + '.exr'",
  "repr_json([Param.Name, string(Param.Frame)])",
  "sum(range(Param.Count))",
];

/** Every expression of one parsed document (`origin` names the file). */
export function expressionsInDocument(doc: unknown, origin: string, library: FunctionLibrary): CorpusExpression[] {
  const symbols: Symbols = new Map();
  const supplied = isObject(doc) && isObject(doc.parameters) ? doc.parameters : {};
  collectSymbols(doc as Json, supplied, symbols);
  const lets: Array<{ name: string; expr: Expr }> = [];
  const found: Array<{ source: string; origin: string }> = [];
  visitStrings(doc as Json, false, (text, isLet) => {
    if (isLet) {
      const binding = parseLetBinding(text);
      if (!binding.ok) return;
      lets.push({ name: binding.name, expr: binding.expr });
      found.push({ source: text.slice(binding.exprOffset), origin: `${origin} (let)` });
    } else if (text.includes("{{")) {
      const scanned = scanExprFormatString(text);
      if (!scanned.ok) return;
      for (const segment of scanned.segments) if (segment.kind === "expression") found.push({ source: segment.source, origin: `${origin} (format)` });
    }
  });
  for (const { name, expr } of lets) {
    const value = letValue(expr, symbols, library);
    symbols.set(name, { type: value === null ? ANY : typeOf(value), value });
  }
  return found.map((f) => ({ ...f, symbols, lets }));
}

function letValue(expr: Expr, symbols: Symbols, library: FunctionLibrary): ExprValue | null {
  const concrete = new Map<string, ExprValue>();
  for (const [name, symbol] of symbols) if (symbol.value !== null) concrete.set(name, symbol.value);
  try {
    return evaluate(expr, { library, symbols: concrete, pathFormat: "POSIX", mapPath: (v) => v });
  } catch {
    return null;
  }
}

function isObject(value: unknown): value is Record<string, Json> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function collectSymbols(node: Json, supplied: Record<string, Json>, symbols: Symbols): void {
  if (Array.isArray(node)) return node.forEach((n) => collectSymbols(n, supplied, symbols));
  if (!isObject(node)) return;
  for (const p of list(node.parameterDefinitions)) {
    const type = String(p.type ?? "STRING").toUpperCase();
    const given = p.name !== undefined && String(p.name) in supplied ? supplied[String(p.name)] : p.default;
    addParameter(symbols, `Param.${String(p.name)}`, `RawParam.${String(p.name)}`, type, given ?? null);
  }
  for (const p of list(node.taskParameterDefinitions)) {
    const first = Array.isArray(p.range) ? (p.range[0] ?? null) : null;
    addParameter(symbols, `Task.Param.${String(p.name)}`, `Task.RawParam.${String(p.name)}`, String(p.type ?? "INT").toUpperCase(), first);
  }
  for (const f of list(node.embeddedFiles)) {
    for (const prefix of ["Task.File.", "Env.File."]) symbols.set(prefix + String(f.name), typed(sampleValue("PATH")));
  }
  if (typeof node.name === "string") symbols.set("Step.Name", typed(sampleValue("STRING", node.name)));
  for (const value of Object.values(node)) collectSymbols(value, supplied, symbols);
}

/** A symbol whose static type is that of its sample value. */
function typed(value: ExprValue): { type: ExprType; value: ExprValue } {
  return { type: typeOf(value), value };
}

function addParameter(symbols: Symbols, name: string, rawName: string, type: string, given: Json): void {
  symbols.set(name, typed(valueFromData(type, given) ?? sampleValue(type)));
  symbols.set(rawName, typed(valueFromData(type, given, true) ?? sampleValue(type, undefined, true)));
}

function list(value: Json | undefined): Array<Record<string, Json>> {
  return Array.isArray(value) ? value.filter(isObject) : [];
}

function visitStrings(node: Json, inLet: boolean, visit: (text: string, isLet: boolean) => void): void {
  if (typeof node === "string") visit(node, inLet);
  else if (Array.isArray(node)) node.forEach((n) => visitStrings(n, inLet, visit));
  else if (isObject(node)) for (const [key, value] of Object.entries(node)) visitStrings(value, key === "let", visit);
}

/** Values host-side expressions may use without their document defining them (session, wrapped action). */
export const HOST_SAMPLE: ReadonlyMap<string, string> = new Map([
  ["Session.WorkingDirectory", "PATH"],
  ["Session.PathMappingRulesFile", "PATH"],
  ["Session.HasPathMappingRules", "BOOL"],
  ["Job.Name", "STRING"],
  ["Step.Name", "STRING"],
  ["WrappedAction.Command", "STRING"],
  ["WrappedAction.Args", "LIST[STRING]"],
  ["WrappedAction.Environment", "LIST[STRING]"],
  ["WrappedAction.Timeout", "INT"],
  ["WrappedAction.Cancelation.Mode", "STRING"],
  ["WrappedAction.Cancelation.NotifyPeriodInSeconds", "INT"],
  ["WrappedEnv.Name", "STRING"],
  ["WrappedStep.Name", "STRING"],
]);

/**
 * The symbols an expression refers to (the longest dotted prefix its document defines, else a
 * namespace-shaped guess), bound concretely (`value`) or as `unresolved[T]` (`any` if unknown).
 */
export function symbolsFor(entry: CorpusExpression, expr: Expr): { check: Map<string, ExprValue>; concrete: Map<string, ExprValue> | null } {
  const check = new Map<string, ExprValue>();
  const concrete = new Map<string, ExprValue>();
  let complete = true;
  for (const chain of referencedChains(expr)) {
    const name = symbolName(chain, (n) => entry.symbols.has(n) || HOST_SAMPLE.has(n));
    const known = entry.symbols.get(name) ?? hostSymbol(name);
    check.set(name, unresolvedValue(known?.type ?? ANY));
    if (known?.value) concrete.set(name, known.value);
    else complete = false;
  }
  return { check, concrete: complete ? concrete : null };
}

function hostSymbol(name: string): { type: ExprType; value: ExprValue } | undefined {
  const type = HOST_SAMPLE.get(name);
  return type === undefined ? undefined : typed(sampleValue(type));
}

function symbolName(chain: readonly string[], known: (name: string) => boolean): string {
  for (let n = chain.length; n >= 1; n--) if (known(chain.slice(0, n).join("."))) return chain.slice(0, n).join(".");
  const head = chain[0] as string;
  const parts = (head === "Task" && chain.length > 2) || (head === "Env" && chain[1] === "File") ? 3 : /^[A-Z]/.test(head) ? 2 : 1;
  return chain.slice(0, Math.min(parts, chain.length)).join(".");
}

/** Dotted name chains an expression reads, without comprehension variables. */
export function referencedChains(expr: Expr, bound: ReadonlySet<string> = new Set()): string[][] {
  const chain = dotted(expr);
  if (chain !== null) return bound.has(chain[0] as string) ? [] : [chain];
  switch (expr.kind) {
    case "comprehension": {
      const inner = new Set([...bound, expr.variable]);
      return [...referencedChains(expr.iterable, bound), ...[expr.element, expr.condition].flatMap((e) => (e ? referencedChains(e, inner) : []))];
    }
    case "call":
      // A method's name is not a symbol; its receiver and arguments are.
      return [...(expr.callee.kind === "attribute" ? referencedChains(expr.callee.object, bound) : []), ...expr.args.flatMap((a) => referencedChains(a, bound))];
    default:
      return childrenOf(expr).flatMap((child) => (child === null ? [] : referencedChains(child, bound)));
  }
}

function dotted(expr: Expr): string[] | null {
  if (expr.kind === "name") return [expr.name];
  if (expr.kind !== "attribute") return null;
  const head = dotted(expr.object);
  return head === null ? null : [...head, expr.name];
}
