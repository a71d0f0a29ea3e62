/**
 * Runtime values of EXPR (spec digest §14.3–§14.4): int64 integers as bigint, finite floats
 * that remember their written text, paths with their format, range expressions, homogeneous
 * lists, and `unresolved` placeholders that carry only a type (used for static checking).
 */
import { INT64_MAX, INT64_MIN } from "../numbers";
import type { IntRangeExpr } from "../range-expr";
import { ExprError, typeError } from "./errors";
import { formatFloat } from "./float-format";
import type { PathFormat } from "./paths/path-error";
import { BOOL, FLOAT, INT, NULLTYPE, PATH, RANGE_EXPR, STRING, listDepth, listOf, resolvedType, typeToString, unresolved, type ExprType } from "./types";

/** The path flavour of `path` values is the one the path functions implement. */
export type { PathFormat };

export type ExprValue =
  | { kind: "null" }
  | { kind: "bool"; value: boolean }
  | { kind: "int"; value: bigint }
  /** `text` is the literal as written (pass-through); null once the value came from arithmetic. */
  | { kind: "float"; value: number; text: string | null }
  | { kind: "string"; value: string }
  | { kind: "path"; value: string; format: PathFormat }
  /** `text`: a task's chunk as the scheduler wrote it (`7-8`), kept for interpolation like a float literal. */
  | { kind: "range_expr"; value: IntRangeExpr; text?: string }
  | { kind: "list"; items: readonly ExprValue[]; itemType: ExprType }
  | { kind: "unresolved"; type: ExprType };

/**
 * A range expression can describe billions of values; listing more than this many would exceed
 * the default memory budget (about 16 bytes each) long before anything useful happened.
 */
const MAX_EXPANDED_RANGE = 2_000_000n;

export const NULL: ExprValue = { kind: "null" };
export const TRUE: ExprValue = { kind: "bool", value: true };
export const FALSE: ExprValue = { kind: "bool", value: false };

export function boolValue(value: boolean): ExprValue {
  return value ? TRUE : FALSE;
}

export function intValue(value: bigint): ExprValue {
  if (value < INT64_MIN || value > INT64_MAX) throw new ExprError("overflow", `integer overflow: ${value} does not fit in 64 bits`);
  return { kind: "int", value };
}

export function floatValue(value: number, text: string | null = null): ExprValue {
  if (!Number.isFinite(value)) throw new ExprError("overflow", `float result is ${Number.isNaN(value) ? "not a number" : "infinite"}`);
  return { kind: "float", value: value === 0 ? 0 : value, text };
}

export function stringValue(value: string): ExprValue {
  return { kind: "string", value };
}

export function pathValue(value: string, format: PathFormat): ExprValue {
  return { kind: "path", value, format };
}

export function unresolvedValue(type: ExprType): ExprValue {
  return { kind: "unresolved", type: resolvedType(type) };
}

export function typeOf(value: ExprValue): ExprType {
  switch (value.kind) {
    case "null":
      return NULLTYPE;
    case "bool":
      return BOOL;
    case "int":
      return INT;
    case "float":
      return FLOAT;
    case "string":
      return STRING;
    case "path":
      return PATH;
    case "range_expr":
      return RANGE_EXPR;
    case "list":
      return listOf(value.itemType);
    case "unresolved":
      return unresolved(value.type);
  }
}

/**
 * Builds a list from element values, applying the spec's promotion rules: int+float → float,
 * path+string → string (also one level down in nested lists); anything else mixed is an error.
 * `hint` gives the element type of an empty list.
 */
export function makeList(items: readonly ExprValue[], hint: ExprType = NULLTYPE): ExprValue {
  if (items.some((i) => i.kind === "null")) throw typeError("lists cannot contain null");
  if (items.length === 0) return { kind: "list", items: [], itemType: hint };
  const kinds = new Set(items.map((i) => i.kind));
  if (kinds.has("unresolved")) {
    return unresolvedValue(listOf(commonItemType(items.map((i) => resolvedType(typeOf(i))))));
  }
  if (kinds.size === 1 && !kinds.has("list")) return { kind: "list", items, itemType: typeOf(items[0] as ExprValue) };
  if (kinds.size === 2 && kinds.has("int") && kinds.has("float")) return { kind: "list", items: items.map(toFloat), itemType: FLOAT };
  if (kinds.size === 2 && kinds.has("path") && kinds.has("string")) return { kind: "list", items: items.map(toPlainString), itemType: STRING };
  if (kinds.size === 1 && kinds.has("list")) {
    const inner = items as Array<Extract<ExprValue, { kind: "list" }>>;
    if (inner.some((l) => listDepth(l.itemType) > 0)) throw typeError("lists nest at most two levels deep");
    const itemType = commonItemType(inner.filter((l) => l.items.length > 0).map((l) => l.itemType));
    const lists = inner.map((l) =>
      l.items.length === 0
        ? { ...l, itemType }
        : makeList(
            l.items.map((v) => (itemType === FLOAT ? toFloat(v) : itemType === STRING ? toPlainString(v) : v)),
            itemType,
          ),
    );
    return { kind: "list", items: lists, itemType: listOf(itemType) };
  }
  throw typeError(`a list cannot mix ${[...kinds].sort().join(" and ")} values`);
}

function commonItemType(types: readonly ExprType[]): ExprType {
  // An empty list (`list[nulltype]`) takes the type of its neighbours.
  const concrete = types.filter((t) => !(t.code === "list" && t.item.code === "nulltype"));
  if (concrete.length === 0) return types[0] ?? NULLTYPE;
  const names = new Set(concrete.map(typeToString));
  if (names.size === 1) return concrete[0] as ExprType;
  if (names.size === 2 && names.has("int") && names.has("float")) return FLOAT;
  if (names.size === 2 && names.has("path") && names.has("string")) return STRING;
  if (concrete.every((t) => t.code === "list")) {
    return listOf(commonItemType(concrete.map((t) => (t as { item: ExprType }).item)));
  }
  throw typeError(`a list cannot mix ${[...names].sort().join(" and ")} values`);
}

function toFloat(v: ExprValue): ExprValue {
  return v.kind === "int" ? floatValue(Number(v.value)) : v;
}

function toPlainString(v: ExprValue): ExprValue {
  return v.kind === "path" ? stringValue(v.value) : v;
}

/** Elements of a list or range expression (range expressions are lists of int). */
export function elementsOf(value: ExprValue): readonly ExprValue[] {
  if (value.kind === "list") return value.items;
  if (value.kind === "range_expr") {
    // A range can describe billions of values; only ones the operation budget could pay for are expanded.
    if (value.value.size > MAX_EXPANDED_RANGE) throw new ExprError("limit", `range expression has ${value.value.size} values; at most ${MAX_EXPANDED_RANGE} can be listed`);
    return [...value.value.values()].map((v) => ({ kind: "int", value: v }) as ExprValue);
  }
  throw typeError(`expected a list, got ${typeToString(typeOf(value))}`);
}

/** The `string()` conversion: `null` → "null", floats as written or Python repr, lists JSON-like. */
export function toText(value: ExprValue): string {
  switch (value.kind) {
    case "null":
      return "null";
    case "bool":
      return value.value ? "true" : "false";
    case "int":
      return value.value.toString();
    case "float":
      return value.text ?? formatFloat(value.value);
    case "string":
    case "path":
      return value.value;
    case "range_expr":
      return value.text ?? value.value.toString();
    case "list":
      return `[${value.items.map(toListItemText).join(", ")}]`;
    case "unresolved":
      return `unresolved[${typeToString(value.type)}]`;
  }
}

function toListItemText(value: ExprValue): string {
  return value.kind === "string" || value.kind === "path" ? JSON.stringify(value.value) : toText(value);
}

/** Text of a value interpolated inside a format string with other text: `null` → "". */
export function toInterpolatedText(value: ExprValue): string {
  return value.kind === "null" ? "" : toText(value);
}
