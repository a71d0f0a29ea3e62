/**
 * The values of the dependency scope (TASK_DEPENDENCIES §3) at job creation: every step's
 * `Step.<S>.ParameterSpace.<P>.Range`, the downstream task's `Task.Param.*` / `Task.RawParam.*`
 * per value, and which of those a range reads, so that a range reading one task parameter is
 * evaluated once per value of it instead of once per task.
 */
import { childrenOf, type Expr } from "../expr/ast";
import { FLOAT, STRING } from "../expr/types";
import { floatValue, intValue, makeList, pathValue, stringValue, type ExprValue, type PathFormat } from "../expr/values";
import type { FormatString } from "../format-string";
import type { TaskParameterRange } from "../model";
import type { SpaceParameter } from "../parameter-space";
import { IntRangeExpr } from "../range-expr";
import { IDENTIFIER } from "../validate/scalars";
import type { SpaceLeaf } from "./task-space";

/** `Step.<S>.ParameterSpace.<P>.Range` for every step that can be named so (an identifier other than `Name`). */
export function stepRangeSymbols(steps: readonly { name: string; parameters: readonly SpaceParameter[] }[], expr: boolean): Map<string, ExprValue> {
  const symbols = new Map<string, ExprValue>();
  const seen = new Set<string>();
  for (const step of steps) {
    if (!IDENTIFIER.test(step.name) || step.name === "Name" || seen.has(step.name)) continue;
    seen.add(step.name);
    for (const p of step.parameters) symbols.set(`Step.${step.name}.ParameterSpace.${p.name}.Range`, rangeValue(p, expr));
  }
  return symbols;
}

/** A range_expr for integers (its canonical text without EXPR), a list for the other types. */
function rangeValue(parameter: SpaceParameter, expr: boolean): ExprValue {
  const values = parameter.values;
  if (parameter.type === "INT" || parameter.type === "CHUNK[INT]") {
    const range = values instanceof IntRangeExpr ? values : IntRangeExpr.fromValues(values.map((v) => BigInt(v)));
    return expr ? { kind: "range_expr", value: range } : stringValue(range.toString());
  }
  const texts = values instanceof IntRangeExpr ? [] : values;
  if (parameter.type === "FLOAT")
    return makeList(
      texts.map((t) => floatValue(Number(t), t)),
      FLOAT,
    );
  return makeList(texts.map(stringValue), STRING);
}

/** A downstream parameter's `Task.Param` and `Task.RawParam` values by value index, made on first use. */
export class TaskValues {
  readonly #param: ExprValue[] = [];
  readonly #raw: ExprValue[] = [];

  constructor(
    readonly leaf: SpaceLeaf,
    private readonly pathFormat: PathFormat,
  ) {}

  param(index: number): ExprValue {
    return (this.#param[index] ??= this.#make(index, false));
  }

  raw(index: number): ExprValue {
    return (this.#raw[index] ??= this.#make(index, true));
  }

  #make(index: number, raw: boolean): ExprValue {
    const text = this.leaf.texts[index]!;
    switch (this.leaf.type) {
      case "INT":
      case "CHUNK[INT]":
        return intValue(this.leaf.ints![index]!);
      case "FLOAT":
        return floatValue(Number(text), text);
      case "STRING":
        return stringValue(text);
      case "PATH":
        return raw ? stringValue(text) : pathValue(text, this.pathFormat);
    }
  }
}

/** The task parameters a range reads (`Task.Param.X`, `Task.RawParam.X`); null when it uses `Task` some other way. */
export function taskParametersRead(range: TaskParameterRange): Set<string> | null {
  const names = new Set<string>();
  const formats: FormatString[] = range.kind === "expression" ? [range.format] : range.items.map((i) => i.format);
  for (const format of formats) {
    for (const segment of format.segments) {
      if (segment.kind === "literal") continue;
      if (segment.expr) {
        if (!readsFromExpr(segment.expr, names)) return null;
      } else if (segment.reference !== null) {
        const match = /^Task\.(?:Raw)?Param\.(.+)$/.exec(segment.reference);
        if (match) names.add(match[1]!);
        else if (segment.reference.startsWith("Task.")) return null;
      } else if (/\bTask\b/.test(segment.source)) return null;
    }
  }
  return names;
}

function readsFromExpr(expr: Expr, names: Set<string>): boolean {
  if (expr.kind === "attribute" && expr.object.kind === "attribute" && expr.object.object.kind === "name" && expr.object.object.name === "Task") {
    if (expr.object.name !== "Param" && expr.object.name !== "RawParam") return false;
    names.add(expr.name);
    return true;
  }
  if (expr.kind === "name" && expr.name === "Task") return false;
  return childrenOf(expr).every((child) => child === null || readsFromExpr(child, names));
}

/**
 * Symbols looked up through layers, first hit wins: a task's values over the step's scope,
 * without copying the step's scope (and every step's ranges) once per dependency.
 */
export class LayeredSymbols implements ReadonlyMap<string, ExprValue> {
  readonly #layers: readonly ReadonlyMap<string, ExprValue>[];

  constructor(...layers: ReadonlyMap<string, ExprValue>[]) {
    this.#layers = layers;
  }

  get(key: string): ExprValue | undefined {
    for (const layer of this.#layers) {
      const value = layer.get(key);
      if (value !== undefined) return value;
    }
    return undefined;
  }

  has(key: string): boolean {
    return this.#layers.some((layer) => layer.has(key));
  }

  get size(): number {
    return this.#merged().size;
  }

  forEach(callback: (value: ExprValue, key: string, map: ReadonlyMap<string, ExprValue>) => void): void {
    this.#merged().forEach((value, key) => callback(value, key, this));
  }

  entries(): MapIterator<[string, ExprValue]> {
    return this.#merged().entries();
  }

  keys(): MapIterator<string> {
    return this.#merged().keys();
  }

  values(): MapIterator<ExprValue> {
    return this.#merged().values();
  }

  [Symbol.iterator](): MapIterator<[string, ExprValue]> {
    return this.entries();
  }

  /** Only error messages list every name (for "did you mean"), so merging on demand is fine. */
  #merged(): Map<string, ExprValue> {
    const merged = new Map<string, ExprValue>();
    for (const layer of [...this.#layers].reverse()) for (const [key, value] of layer) merged.set(key, value);
    return merged;
  }
}
