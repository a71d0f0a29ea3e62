/**
 * Resolving template-scope format strings at job creation, with the checks the spec applies
 * afterwards. With EXPR a whole-field expression keeps its type: `null` drops an optional field
 * and a list item that evaluates to a list is spliced in (spec digest §13.4).
 */
import { ExprError } from "../expr/errors";
import { FLOAT, INT, STRING, optional, type ExprType } from "../expr/types";
import { toText, type ExprValue } from "../expr/values";
import { evaluateFormat, formatText, isTypedField, listItemTarget, type FormatEnvironment } from "../format-evaluation";
import type { FormatString } from "../format-string";
import { MAX_NOTIFY_PERIOD, type CancelationMode, type FloatLiteral, type NumberField } from "../model";
import { parseFloatText, parseIntText, type Parsed } from "../numbers";

export type Symbols = FormatEnvironment;

function failure(error: unknown, format: FormatString): { ok: false; message: string } {
  if (!(error instanceof ExprError)) throw error;
  const at = error.span && format.segments.length > 1 ? ` (at character ${error.span.start + 1})` : "";
  return { ok: false, message: `${error.message}${at}` };
}

export function resolveText(format: FormatString, env: Symbols): Parsed<string> {
  try {
    return { ok: true, value: formatText(format, env) };
  } catch (error) {
    return failure(error, format);
  }
}

/** A typed value for a field that accepts `target`; null when an EXPR expression produced null. */
export function resolveValue(format: FormatString, env: Symbols, target: ExprType): Parsed<ExprValue | null> {
  try {
    const value = evaluateFormat(format, env, target);
    return { ok: true, value: value.kind === "null" ? null : value };
  } catch (error) {
    return failure(error, format);
  }
}

/**
 * The values of one list item (task range items, attribute values): a whole-field EXPR
 * expression may yield null (no item) or a list (spliced); everything else is one text value.
 */
export function resolveItems(format: FormatString, env: Symbols, itemType: ExprType): Parsed<string[]> {
  if (!isTypedField(format)) {
    const text = resolveText(format, env);
    return text.ok ? { ok: true, value: [text.value] } : text;
  }
  const value = resolveValue(format, env, listItemTarget(itemType));
  if (!value.ok) return value;
  if (value.value === null) return { ok: true, value: [] };
  if (value.value.kind === "list") return { ok: true, value: value.value.items.map(toText) };
  return { ok: true, value: [toText(value.value)] };
}

export function resolveIntField(field: NumberField<bigint>, env: Symbols): Parsed<bigint | null> {
  if (field.kind === "literal") return { ok: true, value: field.value };
  if (isTypedField(field.format)) {
    const value = resolveValue(field.format, env, optional(INT));
    if (!value.ok) return value;
    return { ok: true, value: value.value?.kind === "int" ? value.value.value : null };
  }
  const text = resolveText(field.format, env);
  if (!text.ok) return text;
  const parsed = parseIntText(text.value);
  return parsed.ok ? parsed : { ok: false, message: `'${field.format.raw}' resolved to ${parsed.message}` };
}

/** Why a resolved action timeout is refused, or null; job creation and the worker apply the same rule. */
export function timeoutProblem(seconds: bigint): string | null {
  return seconds <= 0n ? `timeout resolved to ${seconds}; it must be a positive number of seconds` : null;
}

/** Why a resolved notifyPeriodInSeconds is refused, or null. */
export function notifyPeriodProblem(seconds: bigint): string | null {
  return seconds < 1n || seconds > BigInt(MAX_NOTIFY_PERIOD) ? `notifyPeriodInSeconds resolved to ${seconds}; it must be between 1 and ${MAX_NOTIFY_PERIOD}` : null;
}

export function resolveFloatField(field: NumberField<FloatLiteral>, env: Symbols): Parsed<FloatLiteral | null> {
  if (field.kind === "literal") return { ok: true, value: field.value };
  if (isTypedField(field.format)) {
    const value = resolveValue(field.format, env, optional(FLOAT));
    if (!value.ok) return value;
    if (value.value?.kind !== "float") return { ok: true, value: null };
    return { ok: true, value: { value: value.value.value, text: toText(value.value) } };
  }
  const text = resolveText(field.format, env);
  if (!text.ok) return text;
  const parsed = parseFloatText(text.value);
  return parsed.ok ? parsed : { ok: false, message: `'${field.format.raw}' resolved to ${parsed.message}` };
}

/**
 * A format-string cancelation mode: one of the two names, or null when a whole-field expression
 * yields null (which drops the whole cancelation object).
 */
export function resolveMode(format: FormatString, env: Symbols): Parsed<CancelationMode | null> {
  let text: string;
  if (isTypedField(format)) {
    const value = resolveValue(format, env, optional(STRING));
    if (!value.ok) return value;
    if (value.value === null) return { ok: true, value: null };
    text = toText(value.value);
  } else {
    const value = resolveText(format, env);
    if (!value.ok) return value;
    text = value.value;
  }
  if (text === "TERMINATE" || text === "NOTIFY_THEN_TERMINATE") return { ok: true, value: text };
  return { ok: false, message: `cancelation mode resolved to '${text}'; it must be TERMINATE or NOTIFY_THEN_TERMINATE` };
}
