/**
 * Resolving format strings with values: the one routine job creation and the Session runtime
 * share. Base format strings are text with references; with EXPR a whole-field expression
 * (`"{{ expr }}"` alone) keeps its type and is coerced to the field's target type, while text
 * around expressions always yields a string (null interpolates as "").
 */
import type { Expr } from "./expr/ast";
import { coerceTo } from "./expr/coerce";
import { ExprError } from "./expr/errors";
import { evaluate } from "./expr/evaluator";
import { standardLibrary, type LibraryScope } from "./expr/functions";
import { STRING, listOf, optional, union, type ExprType } from "./expr/types";
import { stringValue, toInterpolatedText, toText, type ExprValue, type PathFormat } from "./expr/values";
import type { FormatString } from "./format-string";

export interface FormatEnvironment {
  /** Values by dotted name: `Param.X`, `RawParam.X`, `Task.Param.F`, `Session.WorkingDirectory`, let names… */
  symbols: ReadonlyMap<string, ExprValue>;
  /** Template fields use the template library; worker-side fields the host library (apply_path_mapping). */
  scope: LibraryScope;
  pathFormat: PathFormat;
  mapPath?: ((value: string) => string) | null;
}

/**
 * What a whole-field expression may produce in a field that is one item of a list (args,
 * attribute values, task range items): an item, null (no item) or a list (spliced in).
 */
export function listItemTarget(item: ExprType): ExprType {
  return union([optional(item), listOf(item)]);
}

/** True when the field is exactly one EXPR expression, whose value keeps its type. */
export function isTypedField(format: FormatString): boolean {
  return format.segments.length === 1 && format.segments[0]?.kind === "expression" && format.segments[0].expr !== undefined;
}

/**
 * Evaluates a format string. Throws ExprError (kinds "name", "type", "value", "limit", …) with
 * the offset of the failing expression within the field in `error.span` (relative to the raw text).
 */
export function evaluateFormat(format: FormatString, env: FormatEnvironment, target: ExprType = STRING): ExprValue {
  const first = format.segments[0];
  if (isTypedField(format) && first?.kind === "expression" && first.expr) {
    return evaluateSegment(first.expr, first.sourceOffset ?? 0, env, target);
  }
  let text = "";
  for (const segment of format.segments) {
    if (segment.kind === "literal") text += segment.text;
    else if (segment.expr) text += toInterpolatedText(evaluateSegment(segment.expr, segment.sourceOffset ?? 0, env, null));
    else text += referenceText(segment.reference ?? segment.source, env);
  }
  return coerceTo(stringValue(text), target, env.pathFormat);
}

/** Resolves to text, as every base-language field does. */
export function formatText(format: FormatString, env: FormatEnvironment): string {
  return toText(evaluateFormat(format, env, STRING));
}

function evaluateSegment(expr: Expr, offset: number, env: FormatEnvironment, target: ExprType | null): ExprValue {
  try {
    return evaluate(expr, {
      library: standardLibrary(env.scope),
      symbols: env.symbols,
      pathFormat: env.pathFormat,
      mapPath: env.mapPath ?? null,
      ...(target ? { target } : {}),
    });
  } catch (error) {
    if (error instanceof ExprError && error.span) error.span = { start: error.span.start + offset, end: error.span.end + offset };
    throw error;
  }
}

function referenceText(reference: string, env: FormatEnvironment): string {
  const value = env.symbols.get(reference);
  if (value === undefined) throw new ExprError("name", `'${reference}' has no value here`);
  return toText(value);
}
