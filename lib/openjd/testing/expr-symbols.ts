/**
 * The symbol table that generated EXPR expressions run against: one value of every kind the
 * language has, under the names templates use (`Param.*`, `Task.*`, `Session.*`, `Env.File.*`,
 * let names). The same names bound to `unresolved[T]` values drive static type checking.
 */
import { IntRangeExpr } from "../range-expr";
import { parseType } from "../expr/types";
import { boolValue, floatValue, intValue, makeList, pathValue, stringValue, unresolvedValue, type ExprValue } from "../expr/values";

/** Value kinds the generator reasons about; `list[...]` ones are homogeneous. */
export type GenType = "int" | "float" | "string" | "bool" | "path" | "range_expr" | "list[int]" | "list[float]" | "list[string]" | "list[path]" | "list[bool]" | "list[list[int]]";

export const GEN_TYPES: readonly GenType[] = ["int", "float", "string", "bool", "path", "range_expr", "list[int]", "list[float]", "list[string]", "list[path]", "list[bool]", "list[list[int]]"];

export interface SampleSymbol {
  name: string;
  type: GenType;
  value: ExprValue;
}

const ints = (...ns: number[]): ExprValue => makeList(ns.map((n) => intValue(BigInt(n))));
const strings = (...ss: string[]): ExprValue => makeList(ss.map(stringValue));
const posix = (s: string): ExprValue => pathValue(s, "POSIX");
const range = (text: string): ExprValue => ({ kind: "range_expr", value: IntRangeExpr.parse(text) });

export const SAMPLE_SYMBOLS: readonly SampleSymbol[] = [
  { name: "Param.Frame", type: "int", value: intValue(12n) },
  { name: "Param.Count", type: "int", value: intValue(3n) },
  { name: "Param.Big", type: "int", value: intValue(9_223_372_036_854_775_807n) },
  { name: "Param.Scale", type: "float", value: floatValue(1.5, "1.50") },
  { name: "Param.Tiny", type: "float", value: floatValue(5e-324) },
  { name: "Param.Name", type: "string", value: stringValue("shot_010") },
  { name: "Param.Text", type: "string", value: stringValue("  Héllo, wörld\t\n\u{1F600} ") },
  { name: "Param.Flag", type: "bool", value: boolValue(true) },
  { name: "Param.File", type: "path", value: posix("/mnt/projects/scene.v2.blend") },
  { name: "Param.OutDir", type: "path", value: posix("/tmp/out") },
  { name: "Param.Frames", type: "range_expr", value: range("1-10,20-30:5") },
  { name: "Param.Huge", type: "range_expr", value: range("1-9223372036854775807") },
  { name: "Param.Numbers", type: "list[int]", value: ints(3, 1, 4, 1, 5, 9, 2, 6) },
  { name: "Param.Ratios", type: "list[float]", value: makeList([floatValue(0.5), floatValue(2.25), floatValue(-1e-3)]) },
  { name: "Param.Names", type: "list[string]", value: strings("a", "b c", "d'e", "") },
  { name: "Param.Paths", type: "list[path]", value: makeList([posix("/a/b.txt"), posix("rel/c.tar.gz")]) },
  { name: "Param.Checks", type: "list[bool]", value: makeList([boolValue(true), boolValue(false)]) },
  { name: "Param.Matrix", type: "list[list[int]]", value: makeList([ints(1, 2), ints(3), ints()]) },
  { name: "RawParam.File", type: "string", value: stringValue("/mnt/projects/scene.v2.blend") },
  { name: "Task.Param.Frame", type: "int", value: intValue(7n) },
  { name: "Task.Param.Chunk", type: "range_expr", value: range("1-4") },
  { name: "Task.File.Script", type: "path", value: posix("/tmp/session/embedded/run.sh") },
  { name: "Session.WorkingDirectory", type: "path", value: posix("/tmp/session") },
  { name: "Session.HasPathMappingRules", type: "bool", value: boolValue(false) },
  { name: "Env.File.Config", type: "path", value: posix("/tmp/session/embedded/config.json") },
  { name: "work_dir", type: "path", value: posix("/tmp/session/output") },
  { name: "count", type: "int", value: intValue(-4n) },
  { name: "label", type: "string", value: stringValue("frame-{{x}}") },
];

export function symbolsOfType(type: GenType): SampleSymbol[] {
  return SAMPLE_SYMBOLS.filter((s) => s.type === type);
}

/** Concrete values for evaluation. */
export function concreteSymbols(): Map<string, ExprValue> {
  return new Map(SAMPLE_SYMBOLS.map((s) => [s.name, s.value]));
}

/** The same names as `unresolved[T]` placeholders, for type checking. */
export function unresolvedSymbols(): Map<string, ExprValue> {
  return new Map(SAMPLE_SYMBOLS.map((s) => [s.name, unresolvedValue(parseType(s.type))]));
}
