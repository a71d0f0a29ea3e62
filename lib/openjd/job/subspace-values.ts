/**
 * One subspace entry's range evaluated for one downstream task (TASK_DEPENDENCIES §1.1), and the
 * upstream parameter values it selects. Integer ranges stay range expressions, so `1-1000000000`
 * costs the upstream parameter's size; values not in the upstream space select nothing.
 */
import { listOf, PATH, STRING, union, type ExprType } from "../expr/types";
import { toText, type ExprValue } from "../expr/values";
import { isTypedField, type FormatEnvironment } from "../format-evaluation";
import type { Path, TaskParameterRange } from "../model";
import type { Parsed } from "../numbers";
import type { TaskParameterType } from "../parameter-space";
import { IntRangeExpr } from "../range-expr";
import { rangeExpressionTarget, rangeItemType } from "../validate/task-parameters";
import { resolveItems, resolveText, resolveValue } from "./resolve-fields";
import { valueKey, type SpaceLeaf } from "./task-space";

/** The values a range gave: an integer range expression, or matching keys (see valueKey). */
export type EntryValues = { kind: "range"; range: IntRangeExpr } | { kind: "keys"; keys: string[] };

/** A failure names the list item it came from, when it came from one. */
export type EntryResult = { ok: true; value: EntryValues } | { ok: false; message: string; path?: Path };

export function evaluateEntry(range: TaskParameterRange, type: TaskParameterType, env: FormatEnvironment): EntryResult {
  const isInt = type === "INT" || type === "CHUNK[INT]";
  if (range.kind === "list") {
    const keys: string[] = [];
    for (const item of range.items) {
      const resolved = resolveItems(item.format, env, rangeItemType(taskTypeName(type)));
      const values = resolved.ok ? keyList(type, resolved.value) : resolved;
      if (!values.ok) return { ...values, path: item.path };
      keys.push(...values.value);
    }
    return { ok: true, value: { kind: "keys", keys } };
  }
  if (isTypedField(range.format)) {
    const value = resolveValue(range.format, env, isInt ? rangeExpressionTarget("INT") : oneOrList(type));
    if (!value.ok) return value;
    return valuesOf(type, value.value);
  }
  const text = resolveText(range.format, env);
  if (!text.ok) return text;
  if (!isInt) return keysOf(type, [text.value]);
  const parsed = IntRangeExpr.tryParse(text.value);
  return parsed.ok ? { ok: true, value: { kind: "range", range: parsed.value } } : { ok: false, message: `'${text.value}' is not a valid range expression: ${parsed.message}` };
}

function taskTypeName(type: TaskParameterType): "INT" | "FLOAT" | "STRING" | "PATH" {
  return type === "CHUNK[INT]" ? "INT" : type;
}

/** FLOAT, STRING and PATH ranges: one value, or with EXPR a list of them. */
function oneOrList(type: TaskParameterType): ExprType {
  const item = type === "PATH" ? union([STRING, PATH]) : rangeItemType(taskTypeName(type));
  return union([item, listOf(item)]);
}

function valuesOf(type: TaskParameterType, value: ExprValue | null): Parsed<EntryValues> {
  if (value === null) return { ok: true, value: { kind: "keys", keys: [] } };
  if (value.kind === "range_expr") return { ok: true, value: { kind: "range", range: value.value } };
  return keysOf(type, value.kind === "list" ? value.items.map(toText) : [toText(value)]);
}

function keysOf(type: TaskParameterType, texts: readonly string[]): Parsed<EntryValues> {
  const keys = keyList(type, texts);
  return keys.ok ? { ok: true, value: { kind: "keys", keys: keys.value } } : keys;
}

function keyList(type: TaskParameterType, texts: readonly string[]): Parsed<string[]> {
  const keys: string[] = [];
  for (const text of texts) {
    const key = valueKey(type, text);
    if (!key.ok) return key;
    keys.push(key.value);
  }
  return { ok: true, value: keys };
}

/** The upstream leaf's row-space indices holding one of `values`, ascending and unique. */
export function selectRows(leaf: SpaceLeaf, values: EntryValues): number[] {
  const rows = new Set<number>();
  if (values.kind === "keys") {
    for (const key of values.keys) for (const row of leaf.rowsByKey.get(key) ?? []) rows.add(row);
  } else if (values.range.size <= BigInt(leaf.texts.length)) {
    for (const value of values.range.values()) for (const row of leaf.rowsByKey.get(value.toString()) ?? []) rows.add(row);
  } else {
    // A range wider than the parameter: test the parameter's values against it instead.
    leaf.ints?.forEach((value, i) => {
      if (values.range.indexOf(value) >= 0n) rows.add(leaf.chunkOf ? leaf.chunkOf[i]! : i);
    });
  }
  return [...rows].sort((a, b) => a - b);
}

/** The leaf's value indices (frames) holding one of `values`, ascending: for messages about chunks. */
export function selectFrames(leaf: SpaceLeaf, values: EntryValues): number[] {
  const keys = values.kind === "keys" ? new Set(values.keys) : null;
  return leaf.texts.flatMap((text, i) => {
    if (keys === null) return values.kind === "range" && leaf.ints && values.range.indexOf(leaf.ints[i]!) >= 0n ? [i] : [];
    const key = valueKey(leaf.type, text);
    return key.ok && keys.has(key.value) ? [i] : [];
  });
}
